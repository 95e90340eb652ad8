// SPDX-License-Identifier: Apache-2.0
// The person-readable verdict of an analysed profile (<stem>.txt, docs/model.md).
#include "model/text_summary.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>

#include "common/repeats.hpp"
#include "common/string_printf.hpp"
#include "common/text_safety.hpp"
#include "common/time_format.hpp"
#include "model/counters.hpp"
#include "model/flop_roofline.hpp"
#include "model/kernel_labels.hpp"
#include "model/pipe_ceilings.hpp"
#include "model/summary_regions.hpp"
#include "model/summary_samples.hpp"
#include "model/walls.hpp"

namespace irf::model {

using common::format_time;
using common::printable;
using common::string_printf;
using common::utf8_length;
using common::utf8_prefix;

namespace {

const std::size_t s_max_target_columns = 4;

// Width of a projection column: its "->name" header, at least 8.
int target_width(const std::string& target) {
    return static_cast<int>(std::max<std::size_t>(8, 2 + std::min<std::size_t>(target.size(), 30)));
}

std::vector<std::string> target_names(const Profile& p) {
    std::vector<std::string> names;
    for (const KernelRecord& k : p.kernels) {
        if (!k.analysis) {
            continue;
        }
        for (const Projection& proj : k.analysis->projection) {
            if (std::find(names.begin(), names.end(), proj.target) == names.end()) {
                names.push_back(proj.target);
            }
        }
    }
    return names;
}

// Column layout of the kernel table beyond the fixed columns.
struct RowLayout {
    int name_width = 0;
    int global_width = 12; ///< the longest "pattern width" label shown, at least 12
    bool tensor = false;   ///< a shown kernel issued tensor instructions: the tensor column
    bool job = false;      ///< a merged job: the imbalance column
};

// Tensor-pipe use: "65.0%", "?" when tensor instructions ran but their ops were not counted,
// "-" without tensor instructions.
std::string tensor_cell(const KernelRecord& k) {
    const KernelAnalysis* a = k.analysis ? &*k.analysis : nullptr;
    if (a && a->flops && a->flops->tensor_pipe_pct) {
        return string_printf("%.1f%%", *a->flops->tensor_pipe_pct);
    }
    const auto inst = counter(k.counters, "inst_tensor");
    return inst && *inst > 0 ? "?" : "-";
}

std::string global_cell(const KernelRecord& k) {
    const KernelAnalysis* a = k.analysis ? &*k.analysis : nullptr;
    return a && a->walls.global ? printable(global_label(*a->walls.global)) : "-";
}

std::string row(const KernelRecord& k, const std::string& label, const RowLayout& layout,
                std::size_t rank, double total_ns, const std::vector<std::string>& targets) {
    const int name_width = layout.name_width;
    const double pct = total_ns > 0 ? 100.0 * k.time_ns.total / total_ns : 0.0;
    // Per-launch mean, min and max beside the total: a kernel whose total hides one slow launch
    // (module load, a cold cache) reads differently from one that is uniformly slow.
    std::string line = string_printf("%3zu  %-*s %9s %5.1f%% %8llu %9s %9s %9s", rank, name_width,
                                     label.c_str(), format_time(k.time_ns.total).c_str(), pct,
                                     static_cast<unsigned long long>(k.launches),
                                     format_time(k.time_ns.mean).c_str(),
                                     format_time(k.time_ns.min).c_str(), max_cell(k).c_str());
    const KernelAnalysis* a = k.analysis ? &*k.analysis : nullptr;
    const bool irm = a != nullptr && a->irm && !a->irm->bound.empty();
    line += string_printf(" %-6s", irm ? printable(a->irm->bound).c_str() : "-");
    // "!" marks a kernel above its roofline (ceilings of another GPU); the kernel's note says so.
    line += !irm                       ? string_printf(" %7s", "-")
            : a->irm->above_roofline() ? string_printf(" %5.0f%%!", a->irm->roofline_pct)
                                       : string_printf(" %6.1f%%", a->irm->roofline_pct);
    const std::optional<double> recoverable = recoverable_ns(k);
    line += string_printf(" %9s", recoverable ? format_time(*recoverable).c_str() : "-");
    line += string_printf(" %-*s", layout.global_width, global_cell(k).c_str());
    // Conflict degree as "N-way", so it never reads like the "x" of a speedup.
    line += a && a->walls.shared ? string_printf(" %4.1f-way", a->walls.shared->conflict_ways)
                                 : string_printf(" %8s", "-");
    // Predication as the share of threads active per warp instruction (100% = none predicated).
    line += a && a->predication ? string_printf(" %6.1f%%", 100.0 * *a->predication)
                                : string_printf(" %7s", "-");
    line += string_printf(" %-9s", a && a->pipes ? busiest_pipe_label(*a->pipes).c_str() : "-");
    line += layout.tensor ? string_printf(" %6s", tensor_cell(k).c_str()) : "";
    line += layout.job ? imbalance_cell(k.ranks, 5) : "";
    for (const std::string& t : targets) {
        std::string cell = "-";
        for (const Projection& p : projections_of(k.analysis)) {
            if (p.target == t) {
                cell = string_printf("%.2fx%s", p.speedup_point, p.confidence == "low" ? "?" : "");
            }
        }
        line += string_printf(" %*s", target_width(t), cell.c_str());
    }
    while (!line.empty() && line.back() == ' ') {
        line.pop_back();
    }
    return line + "\n";
}

// Adds `line` for kernel `rank` to the folded list (one entry per distinct line, in first order).
void fold(std::vector<std::pair<std::string, std::vector<std::size_t>>>& folded,
          const std::string& line, std::size_t rank) {
    for (auto& [text, ranks] : folded) {
        if (text == line) {
            ranks.push_back(rank);
            return;
        }
    }
    folded.push_back({line, {rank}});
}

// Why verdicts of the shown kernels are absent: reasons that name absent counters are folded
// into one line per kernel; "no such instruction" reasons (nothing to judge) are left to the JSON.
// Identical lines of several kernels are printed once with the kernels' ranks, so a counter group
// that was not collected at all reads as one line, not one per kernel.
std::string missing_section(const std::vector<const KernelRecord*>& order, std::size_t shown) {
    std::vector<std::pair<std::string, std::vector<std::size_t>>> folded;
    for (std::size_t i = 0; i < shown; ++i) {
        if (!order[i]->no_counters.empty()) {
            fold(folded, "no counters: " + order[i]->no_counters, i + 1);
        }
        if (!order[i]->analysis) {
            continue;
        }
        std::string absent;
        for (const std::string& m : order[i]->analysis->missing) {
            const std::size_t colon = m.find(':');
            if (m.find("counters absent") != std::string::npos) {
                absent += (absent.empty() ? "" : ", ") + m.substr(0, colon);
            } else if (m.find(": no ") == std::string::npos) {
                fold(folded, m, i + 1);
            }
        }
        if (!absent.empty()) {
            fold(folded, "counters absent for " + absent, i + 1);
        }
        for (const std::string& note : order[i]->analysis->notes) {
            fold(folded, "note: " + note, i + 1);
        }
    }
    std::string out;
    for (const auto& [text, ranks] : folded) {
        const bool all = ranks.size() == shown && shown > 1;
        std::string who = all ? "all" : "";
        for (std::size_t j = 0; !all && j < ranks.size(); ++j) { // every rank, not the first only
            who += (j ? "," : "") + std::to_string(ranks[j]);
        }
        out += string_printf("  %-10s ", who.c_str()) + printable(text) + "\n";
    }
    return out.empty() ? out : "\nVerdicts left out (by kernel #):\n" + out;
}

// Projected time of all analysed kernels on one target: sums of the per-kernel estimates.
struct TargetTotal {
    std::string target;
    double source_ns = 0, low_ns = 0, point_ns = 0, high_ns = 0;
    std::size_t kernels = 0, low_confidence = 0;
};

std::vector<TargetTotal> target_totals(const Profile& p, const std::vector<std::string>& targets) {
    std::vector<TargetTotal> totals;
    for (const std::string& t : targets) {
        TargetTotal total{t};
        for (const KernelRecord& k : p.kernels) {
            for (const Projection& proj : projections_of(k.analysis)) {
                if (proj.target != t || !(proj.time_point_ns > 0)) {
                    continue;
                }
                total.source_ns += k.time_ns.total;
                total.low_ns += proj.time_low_ns;
                total.point_ns += proj.time_point_ns;
                total.high_ns += proj.time_high_ns;
                ++total.kernels;
                total.low_confidence += proj.confidence == "low" ? 1 : 0;
            }
        }
        if (total.kernels > 0) {
            totals.push_back(total);
        }
    }
    std::stable_sort(totals.begin(), totals.end(), [](const TargetTotal& a, const TargetTotal& b) {
        return a.source_ns / a.point_ns > b.source_ns / b.point_ns;
    });
    return totals;
}

// One line per target: the profiled kernels' total time projected there (Eq. 9 summed).
std::string projection_section(const Profile& p, const std::vector<std::string>& targets) {
    const std::vector<TargetTotal> totals = target_totals(p, targets);
    if (totals.empty()) {
        return "";
    }
    std::string out = "\nProjected kernel time on other GPUs (sum over projected kernels)\n";
    out += string_printf("  %-20s %10s %10s %21s %8s %s\n", "target", "here", "projected",
                         "interval", "speedup", "low-confidence");
    for (const TargetTotal& t : totals) {
        out += string_printf("  %-20s %10s %10s %10s - %-8s %7.2fx %zu of %zu\n",
                             utf8_prefix(printable(t.target), 20).c_str(),
                             format_time(t.source_ns).c_str(), format_time(t.point_ns).c_str(),
                             format_time(t.low_ns).c_str(), format_time(t.high_ns).c_str(),
                             t.source_ns / t.point_ns, t.low_confidence, t.kernels);
    }
    return out;
}

} // namespace

std::string text_summary(const Profile& p, const SummaryView& view) {
    const std::size_t top = view.top;
    std::ostringstream out;
    // Every text from the run (names, warnings quoting IRF_* values) is escaped: the summary
    // goes to the terminal, where control characters would act or forge lines.
    out << "irf " << printable(p.version) << " profile of "
        << (p.app.empty() ? "(unknown app)" : printable(p.app))
        << (p.rank ? " rank " + std::to_string(*p.rank) : std::string()) << " on "
        << (p.gpu.name.empty() ? "(unknown GPU)" : printable(p.gpu.name)) << "\n";
    if (p.ceilings) {
        // The source names the entry ("shipped:<key> (<path>)"); the bare name only when it does
        // not.
        const CeilingsUsed& c = *p.ceilings;
        out << "ceilings: "
            << printable(c.source.find(c.name) != std::string::npos
                             ? c.source
                             : c.name + " (" + c.source + ")")
            << "\n";
    }
    std::vector<const KernelRecord*> order;
    std::map<const KernelRecord*, std::string> label;
    const std::vector<std::string> labels = kernel_labels(p.kernels, view.names, view.name_width);
    // Width 0 cuts nothing: the column is as wide as the longest name (at least the default).
    int name_width = static_cast<int>(view.name_width);
    if (view.name_width == 0) {
        name_width = static_cast<int>(k_label_width);
        for (const std::string& l : labels) {
            name_width = std::max(name_width, static_cast<int>(l.size()));
        }
    }
    std::vector<const KernelRecord*> collectives; // overlap compute: listed apart
    std::vector<std::string> collective_labels;
    for (std::size_t i : kernel_order(p.kernels, labels, view.order)) {
        if (p.kernels[i].collective) {
            collectives.push_back(&p.kernels[i]);
            collective_labels.push_back(labels[i]);
            continue;
        }
        order.push_back(&p.kernels[i]);
        label[&p.kernels[i]] = labels[i];
    }
    const double total =
        std::accumulate(order.begin(), order.end(), 0.0, [](double s, const KernelRecord* k) {
            return s + std::max(0.0, k->time_ns.total);
        });
    const std::size_t shown = std::min(top, order.size());
    const std::vector<std::string> all_targets = target_names(p);
    // Per-kernel speedup columns stay readable for a few targets; with more, the per-target
    // section below and the JSON (or irf-report csv) carry the per-kernel projections.
    const std::vector<std::string> targets =
        all_targets.size() <= s_max_target_columns ? all_targets : std::vector<std::string>{};
    // Regions hold collectives too: their shares are of all kernel time.
    const double all_total = std::accumulate(
        collectives.begin(), collectives.end(), total,
        [](double sum, const KernelRecord* k) { return sum + std::max(0.0, k->time_ns.total); });
    out << regions_section(p, top, all_total, std::max(name_width, 12), view.region_depth);
    const char* by = view.order == KernelOrder::name          ? "name"
                     : view.order == KernelOrder::roofline    ? "% of roofline"
                     : view.order == KernelOrder::recoverable ? "recoverable time"
                                                              : "time";
    out << "\nTop " << shown << " of " << order.size() << " kernels by " << by << " (total "
        << format_time(total) << ")\n";
    RowLayout layout;
    layout.name_width = name_width;
    for (std::size_t i = 0; i < shown; ++i) {
        layout.global_width =
            std::max(layout.global_width, static_cast<int>(global_cell(*order[i]).size()));
        layout.tensor = layout.tensor || tensor_cell(*order[i]) != "-";
    }
    std::string header = string_printf(
        "%3s  %-*s %9s %6s %8s %9s %9s %9s %-6s %7s %9s %-*s %8s %7s %-9s", "#", name_width,
        "kernel", "total", "time%", "launches", "mean", "min", "max", "bound", "roof%", "recover",
        layout.global_width, "global", "shared", "active%", "pipe");
    header += layout.tensor ? string_printf(" %6s", "tensor") : "";
    // A merged job (irf-report merge) has per-rank statistics: how unevenly the ranks ran it.
    const bool job = std::any_of(order.begin(), order.end(),
                                 [](const KernelRecord* k) { return k->ranks.has_value(); });
    layout.job = job;
    header += job ? string_printf(" %5s", "imbal") : "";
    for (const std::string& t : targets) {
        header +=
            string_printf(" %*s", target_width(t), ("->" + utf8_prefix(printable(t), 30)).c_str());
    }
    while (!header.empty() && header.back() == ' ') {
        header.pop_back();
    }
    out << header << "\n";
    for (std::size_t i = 0; i < shown; ++i) {
        out << row(*order[i], label[order[i]], layout, i + 1, total, targets);
    }
    if (job) {
        out << "(imbal: the slowest rank's time / the mean over the job's ranks; 1 = balanced)\n";
    }
    if (std::any_of(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown),
                    [](const KernelRecord* k) { return k->analysis && k->analysis->pipes; })) {
        out << "(pipe: the busiest pipe, its warp instructions per second as a share of its "
               "peak, from the instruction mix)\n";
    }
    if (std::any_of(
            order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown),
            [](const KernelRecord* k) { return global_cell(*k).find('/') != std::string::npos; })) {
        out << "(global: access pattern and bytes per active thread; A/B = loads/stores)\n";
    }
    if (layout.tensor) {
        out << "(tensor: tensor-pipe use, each input type's ops per second over its dense peak; "
               "? = tensor instructions whose ops were not counted: "
            << k_tensor_types_hint << ")\n";
    }
    if (std::any_of(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown),
                    [](const KernelRecord* k) { return recoverable_ns(*k).has_value(); })) {
        out << "(recover: time x (1 - roof%), what reaching the roofline would save; --sort "
               "recoverable)\n";
    }
    if (!targets.empty()) {
        out << "(->target: projected speedup, point estimate; ? = low confidence)\n";
    } else if (!all_targets.empty()) {
        out << "(per-kernel speedups on " << all_targets.size()
            << " targets: the projection section below and irf-report csv; for columns choose "
               "up to "
            << s_max_target_columns << ", e.g. irf-report analyze --targets "
            << printable(all_targets.front()) << ",...)\n";
    }
    if (std::any_of(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown),
                    [](const KernelRecord* k) {
                        return std::any_of(k->notes.begin(), k->notes.end(), [](const auto& n) {
                            return n.rfind("first launch excluded", 0) == 0;
                        });
                    })) {
        out << "(mean/min/max per launch leave out first launches that loaded the module; the "
               "total keeps them; max with * = a longer first launch)\n";
    }
    if (std::any_of(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown),
                    [](const KernelRecord* k) {
                        return k->analysis && k->analysis->irm &&
                               k->analysis->irm->above_roofline();
                    })) {
        out << "(roof% with ! = above 100% of the roofline: the ceilings are not this GPU's or "
               "too low; see its note below)\n";
    }
    out << collectives_section(collectives, collective_labels);
    out << projection_section(p, all_targets);
    out << sampling_section({order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown)});
    out << missing_section(order, shown);
    const Coverage& c = p.coverage;
    out << "\nCoverage: " << c.launches << " launches of " << c.kernels << " kernels seen, "
        << c.profiled_launches << " launches profiled, ";
    if (p.imported && c.passes == 0) {
        out << "replay passes not in the imported files"; // ncu and nvprof exports omit them
    } else {
        out << c.passes << " passes per profiled launch";
    }
    if (c.lost_durations > 0) {
        out << "; durations lost: " << c.lost_durations;
    }
    out << "\n";
    if (!p.warnings.empty()) {
        out << "\nWarnings:\n";
        for (const auto& [w, times] : common::count_repeats(p.warnings)) {
            out << "  " << printable(w) << common::repeat_suffix(times) << "\n";
        }
    }
    return out.str();
}

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// The person-readable verdict of an analysed profile (<stem>.txt, docs/model.md).
#include "model/summary/text_summary.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <sstream>

#include "common/repeats.hpp"
#include "common/string_printf.hpp"
#include "common/text_safety.hpp"
#include "common/time_format.hpp"
#include "model/profile/kernel_labels.hpp"
#include "model/roofline/flop_roofline.hpp"
#include "model/summary/summary_missing.hpp"
#include "model/summary/summary_projection.hpp"
#include "model/summary/summary_regions.hpp"
#include "model/summary/summary_samples.hpp"
#include "model/summary/summary_table.hpp"

namespace irf::model {

using common::format_time;
using common::printable;
using common::string_printf;
using common::utf8_prefix;

namespace {

std::vector<std::string> target_names(const Profile& p) {
    std::vector<std::string> names;
    for (const KernelRecord& k : p.kernels) {
        for_each_brief(p, k, [&names](const std::string& target, const ProjectionBrief&) {
            if (std::find(names.begin(), names.end(), target) == names.end()) {
                names.push_back(target);
            }
        });
    }
    return names;
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
        all_targets.size() <= k_summary_target_columns ? all_targets : std::vector<std::string>{};
    // Regions hold collectives too: their shares are of all kernel time.
    const double all_total = std::accumulate(
        collectives.begin(), collectives.end(), total,
        [](double sum, const KernelRecord* k) { return sum + std::max(0.0, k->time_ns.total); });
    out << regions_section(p, top, all_total, std::max(name_width, 12), view.region_depth);
    const char* by = view.order == KernelOrder::name          ? "name"
                     : view.order == KernelOrder::roofline    ? "% of roofline"
                     : view.order == KernelOrder::recoverable ? "recoverable time"
                                                              : "time";
    const auto untimed =
        std::count_if(order.begin(), order.end(), [](const KernelRecord* k) { return k->untimed; });
    out << "\nTop " << shown << " of " << order.size() << " kernels by " << by << " (total "
        << (untimed > 0 && static_cast<std::size_t>(untimed) == order.size() ? "unknown"
                                                                             : format_time(total))
        << (untimed > 0 ? ", " + std::to_string(untimed) + " without time in the files" : "")
        << ")\n";
    RowLayout layout;
    layout.name_width = name_width;
    for (std::size_t i = 0; i < shown; ++i) {
        layout.global_width =
            std::max(layout.global_width, static_cast<int>(global_cell(*order[i]).size()));
        layout.fill = layout.fill || fill_cell(*order[i]) != "-";
        layout.tensor = layout.tensor || tensor_cell(*order[i]) != "-";
    }
    // A merged job (irf-report merge) has per-rank statistics: how unevenly the ranks ran it.
    const bool job = std::any_of(order.begin(), order.end(),
                                 [](const KernelRecord* k) { return k->ranks.has_value(); });
    layout.job = job;
    const auto columns = header_cells(layout, targets);
    std::vector<std::string> names;
    std::vector<std::vector<std::string>> lines(1);
    for (const auto& [name, cell] : columns) {
        names.push_back(name);
        lines[0].push_back(cell);
    }
    for (std::size_t i = 0; i < shown; ++i) {
        lines.push_back(row_cells(*order[i], label[order[i]], layout, i + 1, total, targets));
    }
    // The table fits the terminal (view.max_width): columns left out are named below it.
    std::vector<std::string> dropped;
    const std::vector<bool> keep = fit_columns(lines, names, view.max_width, dropped);
    for (const auto& line : lines) {
        out << join_cells(line, keep);
    }
    if (!dropped.empty()) {
        std::string list;
        for (const std::string& d : dropped) {
            list += (list.empty() ? "" : ", ") + d;
        }
        out << "(left out to fit " << view.max_width << " columns: " << list
            << "; a wider terminal, COLUMNS or irf-report csv shows them)\n";
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
    if (layout.fill) {
        out << "(fill: share of the SMs' time the grid keeps busy (ncu's launch statistics); Nw = "
               "N waves; under 100%: SMs idle in an under-filled grid or a partial last wave)\n";
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
            << k_summary_target_columns << ", e.g. irf-report analyze --targets "
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
                    [](const KernelRecord* k) { return k->estimated_launches > 0; })) {
        out << "(total with ~ = estimated from the timed launches, IRF_TIMING=sampled or "
               "IRF_GRAPH_TIMING=graphs; its error is in the samples section)\n";
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

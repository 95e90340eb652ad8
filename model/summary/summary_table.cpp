// SPDX-License-Identifier: Apache-2.0
// The kernel table's rows of the text summary (model/summary/text_summary.cpp, docs/model.md).
#include "model/summary/summary_table.hpp"

#include <algorithm>
#include <cmath>

#include "common/string_printf.hpp"
#include "common/text_safety.hpp"
#include "common/time_format.hpp"
#include "model/profile/kernel_labels.hpp"
#include "model/roofline/counters.hpp"
#include "model/roofline/pipe_ceilings.hpp"
#include "model/roofline/walls.hpp"
#include "model/summary/summary_regions.hpp"
#include "model/summary/summary_samples.hpp"

namespace irf::model {

using common::format_time;
using common::printable;
using common::string_printf;

int target_width(const std::string& target) {
    return static_cast<int>(std::max<std::size_t>(8, 2 + std::min<std::size_t>(target.size(), 30)));
}

std::string tensor_cell(const KernelRecord& k) {
    const KernelAnalysis* a = k.analysis ? &*k.analysis : nullptr;
    if (a && a->flops && a->flops->tensor_pipe_pct) {
        return string_printf("%.1f%%", *a->flops->tensor_pipe_pct);
    }
    const bool moves = a && a->flops && a->flops->tensor_register_moves > 0;
    return !moves && issues_tensor_math(k.counters) ? "?" : "-";
}

std::string fill_cell(const KernelRecord& k) {
    if (!k.analysis || !k.analysis->waves) {
        return "-";
    }
    const WaveCount& w = *k.analysis->waves;
    // Rounded down, so "100%" is never a grid that leaves SMs idle; the epsilon keeps a
    // product such as 0.29 x 100 from falling to 28.
    std::string cell = string_printf("%.0f%%", std::floor(100.0 * w.fill + 1e-9));
    if (w.waves > 1) {
        cell += string_printf(" %llu"
                              "w",
                              static_cast<unsigned long long>(w.waves));
    }
    return cell;
}

std::string global_cell(const KernelRecord& k) {
    const KernelAnalysis* a = k.analysis ? &*k.analysis : nullptr;
    return a && a->walls.global ? printable(global_label(*a->walls.global)) : "-";
}

std::vector<std::string> row_cells(const KernelRecord& k, const std::string& label,
                                   const RowLayout& layout, std::size_t rank, double total_ns,
                                   const std::vector<std::string>& targets) {
    const int name_width = layout.name_width;
    const double pct = total_ns > 0 ? 100.0 * k.time_ns.total / total_ns : 0.0;
    // Per-launch mean, min and max beside the total: a kernel whose total hides one slow launch
    // (module load, a cold cache) reads differently from one that is uniformly slow. An
    // imported kernel without a duration reads "no time", never 0 ns.
    const auto time = [&k](double ns) { return k.untimed ? std::string("-") : format_time(ns); };
    std::vector<std::string> c;
    c.push_back(string_printf("%3zu  %-*s", rank, name_width, label.c_str()));
    // "~": an estimated total (IRF_TIMING=sampled); the samples section gives its error.
    const std::string total =
        k.untimed ? "no time"
                  : (k.estimated_launches > 0 ? "~" : "") + format_time(k.time_ns.total);
    c.push_back(string_printf(" %9s", total.c_str()));
    c.push_back(string_printf(" %6s", k.untimed ? "-" : string_printf("%5.1f%%", pct).c_str()));
    c.push_back(string_printf(" %8llu", static_cast<unsigned long long>(k.launches)));
    c.push_back(string_printf(" %9s", time(k.time_ns.mean).c_str()));
    c.push_back(string_printf(" %9s", time(k.time_ns.min).c_str()));
    c.push_back(string_printf(" %9s", k.untimed ? "-" : max_cell(k).c_str()));
    const KernelAnalysis* a = k.analysis ? &*k.analysis : nullptr;
    const bool irm = a != nullptr && a->irm && !a->irm->bound.empty();
    c.push_back(string_printf(" %-6s", irm ? printable(a->irm->bound).c_str() : "-"));
    // "!" marks a kernel above its roofline (ceilings of another GPU); the kernel's note says so.
    c.push_back(!irm                       ? string_printf(" %7s", "-")
                : a->irm->above_roofline() ? string_printf(" %5.0f%%!", a->irm->roofline_pct)
                                           : string_printf(" %6.1f%%", a->irm->roofline_pct));
    const std::optional<double> recoverable = recoverable_ns(k);
    c.push_back(string_printf(" %9s", recoverable ? format_time(*recoverable).c_str() : "-"));
    c.push_back(string_printf(" %-*s", layout.global_width, global_cell(k).c_str()));
    // Conflict degree as "N-way", so it never reads like the "x" of a speedup.
    c.push_back(a && a->walls.shared ? string_printf(" %4.1f-way", a->walls.shared->conflict_ways)
                                     : string_printf(" %8s", "-"));
    // Predication as the share of threads active per warp instruction (100% = none predicated).
    c.push_back(a && a->predication ? string_printf(" %6.1f%%", 100.0 * *a->predication)
                                    : string_printf(" %7s", "-"));
    c.push_back(
        string_printf(" %-9s", a && a->pipes ? busiest_pipe_label(*a->pipes).c_str() : "-"));
    if (layout.fill) {
        c.push_back(string_printf(" %9s", fill_cell(k).c_str()));
    }
    if (layout.tensor) {
        c.push_back(string_printf(" %6s", tensor_cell(k).c_str()));
    }
    if (layout.job) {
        c.push_back(imbalance_cell(k.ranks, 5));
    }
    for (const std::string& t : targets) {
        std::string cell = "-";
        for (const Projection& p : projections_of(k.analysis)) {
            if (p.target == t) {
                cell = string_printf("%.2fx%s", p.speedup_point, p.confidence == "low" ? "?" : "");
            }
        }
        c.push_back(string_printf(" %*s", target_width(t), cell.c_str()));
    }
    return c;
}

std::vector<std::pair<std::string, std::string>>
header_cells(const RowLayout& layout, const std::vector<std::string>& targets) {
    std::vector<std::pair<std::string, std::string>> c = {
        {"kernel", string_printf("%3s  %-*s", "#", layout.name_width, "kernel")},
        {"total", string_printf(" %9s", "total")},
        {"time%", string_printf(" %6s", "time%")},
        {"launches", string_printf(" %8s", "launches")},
        {"mean", string_printf(" %9s", "mean")},
        {"min", string_printf(" %9s", "min")},
        {"max", string_printf(" %9s", "max")},
        {"bound", string_printf(" %-6s", "bound")},
        {"roof%", string_printf(" %7s", "roof%")},
        {"recover", string_printf(" %9s", "recover")},
        {"global", string_printf(" %-*s", layout.global_width, "global")},
        {"shared", string_printf(" %8s", "shared")},
        {"active%", string_printf(" %7s", "active%")},
        {"pipe", string_printf(" %-9s", "pipe")}};
    if (layout.fill) {
        c.emplace_back("fill", string_printf(" %9s", "fill"));
    }
    if (layout.tensor) {
        c.emplace_back("tensor", string_printf(" %6s", "tensor"));
    }
    // A merged job (irf-report merge) has per-rank statistics: how unevenly the ranks ran it.
    if (layout.job) {
        c.emplace_back("imbal", string_printf(" %5s", "imbal"));
    }
    for (const std::string& t : targets) {
        const std::string name = "->" + common::utf8_prefix(printable(t), 30);
        c.emplace_back(name, string_printf(" %*s", target_width(t), name.c_str()));
    }
    return c;
}

std::vector<bool> fit_columns(const std::vector<std::vector<std::string>>& lines,
                              const std::vector<std::string>& names, std::size_t max_width,
                              std::vector<std::string>& dropped) {
    std::vector<std::size_t> width(names.size(), 0);
    for (const auto& line : lines) {
        for (std::size_t i = 0; i < line.size() && i < width.size(); ++i) {
            width[i] = std::max(width[i], common::utf8_length(line[i]));
        }
    }
    std::vector<bool> keep(names.size(), true);
    std::size_t total = 0;
    for (const std::size_t w : width) {
        total += w;
    }
    // The least needed first: projections (the section below has them), then the columns the
    // verdict does not rest on; kernel, total, bound and % of roofline always stay.
    std::vector<std::size_t> order;
    for (std::size_t i = names.size(); i-- > 0;) {
        if (names[i].rfind("->", 0) == 0) {
            order.push_back(i);
        }
    }
    for (const char* name : {"recover", "min", "max", "mean", "fill", "pipe", "imbal", "tensor",
                             "launches", "active%", "time%", "shared", "global"}) {
        const auto it = std::find(names.begin(), names.end(), name);
        if (it != names.end()) {
            order.push_back(static_cast<std::size_t>(it - names.begin()));
        }
    }
    for (const std::size_t i : order) {
        if (max_width == 0 || total <= max_width) {
            break;
        }
        keep[i] = false;
        total -= width[i];
        dropped.push_back(names[i]);
    }
    return keep;
}

std::string join_cells(const std::vector<std::string>& cells, const std::vector<bool>& keep) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (i >= keep.size() || keep[i]) {
            line += cells[i];
        }
    }
    while (!line.empty() && line.back() == ' ') {
        line.pop_back();
    }
    return line + "\n";
}

} // namespace irf::model

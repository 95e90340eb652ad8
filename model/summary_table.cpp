// SPDX-License-Identifier: Apache-2.0
// The kernel table's rows of the text summary (model/text_summary.cpp, docs/model.md).
#include "model/summary_table.hpp"

#include <algorithm>
#include <cmath>

#include "common/string_printf.hpp"
#include "common/text_safety.hpp"
#include "common/time_format.hpp"
#include "model/counters.hpp"
#include "model/kernel_labels.hpp"
#include "model/pipe_ceilings.hpp"
#include "model/summary_regions.hpp"
#include "model/summary_samples.hpp"
#include "model/walls.hpp"

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

std::string row(const KernelRecord& k, const std::string& label, const RowLayout& layout,
                std::size_t rank, double total_ns, const std::vector<std::string>& targets) {
    const int name_width = layout.name_width;
    const double pct = total_ns > 0 ? 100.0 * k.time_ns.total / total_ns : 0.0;
    // Per-launch mean, min and max beside the total: a kernel whose total hides one slow launch
    // (module load, a cold cache) reads differently from one that is uniformly slow. An
    // imported kernel without a duration reads "no time", never 0 ns.
    const auto time = [&k](double ns) { return k.untimed ? std::string("-") : format_time(ns); };
    std::string line =
        string_printf("%3zu  %-*s %9s %6s %8llu %9s %9s %9s", rank, name_width, label.c_str(),
                      k.untimed ? "no time" : format_time(k.time_ns.total).c_str(),
                      k.untimed ? "-" : string_printf("%5.1f%%", pct).c_str(),
                      static_cast<unsigned long long>(k.launches), time(k.time_ns.mean).c_str(),
                      time(k.time_ns.min).c_str(), k.untimed ? "-" : max_cell(k).c_str());
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
    line += layout.fill ? string_printf(" %9s", fill_cell(k).c_str()) : "";
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

} // namespace irf::model

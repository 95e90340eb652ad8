// SPDX-License-Identifier: Apache-2.0
// The kernel table of `irf-report analyze --format md` (tools/irf_report/summary_markdown.hpp).
#include "tools/irf_report/summary_markdown.hpp"

#include <algorithm>
#include <sstream>

#include "common/text_safety.hpp"
#include "common/time_format.hpp"
#include "model/profile/kernel_labels.hpp"
#include "model/roofline/pipe_ceilings.hpp"
#include "model/roofline/walls.hpp"
#include "tools/irf_report/reanalysis.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {

std::string markdown_cell(const std::string& text) {
    return common::markdown_text(text);
}

namespace {

std::string verdict_cells(const model::KernelRecord& k, const std::vector<std::string>& targets,
                          bool job) {
    const model::KernelAnalysis* a = k.analysis ? &*k.analysis : nullptr;
    const bool irm = a && a->irm && !a->irm->bound.empty();
    std::ostringstream out;
    out << " | " << (irm ? markdown_cell(a->irm->bound) : "-") << " | "
        << (irm ? format_number(a->irm->roofline_pct) + "%" +
                      (a->irm->above_roofline() ? " (>100%!)" : "")
                : "-")
        << " | "
        << (model::recoverable_ns(k) ? common::format_time(*model::recoverable_ns(k))
                                     : std::string("-"))
        << " | "
        << (a && a->walls.global ? markdown_cell(model::global_label(*a->walls.global)) : "-")
        << " | "
        << (a && a->walls.shared ? format_number(a->walls.shared->conflict_ways, 2) + "-way" : "-")
        << " | " << (a && a->predication ? format_number(100.0 * *a->predication) + "%" : "-")
        << " | " << (a && a->pipes ? model::busiest_pipe_label(*a->pipes) : "-");
    if (job) {
        out << " | " << (k.ranks ? format_number(k.ranks->imbalance, 3) : "-");
    }
    for (const std::string& t : targets) {
        std::string speedup = "-";
        for (const model::Projection& p : model::projections_of(k.analysis)) {
            if (p.target == t) {
                speedup =
                    format_number(p.speedup_point, 3) + "x" + (p.confidence == "low" ? "?" : "");
            }
        }
        out << " | " << speedup;
    }
    return out.str();
}

} // namespace

std::string summary_markdown(const model::Profile& p, const model::SummaryView& view) {
    const std::vector<std::string> labels =
        model::kernel_labels(p.kernels, view.names, view.name_width);
    const std::vector<std::size_t> order = model::kernel_order(p.kernels, labels, view.order);
    const std::vector<std::string> targets = profile_targets(p);
    double total = 0;
    for (const model::KernelRecord& k : p.kernels) {
        total += std::max(0.0, k.time_ns.total);
    }
    std::ostringstream out;
    out << "### irf: " << markdown_cell(p.app.empty() ? "(unknown app)" : p.app) << " on "
        << markdown_cell(p.gpu.name.empty() ? "(unknown GPU)" : p.gpu.name) << "\n\n"
        << "| # | kernel | total time | time % | launches | mean | min | max | bound "
           "| % of roofline | recoverable | global | shared conflicts | active threads "
           "| busiest pipe |";
    std::string rule = "|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---|";
    // A merged job (irf-report merge): how unevenly its ranks ran each kernel.
    const bool job = std::any_of(p.kernels.begin(), p.kernels.end(),
                                 [](const model::KernelRecord& k) { return k.ranks.has_value(); });
    if (job) {
        out << " rank imbalance (max/mean) |";
        rule += "---:|";
    }
    for (const std::string& t : targets) {
        out << " speedup on " << markdown_cell(t) << " |";
        rule += "---:|";
    }
    out << "\n" << rule << "\n";
    const std::size_t shown = std::min(view.top, order.size());
    for (std::size_t n = 0; n < shown; ++n) {
        const model::KernelRecord& k = p.kernels[order[n]];
        out << "| " << n + 1 << " | " << common::markdown_code(labels[order[n]]) << " | "
            << format_time(k.time_ns.total) << " | "
            << format_number(total > 0 ? 100.0 * k.time_ns.total / total : 0.0) << "% | "
            << k.launches << " | " << format_time(k.time_ns.mean) << " | "
            << format_time(k.time_ns.min) << " | " << format_time(k.time_ns.max)
            << verdict_cells(k, targets, job) << " |\n";
    }
    out << "\n"
        << shown << " of " << p.kernels.size() << " kernels, total kernel time "
        << format_time(total) << "\n";
    return out.str();
}

} // namespace irf::report

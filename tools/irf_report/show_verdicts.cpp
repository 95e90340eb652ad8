// SPDX-License-Identifier: Apache-2.0
// `irf-report show`: every verdict of one kernel with the numbers it was derived from.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/time_format.hpp"
#include "model/roofline/counters.hpp"
#include "model/roofline/flop_roofline.hpp"
#include "model/roofline/walls.hpp"
#include "tools/irf_report/show_kernel.hpp"

namespace irf::report {
namespace {

using common::format_significant;
using common::format_time;

// A share that is not known (a kernel without time: NaN GIPS) reads "-", never "nan%"
// (docs/tools.md).
std::string percent(double share) {
    if (!std::isfinite(share)) {
        return "-";
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f%%", 100.0 * share);
    return buffer;
}

/// Conflict degree as "N-way", never with the "x" of a speedup (as the summary table).
std::string ways(double conflict_ways) {
    if (!std::isfinite(conflict_ways)) {
        return "-";
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f-way", conflict_ways);
    return buffer;
}

std::string speedup(double value) {
    if (!std::isfinite(value)) {
        return "-";
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2fx", value);
    return buffer;
}

std::string optional_value(const std::optional<double>& value) {
    return value ? format_significant(*value) : "-";
}

std::optional<double> at_level(const model::PerLevel& v, const std::string& level) {
    return level == "l1" ? v.l1 : level == "l2" ? v.l2 : v.hbm;
}

ShowSection instruction_roofline(const model::Profile& p, const model::IrmResult& irm) {
    ShowSection s{"Instruction Roofline",
                  {"level", "II (warp inst per 32-B txn)", "ceiling (GTXN/s)",
                   "roofline (warp GIPS)", "kernel (% of roofline)"},
                  {},
                  {}};
    for (const std::string level : {"l1", "l2", "hbm"}) {
        const std::optional<double> roof = at_level(irm.roofline_gips, level);
        std::string gtxn = "-";
        if (p.ceilings && p.ceilings->gtxn_per_s.count(level) > 0) {
            gtxn = format_significant(p.ceilings->gtxn_per_s.at(level));
        }
        std::string share = roof && *roof > 0 ? percent(irm.gips_warp / *roof) : "-";
        share += level == irm.bound ? "  <- bound" : "";
        s.rows.push_back(
            {level, optional_value(at_level(irm.ii, level)), gtxn, optional_value(roof), share});
    }
    if (std::isfinite(irm.gips_warp) || std::isfinite(irm.gips_thread)) {
        s.lines.push_back("kernel: " + format_significant(irm.gips_warp) + " warp GIPS, " +
                          format_significant(irm.gips_thread) + " thread GIPS (inst_thread / 32)");
    } else {
        s.lines.push_back("kernel: GIPS not known: the kernel's time is not in the file (the "
                          "intensities stand alone)");
    }
    if (p.ceilings) {
        s.lines.push_back("peak issue: " + format_significant(p.ceilings->warp_gips) +
                          " warp GIPS (ceilings: " + p.ceilings->source + ")");
    }
    if (irm.bound.empty()) {
        s.lines.push_back("bound: undecided");
    } else {
        s.lines.push_back("bound: " + irm.bound + " at " + percent(irm.roofline_pct / 100.0) +
                          " of its roofline" +
                          (irm.above_roofline() ? " (above 100%: the ceilings are not this "
                                                  "GPU's or too low)"
                                                : ""));
    }
    return s;
}

/// "loads 4 B, stores 2 B per active thread" ("-" for a direction without a width).
std::string widths_line(const std::string& wall, std::optional<double> ld,
                        std::optional<double> st) {
    const auto bytes = [](std::optional<double> v) {
        return v ? format_significant(*v) + " B" : std::string("-");
    };
    return wall + " access width per active thread: loads " + bytes(ld) + ", stores " + bytes(st);
}

ShowSection walls(const model::Walls& w) {
    ShowSection s{"Memory walls", {"wall", "intensity", "verdict"}, {}, {}};
    if (w.global) {
        s.rows.push_back({"global",
                          format_significant(w.global->intensity) + " warp inst per sector",
                          model::global_label(*w.global)});
        if (w.global->access_bytes_ld || w.global->access_bytes_st) {
            s.lines.push_back(
                widths_line("global", w.global->access_bytes_ld, w.global->access_bytes_st));
        }
    }
    if (w.shared) {
        s.rows.push_back({"shared",
                          format_significant(w.shared->intensity) + " warp inst per wavefront",
                          ways(w.shared->conflict_ways) + " bank conflicts"});
        if (w.shared->access_bytes_ld || w.shared->access_bytes_st) {
            s.lines.push_back(
                widths_line("shared", w.shared->access_bytes_ld, w.shared->access_bytes_st));
        }
    }
    return s;
}

/// The tensor pipe of a kernel that issued tensor instructions: its use of the dense peak, or
/// how to count the ops that give it.
ShowSection tensor_pipe(const model::KernelRecord& k, double inst_tensor) {
    ShowSection s{"Tensor pipe", {}, {}, {}};
    s.rows.push_back({"tensor instructions", format_significant(inst_tensor) + " warp"});
    const auto time = model::counter(k.counters, "time_ns");
    if (time && *time > 0) {
        s.rows.push_back({"tensor issue rate", format_significant(inst_tensor / *time) +
                                                   " warp GIPS (inst_tensor / time)"});
    }
    const model::FlopsResult* f = k.analysis->flops ? &*k.analysis->flops : nullptr;
    if (f != nullptr && f->hmma_gips_ceiling) {
        s.rows.push_back(
            {"tensor (HMMA) ceiling", format_significant(*f->hmma_gips_ceiling) + " warp GIPS"});
    }
    if (f != nullptr && f->tensor_pipe_pct) {
        s.rows.push_back({"utilisation", percent(*f->tensor_pipe_pct / 100.0) +
                                             " of the dense peak of its input types"});
    } else {
        s.lines.push_back(std::string("utilisation unknown: the tensor ops by input type were "
                                      "not counted (") +
                          model::k_tensor_types_hint + ")");
    }
    return s;
}

ShowSection predication(double ratio) {
    return {"Predication",
            {},
            {{"active threads", percent(ratio) + " of 32 per warp instruction"},
             {"inst_thread / (32 x inst_warp)", format_significant(ratio)}},
            {}};
}

/// `timed`: the kernel's time is known; without it GFLOP/s read "-", never 0 (issue 53 item 7).
ShowSection flop_roofline(const model::FlopsResult& f, bool timed) {
    const auto rate = [timed](double gflops) {
        return timed ? format_significant(gflops) : std::string("-");
    };
    ShowSection s{"FLOP roofline",
                  {"precision", "FLOPs", "GFLOP/s", "AI l1 (FLOP/B)", "AI l2 (FLOP/B)",
                   "AI hbm (FLOP/B)", "ceiling (GFLOP/s)"},
                  {},
                  {}};
    for (const auto& [name, pf] : f.by_precision) {
        s.rows.push_back({name, format_significant(pf.flops), rate(pf.gflops),
                          optional_value(pf.ai.l1), optional_value(pf.ai.l2),
                          optional_value(pf.ai.hbm), optional_value(pf.ceiling_gflops)});
    }
    s.rows.push_back({"all", format_significant(f.fp64 + f.fp32 + f.fp16 + f.tensor),
                      rate(f.gflops), optional_value(f.ai.l1), optional_value(f.ai.l2),
                      optional_value(f.ai.hbm), "-"});
    s.lines.push_back("CUDA-core precision with most FLOPs: " +
                      (f.precision.empty() ? std::string("none") : f.precision));
    if (f.fma_mix_ceiling_gflops) {
        s.lines.push_back("FMA-mix ceiling: " + format_significant(*f.fma_mix_ceiling_gflops) +
                          " GFLOP/s");
    }
    if (f.hmma_gips_ceiling) {
        s.lines.push_back("tensor (HMMA) ceiling: " + format_significant(*f.hmma_gips_ceiling) +
                          " warp GIPS");
    }
    return s;
}

ShowSection mix(const std::map<std::string, double>& shares) {
    ShowSection s{"Instruction mix", {"class", "share of thread instructions"}, {}, {}};
    std::vector<std::pair<std::string, double>> sorted(shares.begin(), shares.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [name, share] : sorted) {
        s.rows.push_back({name, percent(share)});
    }
    return s;
}

ShowSection pipes(const model::PipeCeilings& p) {
    ShowSection s{"Pipe sub-ceilings",
                  {"pipe", "warp GIPS (from the mix)", "ceiling (warp GIPS)", "of ceiling"},
                  {},
                  {}};
    for (const auto& [pipe, use] : p.by_pipe) {
        s.rows.push_back({pipe, format_significant(use.gips), format_significant(use.ceiling_gips),
                          percent(use.pct / 100.0)});
    }
    s.lines.push_back("issue ceiling given the mix: " + format_significant(p.ceiling_gips) +
                      " warp GIPS, set by " +
                      (p.binding == "issue" ? std::string("the schedulers") : p.binding + " pipe"));
    return s;
}

/// A kernel-ceiling value with the unit its key ends in (docs/model.md: PROJ Eq. 2-8).
std::vector<std::string> ceiling_row(const std::string& key, double value) {
    auto ends = [&key](const std::string& suffix) {
        return key.size() > suffix.size() &&
               key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (ends("_ns")) {
        return {key, format_time(value)};
    }
    const std::string unit = ends("_gbs")      ? " GB/s"
                             : ends("_gflops") ? " GFLOP/s"
                             : ends("_gips")   ? " GIPS"
                                               : "";
    return {key, format_significant(value) + unit};
}

ShowSection kernel_ceilings(const std::map<std::string, double>& values) {
    ShowSection s{"Kernel ceilings on this GPU (projection Eq. 2-8)", {}, {}, {}};
    for (const auto& [key, value] : values) {
        s.rows.push_back(ceiling_row(key, value));
    }
    return s;
}

std::string resource_times(const std::map<std::string, double>& times) {
    std::string out;
    for (const auto& [resource, ns] : times) {
        out += (out.empty() ? "" : ", ") + resource + " " + format_time(ns);
    }
    return out.empty() ? "-" : out;
}

/// "hbm -> l1"; "?" for a side left undecided, "-" when the profile records neither (older).
std::string bounds(const model::Projection& p) {
    if (p.bound_source.empty() && p.bound_target.empty()) {
        return "-";
    }
    return (p.bound_source.empty() ? "?" : p.bound_source) + " -> " +
           (p.bound_target.empty() ? "?" : p.bound_target);
}

/// The reasons behind the projections, each once with the targets it applies to ("all" when
/// every target has it: the basis is usually the same everywhere), then resource times.
std::vector<std::string> projection_notes(const std::vector<model::Projection>& projections) {
    std::vector<std::pair<std::string, std::vector<std::string>>> folded;
    for (const model::Projection& p : projections) {
        for (const std::string& note : p.notes) {
            auto it = std::find_if(folded.begin(), folded.end(),
                                   [&note](const auto& entry) { return entry.first == note; });
            if (it == folded.end()) {
                folded.push_back({note, {}});
                it = folded.end() - 1;
            }
            it->second.push_back(p.target);
        }
    }
    std::vector<std::string> lines;
    for (const auto& [note, targets] : folded) {
        std::string who = targets.size() == projections.size() && targets.size() > 1 ? "all" : "";
        for (std::size_t i = 0; who.empty() && i < targets.size(); ++i) {
            who += (i ? ", " : "") + targets[i];
        }
        lines.push_back(who + ": " + note);
    }
    for (const model::Projection& p : projections) {
        if (!p.resource_ns_target.empty()) {
            lines.push_back(p.target + ": resource times here " +
                            resource_times(p.resource_ns_source) + "; there " +
                            resource_times(p.resource_ns_target));
        }
    }
    return lines;
}

ShowSection projections(const model::KernelRecord& k) {
    ShowSection s{"Projections of the total time (point estimate in [low, high])",
                  {"target", "projected", "low", "high", "speedup", "confidence", "basis",
                   "bound here -> there"},
                  {},
                  {}};
    for (const model::Projection& p : k.analysis->projection) {
        s.rows.push_back({p.target, format_time(p.time_point_ns), format_time(p.time_low_ns),
                          format_time(p.time_high_ns), speedup(p.speedup_point), p.confidence,
                          p.basis, bounds(p)});
    }
    s.lines = projection_notes(k.analysis->projection);
    return s;
}

} // namespace

std::vector<ShowSection> verdict_sections(const model::Profile& profile,
                                          const model::KernelRecord& kernel) {
    if (!kernel.analysis) {
        return {{"Verdicts",
                 {},
                 {},
                 {"not analysed: run irf-report analyze PROFILE -o OUT.json, then show OUT.json"}}};
    }
    const model::KernelAnalysis& a = *kernel.analysis;
    std::vector<ShowSection> sections;
    if (a.irm) {
        sections.push_back(instruction_roofline(profile, *a.irm));
    }
    if (a.walls.global || a.walls.shared) {
        sections.push_back(walls(a.walls));
    }
    if (a.predication) {
        sections.push_back(predication(*a.predication));
    }
    if (a.flops) {
        sections.push_back(flop_roofline(*a.flops, !kernel.untimed));
    }
    if (const auto inst_tensor = model::counter(kernel.counters, "inst_tensor");
        inst_tensor && *inst_tensor > 0) {
        sections.push_back(tensor_pipe(kernel, *inst_tensor));
    }
    if (!a.mix.empty()) {
        sections.push_back(mix(a.mix));
    }
    if (a.pipes) {
        sections.push_back(pipes(*a.pipes));
    }
    if (!a.kernel_ceilings.empty()) {
        sections.push_back(kernel_ceilings(a.kernel_ceilings));
    }
    if (!a.projection.empty()) {
        sections.push_back(projections(kernel));
    }
    std::vector<std::string> left_out = a.missing;
    for (const std::string& note : a.notes) {
        left_out.push_back("note: " + note);
    }
    if (!left_out.empty()) {
        sections.push_back({"Verdicts left out, notes", {}, {}, left_out});
    }
    return sections;
}

} // namespace irf::report

// SPDX-License-Identifier: Apache-2.0
// Pipe sub-ceilings of the Instruction Roofline (docs/model.md: "Pipe sub-ceilings").
#include "model/roofline/pipe_ceilings.hpp"

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "model/roofline/counters.hpp"

namespace irf::model {

const std::vector<std::pair<std::string, std::string>>& pipe_of_class() {
    static const std::vector<std::pair<std::string, std::string>> pipes = {{"integer", "int32"},
                                                                           {"fp32", "fp32"},
                                                                           {"fp64", "fp64"},
                                                                           {"fp16", "fp16"},
                                                                           {"ldst", "lsu"}};
    return pipes;
}

std::map<std::string, double> issue_mix(const Counters& counters,
                                        const std::map<std::string, double>& mix) {
    const auto inst = counter(counters, "inst_warp");
    const auto alu = counter(counters, "inst_pipe_alu");
    const auto fma = counter(counters, "inst_pipe_fma");
    if (inst && *inst > 0 && alu && fma) {
        // Measured per pipe (docs/metrics.md, pipe_mix); fp16 is inside fma from GA10x on.
        return {{"integer", *alu / *inst},
                {"fp32", *fma / *inst},
                {"fp64", counter(counters, "inst_pipe_fp64").value_or(0.0) / *inst},
                {"ldst", counter(counters, "inst_pipe_lsu").value_or(0.0) / *inst}};
    }
    std::map<std::string, double> out = mix;
    const auto bit = counter(counters, "thread_class_bit");
    double classes = 0;
    for (const char* name : {"thread_class_integer", "thread_class_bit", "thread_class_uniform",
                             "thread_class_fp64", "thread_class_fp32", "thread_class_fp16",
                             "thread_class_fp8", "thread_class_memory", "thread_class_control",
                             "thread_class_conversion", "thread_class_misc", "thread_class_comm"}) {
        classes += counter(counters, name).value_or(0.0);
    }
    if (out.count("integer") != 0) {
        out["integer"] = bit && classes > 0 ? *bit / classes : 0.0; // only what surely is ALU
    }
    return out;
}

std::map<std::string, double> pipe_peaks(const config::Ceilings& ceilings) {
    std::map<std::string, double> out;
    for (const auto& [pipe, q] : ceilings.pipe_gips) {
        out[pipe] = q.value;
    }
    return out;
}

namespace {

// The peak of the pipe a mix class issues to; nullopt for control/other or an unknown peak.
std::optional<std::pair<std::string, double>>
class_pipe(const std::string& cls, const std::map<std::string, double>& pipe_gips) {
    const auto& pipes = pipe_of_class();
    const auto pipe = std::find_if(pipes.begin(), pipes.end(), [&cls](const auto& class_pipe) {
        return class_pipe.first == cls;
    });
    if (pipe == pipes.end()) {
        return std::nullopt;
    }
    const auto peak = pipe_gips.find(pipe->second);
    if (peak == pipe_gips.end() || !(peak->second > 0)) {
        return std::nullopt;
    }
    return std::make_pair(pipe->second, peak->second);
}

} // namespace

std::pair<double, std::string> mix_issue_ceiling(const std::map<std::string, double>& mix,
                                                 double peak_warp_gips,
                                                 const std::map<std::string, double>& pipe_gips) {
    std::pair<double, std::string> ceiling{peak_warp_gips, "issue"};
    for (const auto& [cls, share] : mix) {
        const auto pipe = class_pipe(cls, pipe_gips);
        // The pipe alone allows peak / share warp instructions of all classes per ns.
        if (pipe && share > 0 && pipe->second / share < ceiling.first) {
            ceiling = {pipe->second / share, pipe->first};
        }
    }
    return ceiling;
}

std::optional<PipeCeilings> pipe_ceilings(const std::map<std::string, double>& mix,
                                          double gips_warp, double peak_warp_gips,
                                          const std::map<std::string, double>& pipe_gips,
                                          std::vector<std::string>& missing) {
    if (mix.empty()) {
        return std::nullopt; // the mix's own reason says why
    }
    if (!(gips_warp > 0) || !(peak_warp_gips > 0)) {
        missing.push_back("pipes: needs the kernel's and the peak warp GIPS");
        return std::nullopt;
    }
    PipeCeilings out;
    for (const auto& [cls, share] : mix) {
        const auto pipe = class_pipe(cls, pipe_gips);
        if (pipe && share > 0) {
            const double gips = share * gips_warp;
            out.by_pipe[pipe->first] = PipeUse{gips, pipe->second, 100.0 * gips / pipe->second};
        }
    }
    if (out.by_pipe.empty()) {
        missing.push_back("pipes: the ceilings have no pipe_gips for the classes in the mix");
        return std::nullopt;
    }
    std::tie(out.ceiling_gips, out.binding) = mix_issue_ceiling(mix, peak_warp_gips, pipe_gips);
    return out;
}

std::pair<std::string, PipeUse> busiest_pipe(const PipeCeilings& pipes) {
    std::pair<std::string, PipeUse> busiest;
    for (const auto& [pipe, use] : pipes.by_pipe) {
        if (busiest.first.empty() || use.pct > busiest.second.pct) {
            busiest = {pipe, use};
        }
    }
    return busiest;
}

std::string busiest_pipe_label(const PipeCeilings& pipes) {
    const auto [pipe, use] = busiest_pipe(pipes);
    char percent[32];
    std::snprintf(percent, sizeof percent, " %.0f%%", use.pct);
    return pipe + percent;
}

} // namespace irf::model

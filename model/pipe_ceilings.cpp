// SPDX-License-Identifier: Apache-2.0
// Pipe sub-ceilings of the Instruction Roofline (docs/model.md: "Pipe sub-ceilings").
#include "model/pipe_ceilings.hpp"

namespace irf::model {

const std::map<std::string, std::string>& pipe_of_class() {
    static const std::map<std::string, std::string> pipes = {
        {"integer", "int32"}, {"fp32", "fp32"}, {"fp64", "fp64"}, {"fp16", "fp16"}, {"ldst", "lsu"}};
    return pipes;
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
    out.ceiling_gips = peak_warp_gips;
    out.binding = "issue";
    for (const auto& [cls, share] : mix) {
        const auto pipe = pipe_of_class().find(cls);
        if (pipe == pipe_of_class().end() || !(share > 0)) {
            continue;
        }
        const auto ceiling = pipe_gips.find(pipe->second);
        if (ceiling == pipe_gips.end() || !(ceiling->second > 0)) {
            continue;
        }
        const double gips = share * gips_warp;
        out.by_pipe[pipe->second] = PipeUse{gips, ceiling->second, 100.0 * gips / ceiling->second};
        // The pipe alone allows ceiling / share warp instructions of all classes per ns.
        if (ceiling->second / share < out.ceiling_gips) {
            out.ceiling_gips = ceiling->second / share;
            out.binding = pipe->second;
        }
    }
    if (out.by_pipe.empty()) {
        missing.push_back("pipes: the ceilings have no pipe_gips for the classes in the mix");
        return std::nullopt;
    }
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

} // namespace irf::model

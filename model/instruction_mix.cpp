// SPDX-License-Identifier: Apache-2.0
// Instruction mix from the per-pipe warp instruction counters (docs/model.md: IRM Fig. 6).
#include "model/instruction_mix.hpp"

#include <array>
#include <utility>

#include "model/counters.hpp"

namespace irf::model {

namespace {

const std::array<std::pair<const char*, const char*>, 10> s_pipe_class{{
    {"inst_pipe_alu", "integer"},
    {"inst_pipe_uniform", "integer"},
    {"inst_pipe_fma", "fp32"},
    {"inst_pipe_fp64", "fp64"},
    {"inst_pipe_fp16", "fp16"},
    {"inst_pipe_lsu", "ldst"},
    {"inst_pipe_tensor", "tensor"},
    {"inst_pipe_xu", "other"},
    {"inst_pipe_cbu", "other"},
    {"inst_pipe_adu", "other"},
}};

} // namespace

std::map<std::string, double> instruction_mix(const Counters& counters,
                                              std::vector<std::string>& missing) {
    std::map<std::string, double> mix;
    double total = 0;
    bool any = false;
    for (const auto& [pipe, cls] : s_pipe_class) {
        const auto value = counter(counters, pipe);
        any = any || value.has_value();
        mix[cls] += value ? *value : 0.0;
        total += value ? *value : 0.0;
    }
    if (!any) {
        missing.push_back("mix: pipe counters (inst_pipe_*) not collected (IRF_METRICS=pipe_mix)");
        return {};
    }
    if (!(total > 0)) {
        missing.push_back("mix: no instruction in any pipe");
        return {};
    }
    for (auto& [cls, value] : mix) {
        value /= total;
    }
    return mix;
}

} // namespace irf::model

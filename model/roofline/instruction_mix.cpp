// SPDX-License-Identifier: Apache-2.0
// Instruction mix from the SASS instruction classes (docs/model.md: IRM Fig. 6).
#include "model/roofline/instruction_mix.hpp"

#include <array>
#include <utility>

#include "model/roofline/counters.hpp"

namespace irf::model {

namespace {

// Fig. 6's classes: "integer instructions are performing IMAD, IADD and ISETP", "Others refers
// to the instructions like cvt" (section 4.2). Bit and uniform-datapath instructions are integer
// work; FP8 is counted with FP16 (both only on the half-precision path of this mix).
const std::array<std::pair<const char*, const char*>, 12> s_sass_class{{
    {"thread_class_integer", "integer"},
    {"thread_class_bit", "integer"},
    {"thread_class_uniform", "integer"},
    {"thread_class_fp64", "fp64"},
    {"thread_class_fp32", "fp32"},
    {"thread_class_fp16", "fp16"},
    {"thread_class_fp8", "fp16"},
    {"thread_class_memory", "ldst"},
    {"thread_class_control", "control"},
    {"thread_class_conversion", "other"},
    {"thread_class_misc", "other"},
    {"thread_class_comm", "other"},
}};

} // namespace

std::map<std::string, double> instruction_mix(const Counters& counters,
                                              std::vector<std::string>& missing) {
    std::map<std::string, double> mix;
    double total = 0;
    bool any = false;
    for (const auto& [counter_name, cls] : s_sass_class) {
        const auto value = counter(counters, counter_name);
        any = any || value.has_value();
        mix[cls] += value.value_or(0.0);
        total += value.value_or(0.0);
    }
    if (!any) {
        missing.push_back("mix: SASS instruction classes (thread_class_*) not collected");
        return {};
    }
    if (!(total > 0)) {
        missing.push_back("mix: no instruction in any SASS class");
        return {};
    }
    for (auto& [cls, value] : mix) {
        value /= total;
    }
    return mix;
}

} // namespace irf::model

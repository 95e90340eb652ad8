// SPDX-License-Identifier: Apache-2.0
// Instruction mix from the SASS instruction classes (docs/model.md: IRM Fig. 6).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/profile/profile.hpp"

namespace irf::model {

/// Shares of thread instructions (predicated on) by SASS class, summing to 1: integer (integer,
/// bit and uniform), fp64, fp32, fp16 (with fp8), ldst (memory), control and other (conversion,
/// misc, inter-thread communication), as in Fig. 6. SASS classes count each instruction once,
/// where the pipe counters count an FP16x2 instruction in two pipes on GA10x and later (issue
/// #18 item 6). Empty, with a reason in `missing`, when no thread_class_* counter was collected
/// or they are all zero.
[[nodiscard]] std::map<std::string, double> instruction_mix(const Counters& counters,
                                                            std::vector<std::string>& missing);

} // namespace irf::model

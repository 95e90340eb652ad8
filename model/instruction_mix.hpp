// SPDX-License-Identifier: Apache-2.0
// Instruction mix from the per-pipe warp instruction counters (docs/model.md: IRM Fig. 6).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/profile.hpp"

namespace irf::model {

/// Shares of integer, fp32, fp64, fp16, ldst, tensor and other warp instructions, summing to 1.
/// Pipes map to classes as: alu, uniform -> integer; fma -> fp32; fp64 -> fp64; fp16 -> fp16;
/// lsu -> ldst; tensor -> tensor; xu, cbu, adu -> other (the fma pipe also runs IMAD and the
/// alu pipe FP32 compares, so the split is by pipe, not by data type). Empty, with a reason in
/// `missing`, when no pipe counter was collected or they are all zero.
[[nodiscard]] std::map<std::string, double> instruction_mix(const Counters& counters,
                                                            std::vector<std::string>& missing);

} // namespace irf::model

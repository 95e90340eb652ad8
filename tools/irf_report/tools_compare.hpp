// SPDX-License-Identifier: Apache-2.0
// irf-report compare: how each kernel moved between two profiles.
#pragma once

#include <string>

#include "model/profile.hpp"

namespace irf::report {

/// A one-line reading of how a kernel moved on the Instruction Roofline, e.g.
/// "moved right along HBM: fewer DRAM transactions per instruction (II 0.556 -> 2.22); time
/// unchanged". Uses the analysis of both records; says so when one has none.
[[nodiscard]] std::string compare_reading(const model::KernelRecord& before,
                                          const model::KernelRecord& after);

/// The whole comparison as text: a header, one block per kernel matched by name (time, bound
/// and % of roofline, warp and thread GIPS, intensity per level, walls, predication, reading),
/// then the kernels found in only one of the profiles.
[[nodiscard]] std::string compare_text(const model::Profile& before, const std::string& before_name,
                                       const model::Profile& after, const std::string& after_name);

} // namespace irf::report

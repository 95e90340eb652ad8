// SPDX-License-Identifier: Apache-2.0
// Runs the whole model over a profile: every kernel gets its `analysis`, the profile its
// `ceilings` (docs/model.md).
#pragma once

#include <vector>

#include "config/ceilings.hpp"
#include "model/profile.hpp"

namespace irf::model {

/// Fills each kernel's `analysis` (Instruction Roofline, walls, predication, FLOP roofline, mix,
/// kernel ceilings, projection onto each of `targets`) from its counters and the `source`
/// ceilings, and sets `profile.ceilings`. Missing counters leave the affected verdict absent with
/// a reason in `missing`; zero time or zero instructions never produce NaN or infinity.
void analyze(Profile& profile, const config::Ceilings& source,
             const std::vector<config::Ceilings>& targets);

/// The analysis of one kernel on `source`, projected onto each of `targets`.
[[nodiscard]] KernelAnalysis analyze_kernel(const KernelRecord& kernel,
                                            const config::Ceilings& source,
                                            const std::vector<config::Ceilings>& targets);

/// The top-level `ceilings_used` record of a ceilings entry: GTXN/s = GB/s / 32 for L1, L2 and
/// HBM, GB/s / 128 for shared (128-byte wavefronts); GFLOP/s per key, tensor as tensor_<type>.
[[nodiscard]] CeilingsUsed ceilings_used(const config::Ceilings& ceilings);

} // namespace irf::model

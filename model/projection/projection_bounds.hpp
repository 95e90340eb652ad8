// SPDX-License-Identifier: Apache-2.0
// What widens a projection's interval beyond PROJ's Eq. 9: tensor work whose FLOPs were not
// counted, and the spread of the target's ceiling figures (docs/model.md, "Projection").
#pragma once

#include <string>

#include "config/ceilings.hpp"
#include "model/profile/analysis.hpp"
#include "model/profile/profile.hpp"
#include "model/projection/measured_ceilings.hpp"

namespace irf::model {

/// The tensor input type a kernel's name spells (see likely_tensor_type), "" when none.
[[nodiscard]] std::string named_tensor_type(const std::string& kernel_name);

/// The tensor input type a kernel most likely uses: the first of fp8, int8, tf32, bf16, fp16,
/// fp64 that its name spells (e4m3/e5m2 are fp8, imma is int8, half and hmma are fp16, dmma is
/// fp64), else bf16; fp16 when both GPUs do not have a dense peak for that type, "" when they
/// have none for fp16 either.
[[nodiscard]] std::string likely_tensor_type(const std::string& kernel_name,
                                             const config::Ceilings& source,
                                             const config::Ceilings& target);

/// When tensor instructions ran without tensor_ops_* counters (the FLOP resource unknown), widens
/// `p`'s reported interval to hold t_s x tensor peak_s / tensor peak_t of the likely type (the
/// time if the tensor pipe binds on both GPUs) and puts the point at the mean of that interval,
/// with a note. `total_ns` is the kernel's total source time.
void bracket_unmeasured_tensor(const KernelRecord& kernel, const config::Ceilings& source,
                               const config::Ceilings& target, double total_ns, Projection& p);

/// Widens `p`'s reported interval by the spread of the figures of the target ceiling that binds
/// it (issue, L1, L2 or HBM): high = point x value / lowest figure, low = point x value / highest.
/// Confidence becomes low when high / low exceeds 1.25, with a note. Any other of those
/// resources that would bind at its lowest figure widens high to the point with it binding,
/// and lowers confidence the same way.
void widen_by_spread(const CeilingPair& pair, Projection& p);

} // namespace irf::model

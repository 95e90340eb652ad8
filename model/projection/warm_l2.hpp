// SPDX-License-Identifier: Apache-2.0
// Warm L2: launches whose working set fits both GPUs' L2 (docs/model.md, "Warm L2").
#pragma once

#include "config/ceilings.hpp"
#include "model/profile/analysis.hpp"
#include "model/projection/resource_times.hpp"

namespace irf::model {

/// The time of the busiest resource of `times` other than HBM (0 when none is known).
[[nodiscard]] double longest_time_without_hbm_ns(const ResourceArray& times);

/// When both GPUs have one compute capability, `p`'s point is still a resource ratio's, HBM binds
/// on the source and the kernel's working set (`p.l2`) fits both L2s, moves the point to
/// `total_ns` x the target's busiest resource other than HBM / the source's (point_method
/// "warm-l2", confidence low, a note; the interval keeps the HBM ratio's point): an
/// application's launch finds such data in the L2 that the launches before it filled, so its
/// timed duration is not its counted DRAM traffic's, which a pass replayed from a cold L2 reads.
void apply_warm_l2(const config::Ceilings& source, const config::Ceilings& target,
                   const ResourceArray& source_times, const ResourceArray& target_times,
                   double total_ns, Projection& p);

} // namespace irf::model

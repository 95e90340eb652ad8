// SPDX-License-Identifier: Apache-2.0
// A memory stream onto a GPU whose ceiling lies below the rate the source already reached: it
// runs there at that ceiling (docs/model.md, "Saturated target").
#pragma once

#include "config/ceilings.hpp"
#include "model/profile/analysis.hpp"
#include "model/profile/profile.hpp"
#include "model/projection/resource_times.hpp"

namespace irf::model {

/// At or above this share of a launch the source's binding memory level ran at its ceiling: what
/// it lacks of it is the level's own (DRAM refresh, read/write turnarounds), which the target's
/// ceiling lacks too, so the ratio stays (docs/model.md, "Saturated target": the H100's recorded
/// streams ran at 87-94% of its HBM peak).
inline constexpr double k_saturated_source_share = 0.9;

/// When `p`'s point is still a resource ratio, the source's binding resource is a memory level
/// (L1, L2, HBM) busy under k_saturated_source_share of a launch, a launch spans at least
/// k_min_round_trips DRAM latencies (memory_concurrency.hpp) and the target's busiest resource at
/// its ceiling takes longer than the source's timed launch (its ceiling is below the rate the
/// source moved) and at least as long as the source's resident warps keep its stream going there
/// (Little's law, concurrency_time_ns: the target's warps hold the bytes in flight its ceiling
/// asks), moves a point slower than that to the target's busiest resource at its ceiling on every
/// launch over `total_ns` (point_method "saturated-target"), the interval holding the ratio's point
/// too, with a note. The ratio carries the source's shortfall from its own ceiling to the target; a
/// stream already faster than the target's ceiling has none to carry. `sampled_ns` covers the
/// profiled launches.
void apply_saturated_target(const KernelRecord& kernel, const config::Ceilings& source,
                            const config::Ceilings& target, const ResourceArray& source_times,
                            const ResourceArray& target_times, double sampled_ns, double total_ns,
                            Projection& p);

} // namespace irf::model

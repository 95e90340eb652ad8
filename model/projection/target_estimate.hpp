// SPDX-License-Identifier: Apache-2.0
// A ceiling the target's entry lacks while the source's has it (issue 54 item 1; docs/model.md,
// "A ceiling the target lacks"): the resource is timed on the target from an estimate of that
// ceiling, bounded by the ceilings around it, instead of leaving the target's bound undecided.
#pragma once

#include <string>
#include <vector>

#include "config/ceilings.hpp"
#include "model/profile/analysis.hpp"
#include "model/projection/resource_times.hpp"

namespace irf::model {

/// One resource timed on the target from an estimated ceiling: its time at the estimate and at
/// the two ends of what the ceiling can be.
struct TargetEstimate {
    std::size_t resource = 0; ///< index into k_resources
    double low_ns = 0;        ///< the time at the fastest the ceiling can be
    double point_ns = 0;      ///< the time at the estimate
    double high_ns = 0;       ///< the time at the slowest the ceiling can be
    std::string why;          ///< the note: the estimate and its bounds, with their values
};

/// The L2 bandwidth of `target` estimated from `source`'s: scaled by SMs x clock (the naive
/// ratio: L2 slices and their clock grow with the chip), then held between the target's DRAM
/// bandwidth (an L2 is never slower than the memory behind it) and its L1 bandwidth (never
/// faster than the SMs' own caches) when those are known. 0 when the source has no L2 figure.
[[nodiscard]] double estimated_l2_gbs(const config::Ceilings& source,
                                      const config::Ceilings& target);

/// For each resource unknown on the target (rt.ns empty) but timed on the source, today the L2:
/// sets rt.ns to its time at estimated_l2_gbs, drops its entries from rt.unknown and returns the
/// estimate with its bounds. `l2_transactions_t` are the target's (after the L2 capacity fit).
[[nodiscard]] std::vector<TargetEstimate>
estimate_target_ceilings(const ResourceArray& rs, ResourceArray& rt, double l2_transactions_t,
                         const config::Ceilings& source, const config::Ceilings& target);

/// Widens `p` to hold the point at each estimate's low and high time (t_s x longest on the
/// target / longest on the source, the other resources as they are), sets confidence low and
/// adds each estimate's note.
void widen_for_estimates(const std::vector<TargetEstimate>& estimates, const ResourceArray& rs,
                         const ResourceArray& rt, double total_ns, Projection& p);

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Grids whose waves cannot be counted (docs/model.md, "Waves"): a recorded grid smaller than the
// target's SM count, and a grid that was not recorded, read from its measured SM activity.
#pragma once

#include <optional>
#include <utility>

#include "config/ceilings.hpp"
#include "model/profile/analysis.hpp"
#include "model/profile/profile.hpp"
#include "model/projection/resource_times.hpp"

namespace irf::model {

/// At most this measured SM activity, a grid is one wave: a grid of two waves or more keeps
/// every SM busy through its first wave, so its activity is at least (SMs + tail) / (2 x SMs),
/// over one half (docs/model.md, "Waves").
inline constexpr double k_one_wave_activity = 0.5;

/// The fills (the SMs' busy share) on the source and the target of a kernel whose grid was not
/// recorded, from the source's `sm_active_share` counter (the share of a launch's time an SM had
/// a warp resident, averaged over the SMs and summed over the profiled launches like every
/// counter; nvprof's sm_efficiency and sm_activity): its mean at most k_one_wave_activity is
/// one wave of share x the source's SMs blocks, each resident for the whole kernel, so the
/// source's fill is the share and the target's min(1, those blocks / its SMs). nullopt with a
/// recorded grid, without the counter or above k_one_wave_activity.
[[nodiscard]] std::optional<std::pair<double, double>>
activity_fills(const KernelRecord& k, int sms_source, int sms_target);

/// For a kernel whose waves were not counted: with a recorded grid under the target's SM count,
/// confidence low and a note that idle SMs do not follow the ceilings; with none, confidence low
/// (a grid under the SM count cannot be told), and when activity_fills gives fills, the SM-side
/// times (issue, FLOPs, L1) of each GPU divided by its fill, with a note.
void apply_uncounted_grid(const KernelRecord& k, const config::Ceilings& source,
                          const config::Ceilings& target, ResourceArray& source_times,
                          ResourceArray& target_times, Projection& p);

/// For a kernel whose grid was not recorded and whose source SMs were active more than
/// k_one_wave_activity of the time: the point reads the grid as many waves (fills 1), but one wave
/// of `share x SMs_s` blocks, each resident throughout, gives that activity too. Widens `p`'s
/// interval to hold the time under that reading (the SM-side times divided by the fills
/// activity_fills would give: `share` on the source, min(1, share x SMs_s / SMs_t) on the target),
/// with a note. `source_times` and `target_times` are the resource times before any fill.
void widen_for_one_wave_reading(const KernelRecord& k, const config::Ceilings& source,
                                const config::Ceilings& target, const ResourceArray& source_times,
                                const ResourceArray& target_times, double total_ns, Projection& p);

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Projection of a kernel's time onto a target GPU (projection-upcoming-gpus, section 3, Eq. 9).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/ceilings.hpp"
#include "model/analysis.hpp"
#include "model/profile.hpp"

namespace irf::model {

/// Eq. 9 in time form: Perf_t = Perf_s / roofline_s x roofline_t, and time = work / Perf, so
/// t_target = t_source x roofline_s / roofline_t.
[[nodiscard]] double projected_time_ns(double source_time_ns, double roofline_source,
                                       double roofline_target);

/// Peak warp GIPS of a ceilings entry: its warp_gips value, else SMs x schedulers x boost clock.
[[nodiscard]] double warp_gips_of(const config::Ceilings& ceilings);

/// Projects `kernel` (already analysed on `source`: `analysis` holds its irm, flops and
/// predication) onto `target`. One projected time per level (L1, L2, HBM) using the
/// kernel-specific rooflines of Eq. 1-8 on both GPUs with the source's intensities; low/high are
/// their min/max and the point is the level that bounds the kernel on the source (irm.bound;
/// "issue" uses the compute ceilings' ratio, kept inside [low, high]). The basis is FLOPs when
/// the kernel has FP FLOPs and both GPUs have the matching compute ceiling, else warp
/// instructions. Confidence is "low" when the working set (DRAM bytes per launch) fits in one
/// GPU's L2 and not the other's, or the grid has fewer blocks than the target has SMs; the notes
/// say why. nullopt, with a reason in `missing`, when time or memory counters are absent.
[[nodiscard]] std::optional<Projection>
project(const KernelRecord& kernel, const KernelAnalysis& analysis, const config::Ceilings& source,
        const config::Ceilings& target, std::vector<std::string>& missing);

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Projection of a kernel's time onto a target GPU (docs/model.md: PROJ section 3, Eq. 9).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/ceilings.hpp"
#include "model/profile/analysis.hpp"
#include "model/profile/profile.hpp"
#include "model/projection/resource_times.hpp"
#include "model/roofline/kernel_ceilings.hpp"

namespace irf::model {

/// Eq. 9 in time form: Perf_t = Perf_s / roofline_s x roofline_t, and time = work / Perf, so
/// t_target = t_source x roofline_s / roofline_t.
[[nodiscard]] double projected_time_ns(double source_time_ns, double roofline_source,
                                       double roofline_target);

/// The mean of a projected time interval as PROJ's red line (docs/model.md): the interval is of
/// performance (work / time), so in time it is the harmonic mean 2 / (1/low + 1/high).
[[nodiscard]] double interval_mean_ns(double low_ns, double high_ns);

/// Projects `kernel` (already analysed on `source`) onto `target`.
/// Interval: Eq. 9 at L1, L2 and HBM with the kernel-specific ceilings of Eq. 6-8 and a compute
/// side of max(issue time, sum over precisions of FLOPs_p / Perf_p); eq9_low/eq9_high = min/max,
/// mean = interval_mean_ns of them; low/high = that interval widened to hold the point.
/// Point: t_s x (slowest resource time on the target) / (slowest on the source), over issue, FLOPs,
/// L1, L2 and HBM (resource_times); the interval mean, with low confidence, when an unknown
/// resource leaves either bound undecided. Confidence is also "low" when the target's DRAM traffic
/// is the L2 model's, the grid looks persistent, or the grid has fewer blocks than the target has
/// SMs; the notes say why. Tensor work without its ops counters widens the interval
/// (bracket_unmeasured_tensor). A kernel missing a level's counters or its FP op counters is
/// projected on the known resources with low confidence, the interval holding what each absent
/// resource would give (projection_partial.hpp); one-wave grids may take memory or SM
/// concurrency (memory_concurrency.hpp). The calibrated interval is the caller's, last
/// (apply_calibrated_interval). nullopt, with a reason in `missing`, only when the time or the
/// instructions are absent, or a GPU has no issue ceiling.
[[nodiscard]] std::optional<Projection>
project(const KernelRecord& kernel, const KernelAnalysis& analysis, const config::Ceilings& source,
        const config::Ceilings& target, std::vector<std::string>& missing);

/// What the projections of a kernel read from its counters, read once for all its targets.
struct ProjectionWork {
    KernelWork resources;            ///< see resource_times
    std::optional<LevelBytes> bytes; ///< level_bytes
    std::optional<double> time_ns;   ///< the time_ns counter
    /// false: the waves' note (the longest to format) and the source's resource times are not
    /// made, for a caller that drops them (AnalyzeSettings::projection_details); nothing else
    /// changes.
    bool details = true;
};

/// The name a projection onto `target` carries (Projection::target): its key, else its GPU
/// name, else where it was read from.
[[nodiscard]] std::string target_name(const config::Ceilings& target);

/// The projection work of a kernel analysed as `analysis` (its instruction mix) from `counters`,
/// the kernel's counters as the analysis read them (without tensor register moves); refers to
/// them, so they must outlive it.
[[nodiscard]] ProjectionWork projection_work(const KernelAnalysis& analysis,
                                             const Counters& counters);

/// project() with the counters already read by projection_work (same result, once per kernel).
[[nodiscard]] std::optional<Projection>
project(const KernelRecord& kernel, const KernelAnalysis& analysis, const ProjectionWork& work,
        const config::Ceilings& source, const config::Ceilings& target,
        std::vector<std::string>& missing);

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Warm L2 (docs/model.md, "Warm L2").
#include "model/projection/warm_l2.hpp"

#include "common/string_printf.hpp"
#include "model/projection/calibrated_interval.hpp"
#include "model/projection/projection_partial.hpp"

namespace irf::model {

double longest_time_without_hbm_ns(const ResourceArray& times) {
    ResourceArray others = times;
    others.ns[k_hbm].reset();
    return longest_time_ns(others);
}

void apply_warm_l2(const config::Ceilings& source, const config::Ceilings& target,
                   const ResourceArray& source_times, const ResourceArray& target_times,
                   double total_ns, Projection& p) {
    // Across SM designs the other resources' ratios of such launches were no better than HBM's
    // (magus, docs/validation/projection.md, "Warm L2"), so one design only.
    if (!p.ratio_point || p.bound_source != "hbm" || !p.l2 || !p.l2->fits_source ||
        !p.l2->fits_target || !same_compute_capability(source, target) || !(total_ns > 0)) {
        return;
    }
    const double others_s = longest_time_without_hbm_ns(source_times);
    const double others_t = longest_time_without_hbm_ns(target_times);
    if (!(others_s > 0) || !(others_t > 0)) {
        return;
    }
    const double at = total_ns * others_t / others_s;
    const double hbm_speedup = p.speedup_point;
    move_point(p, at, total_ns, "warm-l2", PointBasis::scaled_source);
    p.confidence = "low";
    p.notes.push_back(common::string_printf(
        "warm L2: the working set (~%.1f MB a launch) fits both L2s (%.1f and %.1f MB), so an "
        "application's launches find it in the L2 the launches before them filled, and the "
        "DRAM traffic the counters read from a cold L2 need not bind them: t = t_s x the "
        "target's busiest resource other than HBM / the source's (%.2fx instead of HBM's "
        "%.2fx); the interval holds HBM's point too",
        p.l2->working_set_bytes / 1e6, static_cast<double>(source.gpu.l2_bytes) / 1e6,
        static_cast<double>(target.gpu.l2_bytes) / 1e6, p.speedup_point, hbm_speedup));
}

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Saturated target (docs/model.md, "Saturated target").
#include "model/projection/saturated_target.hpp"

#include <algorithm>

#include "common/string_printf.hpp"
#include "model/projection/memory_concurrency.hpp"
#include "model/projection/projection_partial.hpp"
#include "model/projection/waves.hpp"

namespace irf::model {

namespace {

// The time the source's resident warps keep the stream going on the target, by Little's law,
// at the DRAM latency ratio `latency` (target / source; 0 when the warps or latencies cannot be
// told).
double stream_time_by_warps(const KernelRecord& k, const config::Ceilings& s,
                            const config::Ceilings& t, const Projection& p, double latency,
                            double total_ns) {
    if (!p.waves_source || !p.waves_target) {
        return 0;
    }
    const double per_block = warps_per_block(k.launch);
    const double warps_s = resident_warps(*p.waves_source, s.gpu.sms, per_block);
    const double warps_t = resident_warps(*p.waves_target, t.gpu.sms, per_block);
    if (!(warps_s > 0) || !(warps_t > 0) || !(latency > 0)) {
        return 0;
    }
    return concurrency_time_ns(total_ns, warps_s, warps_t, 1.0, latency);
}

} // namespace

void apply_saturated_target(const KernelRecord& k, const config::Ceilings& s,
                            const config::Ceilings& t, const ResourceArray& rs,
                            const ResourceArray& rt, double sampled_ns, double total_ns,
                            Projection& p) {
    if (!p.ratio_point || !memory_level(p.bound_source) || !(sampled_ns > 0) || !(total_ns > 0)) {
        return;
    }
    const auto [launch_ns, busiest_s, busiest_t] = launch_busy(k, rs, rt, sampled_ns, total_ns);
    const DramLatencies latencies = dram_latencies(s, t);
    if (!(busiest_s > 0) || busiest_s >= k_saturated_source_share * launch_ns ||
        !(busiest_t > launch_ns) || launch_ns < k_min_round_trips * latencies.round_trip_ns) {
        return;
    }
    const double at = total_ns * busiest_t / launch_ns;
    const double by_warps = stream_time_by_warps(k, s, t, p, latencies.ratio, total_ns);
    if (!(by_warps > 0) || at < by_warps || at >= p.time_point_ns) {
        return;
    }
    const double ratio_point = p.time_point_ns;
    move_point(p, at, total_ns, "saturated-target", PointBasis::target_own);
    p.notes.push_back(common::string_printf(
        "saturated target: the target's %s at its ceiling takes %.4g ns a launch, longer than "
        "the source's timed %.4g ns, where its %s ran at %.1f%% of its ceiling: the target's "
        "stream runs at its ceiling (its resident warps keep it going in %.4g ns by Little's "
        "law), not at the source's share of it, which the resource ratio (%.4g ns) carried; the "
        "interval holds that point too",
        binding_resource(rt).c_str(), busiest_t, launch_ns, p.bound_source.c_str(),
        100 * busiest_s / launch_ns, by_warps / total_ns * launch_ns, ratio_point));
}

} // namespace irf::model

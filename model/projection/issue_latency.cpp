// SPDX-License-Identifier: Apache-2.0
// Dependent-issue latency (docs/model.md, "Dependent-issue latency").
#include "model/projection/issue_latency.hpp"

#include <algorithm>

#include "common/string_printf.hpp"
#include "model/projection/projection_partial.hpp"

namespace irf::model {

std::optional<double> dependent_issue_latency_cycles(const std::string& cc) {
    // By the major version: the measurements give one figure per generation.
    const std::string major = cc.substr(0, cc.find('.'));
    if (major == "3") {
        return 9.0;
    }
    if (major == "5" || major == "6") {
        return 6.0;
    }
    if (major == "7") {
        return 4.0;
    }
    return std::nullopt;
}

void apply_issue_latency(const KernelRecord& k, const config::Ceilings& s,
                         const config::Ceilings& t, const ResourceArray& rs,
                         const ResourceArray& rt, double sampled_ns, double total_ns,
                         Projection& p) {
    const bool sm_side =
        p.bound_source == "issue" || p.bound_source == "flops" || p.bound_source == "l1";
    const auto lat_s = dependent_issue_latency_cycles(s.gpu.cc);
    const auto lat_t = dependent_issue_latency_cycles(t.gpu.cc);
    const double clock_s = config::sustained_clock_mhz(s);
    const double clock_t = config::sustained_clock_mhz(t);
    if (!p.ratio_point || !sm_side || !lat_s || !lat_t || *lat_s == *lat_t || s.gpu.sms <= 0 ||
        t.gpu.sms <= 0 || !(clock_s > 0) || !(clock_t > 0) || !(sampled_ns > 0) ||
        !(total_ns > 0)) {
        return;
    }
    const LaunchBusy busy = launch_busy(k, rs, rt, sampled_ns, total_ns);
    const double u = std::min(1.0, busy.source_ns / busy.launch_ns);
    if (!(u < 1)) {
        return;
    }
    const double ratio = p.time_point_ns / total_ns;
    const double by_latency = (s.gpu.sms * clock_s * *lat_t) / (t.gpu.sms * clock_t * *lat_s);
    move_point(p, total_ns * (u * ratio + (1 - u) * by_latency), total_ns, "issue-latency",
               PointBasis::scaled_source);
    p.notes.push_back(common::string_printf(
        "dependent-issue latency: the busiest resource explains %.1f%% of a launch; the rest, "
        "waits on dependent instructions, moves by the SMs x clocks %d x %.0f / %d x %.0f MHz "
        "and the latencies %.0f / %.0f cycles: t = t_s x (%.3f x %.3f + %.3f x %.3f); the "
        "interval holds the resource ratio's point too",
        100 * u, s.gpu.sms, clock_s, t.gpu.sms, clock_t, *lat_t, *lat_s, u, ratio, 1 - u,
        by_latency));
}

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// A ceiling the target's entry lacks (docs/model.md, "A ceiling the target lacks").
#include "model/projection/target_estimate.hpp"

#include <algorithm>

#include "common/string_printf.hpp"
#include "model/projection/projection.hpp"

namespace irf::model {

namespace {

double gbs(const std::optional<config::Quantity>& q) {
    return q && q->value > 0 ? q->value : 0.0;
}

double sm_clock_rate(const config::Ceilings& c) {
    return static_cast<double>(c.gpu.sms) * sustained_clock_mhz(c);
}

// The point of `p`'s kind with `rt`'s resource `r` at `ns`: t_s x longest on the target /
// longest on the source.
double point_with(const ResourceArray& rs, ResourceArray rt, std::size_t r, double ns,
                  double total_ns) {
    rt.ns[r] = ns;
    const double longest_s = longest_time_ns(rs);
    return longest_s > 0 ? projected_time_ns(total_ns, longest_time_ns(rt), longest_s) : total_ns;
}

} // namespace

double estimated_l2_gbs(const config::Ceilings& source, const config::Ceilings& target) {
    const double l2_s = gbs(source.l2_gbs);
    const double rate_s = sm_clock_rate(source);
    const double rate_t = sm_clock_rate(target);
    if (!(l2_s > 0) || !(rate_s > 0) || !(rate_t > 0)) {
        return 0.0;
    }
    double estimate = l2_s * rate_t / rate_s;
    if (const double hbm = gbs(target.hbm_gbs); hbm > 0) {
        estimate = std::max(estimate, hbm);
    }
    if (const double l1 = gbs(target.l1_gbs); l1 > 0) {
        estimate = std::min(estimate, l1);
    }
    return estimate;
}

std::vector<TargetEstimate> estimate_target_ceilings(const ResourceArray& rs, ResourceArray& rt,
                                                     double l2_transactions_t,
                                                     const config::Ceilings& source,
                                                     const config::Ceilings& target) {
    std::vector<TargetEstimate> out;
    if (rt.ns[k_l2] || !rs.ns[k_l2] || !(l2_transactions_t >= 0)) {
        return out;
    }
    const double estimate = estimated_l2_gbs(source, target);
    if (!(estimate > 0)) {
        return out;
    }
    const double bytes = l2_transactions_t * 32.0;
    const double fastest = gbs(target.l1_gbs) > 0 ? gbs(target.l1_gbs) : estimate * 2.0;
    const double slowest = gbs(target.hbm_gbs) > 0 ? gbs(target.hbm_gbs) : estimate / 2.0;
    TargetEstimate e;
    e.resource = k_l2;
    e.point_ns = bytes / estimate; // GB/s = bytes per ns
    e.low_ns = bytes / fastest;    // estimated_l2_gbs holds the estimate between the two
    e.high_ns = bytes / slowest;
    e.why = common::string_printf(
        "target has no L2 bandwidth: %.0f GB/s estimated (the source's %.0f x SMs x clock, "
        "%d x %.0f MHz / %d x %.0f MHz), between its %s (%.0f) and its %s (%.0f GB/s)",
        estimate, gbs(source.l2_gbs), target.gpu.sms, sustained_clock_mhz(target), source.gpu.sms,
        sustained_clock_mhz(source), gbs(target.hbm_gbs) > 0 ? "DRAM" : "estimate / 2", slowest,
        gbs(target.l1_gbs) > 0 ? "L1" : "estimate x 2", fastest);
    rt.ns[k_l2] = e.point_ns;
    rt.unknown.erase(std::remove_if(rt.unknown.begin(), rt.unknown.end(),
                                    [](const std::string& u) { return u.rfind("l2:", 0) == 0; }),
                     rt.unknown.end());
    out.push_back(std::move(e));
    return out;
}

void widen_for_estimates(const std::vector<TargetEstimate>& estimates, const ResourceArray& rs,
                         const ResourceArray& rt, double total_ns, Projection& p) {
    for (const TargetEstimate& e : estimates) {
        const double low = point_with(rs, rt, e.resource, e.low_ns, total_ns);
        const double high = point_with(rs, rt, e.resource, e.high_ns, total_ns);
        p.time_low_ns = std::min({p.time_low_ns, low, high});
        p.time_high_ns = std::max({p.time_high_ns, low, high});
        p.confidence = "low";
        p.notes.push_back(e.why + "; the interval holds the time at both ends");
    }
}

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// The SM clock a kernel ran at (docs/model.md, "SM clock").
#include "model/roofline/sm_clock.hpp"

#include <algorithm>

#include "common/string_printf.hpp"
#include "model/roofline/counters.hpp"
#include "model/roofline/instruction_roofline.hpp"

namespace irf::model {

namespace {

// A value at the SM clock `mhz`: the SM-side rates are per-clock rates x the clock they assume.
// A value quoted below the boost (tensor peaks) is not raised above its own clock; others follow
// a part that runs above its boost figure (docs/model.md, "SM clock").
void scale(config::Quantity& q, double mhz, double boost_mhz) {
    const double assumed = q.clock_mhz > 0 ? q.clock_mhz : boost_mhz;
    if (!(assumed > 0)) {
        return;
    }
    const bool capped = q.clock_mhz > 0 && q.clock_mhz < boost_mhz;
    q.value *= capped ? std::min(1.0, mhz / assumed) : mhz / assumed;
}

// The highest clock a GPU is taken to run at: its sustained_high, else its boost.
double highest_mhz(const config::Ceilings& c) {
    return std::max(c.gpu.boost_clock_mhz, config::clock_entry_mhz(c, "sustained_high"));
}

constexpr double s_clock_spread_for_low_confidence = 1.25;

} // namespace

std::optional<double> clock_fraction(const Counters& counters, const config::GpuIdentity& source) {
    const auto hz = counter(counters, "clock_hz");
    const double boost_mhz = source.boost_clock_mhz;
    if (!hz || !(boost_mhz > 0)) {
        return std::nullopt;
    }
    const double mhz = *hz / 1e6;
    if (mhz < 100 || mhz > 1.1 * boost_mhz) {
        return std::nullopt; // not a clock this GPU runs at: keep the boost
    }
    return std::min(1.0, mhz / boost_mhz);
}

config::Ceilings at_clock_fraction(const config::Ceilings& ceilings, double fraction) {
    config::Ceilings out = ceilings;
    const double boost = out.gpu.boost_clock_mhz;
    const double mhz = fraction * boost;
    if (fraction == 1.0 || !(fraction > 0) || !(boost > 0)) {
        return out;
    }
    out.warp_gips.value = warp_gips_of(ceilings); // 0 means "derive from the boost clock"
    scale(out.warp_gips, mhz, boost);
    for (auto* group : {&out.pipe_gips, &out.gflops, &out.tensor_tflops, &out.datapaths}) {
        for (auto& [key, q] : *group) {
            scale(q, mhz, boost);
        }
    }
    for (auto* level : {&out.l1_gbs, &out.shared_gbs}) {
        if (*level) {
            scale(**level, mhz, boost);
        }
    }
    return out;
}

std::optional<double> measured_clock_mhz(const Counters& counters, const config::Ceilings& source) {
    const auto hz = counter(counters, "clock_hz");
    const double highest = highest_mhz(source);
    if (!hz || !(highest > 0)) {
        return std::nullopt;
    }
    const double mhz = *hz / 1e6;
    if (mhz < 100 || mhz > 1.1 * highest) {
        return std::nullopt; // not a clock this GPU runs at
    }
    return std::min(mhz, highest);
}

double target_clock_mhz(double source_mhz, const config::Ceilings& source,
                        const config::Ceilings& target) {
    const double typical_s = config::sustained_clock_mhz(source);
    const double typical_t = config::sustained_clock_mhz(target);
    if (!(typical_s > 0) || !(source_mhz > 0)) {
        return typical_t;
    }
    return std::min(typical_t * source_mhz / typical_s, highest_mhz(target));
}

double source_clock_mhz(const KernelRecord& k, const config::Ceilings& source,
                        std::vector<std::string>& notes) {
    const double boost = source.gpu.boost_clock_mhz;
    if (const auto measured = measured_clock_mhz(k.counters, source)) {
        if (*measured != boost) {
            notes.push_back(common::string_printf(
                "clock: ran at %.0f MHz, %.3f of the boost clock: issue, FP, tensor, L1 and shared "
                "ceilings scaled to it (each target at its sustained clock x %.0f / the source's "
                "sustained %.0f MHz)",
                *measured, *measured / boost, *measured, config::sustained_clock_mhz(source)));
        }
        return *measured;
    }
    const double sustained = config::sustained_clock_mhz(source);
    if (sustained != boost) {
        notes.push_back(common::string_printf(
            "clock: not measured; the source's sustained clock under load, %.0f MHz (its ceilings "
            "file), stands in for it",
            sustained));
    }
    return sustained;
}

void widen_by_clock_spread(const config::Ceilings& target, double target_mhz, Projection& p) {
    const double low = config::clock_entry_mhz(target, "sustained_low");
    const double high = config::clock_entry_mhz(target, "sustained_high");
    const std::string& bound = p.bound_target;
    if (!(target_mhz > 0) || (!(low > 0) && !(high > 0)) ||
        (bound != "issue" && bound != "flops" && bound != "l1")) {
        return;
    }
    // Time goes with 1 / clock on the SM side: faster at the spread's high end.
    const double fastest = high > target_mhz ? high : target_mhz;
    const double slowest = low > 0 && low < target_mhz ? low : target_mhz;
    p.time_low_ns = std::min(p.time_low_ns, p.time_point_ns * target_mhz / fastest);
    p.time_high_ns = std::max(p.time_high_ns, p.time_point_ns * target_mhz / slowest);
    if (fastest / slowest > s_clock_spread_for_low_confidence) {
        p.confidence = "low";
        p.notes.push_back(common::string_printf(
            "clock: the target's sustained clock spans %.0f-%.0f MHz (x%.2f): the interval holds "
            "the point at each",
            slowest, fastest, fastest / slowest));
    }
}

} // namespace irf::model

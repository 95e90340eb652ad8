// SPDX-License-Identifier: Apache-2.0
// The SM clock a kernel ran at (docs/model.md, "SM clock").
#include "model/sm_clock.hpp"

#include <algorithm>

#include "model/counters.hpp"
#include "model/projection.hpp"

namespace irf::model {

namespace {

// A value at the SM clock `mhz`: the SM-side rates are per-clock rates x the clock they assume,
// and a clock above that assumption (tensor peaks quoted below the boost) does not raise them.
void scale(config::Quantity& q, double mhz, double boost_mhz) {
    const double assumed = q.clock_mhz > 0 ? q.clock_mhz : boost_mhz;
    if (assumed > 0) {
        q.value *= std::min(1.0, mhz / assumed);
    }
}

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
    if (!(fraction < 1.0) || !(boost > 0)) {
        return out;
    }
    out.warp_gips.value = warp_gips_of(ceilings); // 0 means "derive from the boost clock"
    scale(out.warp_gips, mhz, boost);
    for (auto* group : {&out.pipe_gips, &out.gflops, &out.tensor_tflops}) {
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

} // namespace irf::model

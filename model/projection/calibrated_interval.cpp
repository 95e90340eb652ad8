// SPDX-License-Identifier: Apache-2.0
// The calibrated interval (docs/model.md, "Calibrated interval").
#include "model/projection/calibrated_interval.hpp"

#include <algorithm>

#include "common/string_printf.hpp"

namespace irf::model {

namespace {

// The residual spreads: per class (compute capability x confidence), the envelope of the ends
// fitted on each family of sets scripts/fit_interval.py replays (gpuperfpredict's and magus's
// pairs, the KernelBench operators comparable with the H200 recording, the H100 -> H200
// recordings); integration.fit_interval_check fails when a refit differs.
// BEGIN fitted (scripts/fit_interval.py --write)
constexpr ResidualSpread s_same_cc_high{0.8995, 1.2199, 265};
constexpr ResidualSpread s_same_cc_low{0.8404, 1.1972, 407};
constexpr ResidualSpread s_cross_cc_high{0.7253, 1.6083, 266};
constexpr ResidualSpread s_cross_cc_low{0.5640, 2.0863, 1643};
// END fitted

} // namespace

bool same_compute_capability(const config::Ceilings& source, const config::Ceilings& target) {
    return !source.gpu.cc.empty() && source.gpu.cc == target.gpu.cc;
}

ResidualSpread residual_spread(bool same_cc, bool high_confidence) {
    if (same_cc) {
        return high_confidence ? s_same_cc_high : s_same_cc_low;
    }
    return high_confidence ? s_cross_cc_high : s_cross_cc_low;
}

void widen_by_spread(const ResidualSpread& spread, bool same_cc, bool high_confidence,
                     Projection& p) {
    if (!(p.time_point_ns > 0) || spread.kernels <= 0) {
        return;
    }
    p.time_calibrated_low_ns = std::min(p.time_low_ns, p.time_point_ns * spread.low);
    p.time_calibrated_high_ns = std::max(p.time_high_ns, p.time_point_ns * spread.high);
    p.notes.push_back(common::string_printf(
        "calibrated: the calibrated interval holds x%.2f-x%.2f of the point, 90%% of %d measured "
        "times of %s-confidence projections %s (docs/model.md, Calibrated interval)",
        spread.low, spread.high, spread.kernels, high_confidence ? "high" : "low",
        same_cc ? "of the same compute capability" : "across compute capabilities"));
}

void apply_calibrated_interval(const config::Ceilings& source, const config::Ceilings& target,
                               Projection& p) {
    const bool same_cc = same_compute_capability(source, target);
    const bool high = p.confidence == "high";
    widen_by_spread(residual_spread(same_cc, high), same_cc, high, p);
}

} // namespace irf::model

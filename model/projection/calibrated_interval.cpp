// SPDX-License-Identifier: Apache-2.0
// The calibrated interval (docs/model.md, "Calibrated interval").
#include "model/projection/calibrated_interval.hpp"

#include <algorithm>

#include "common/string_printf.hpp"

namespace irf::model {

namespace {

// The residual spreads: per class, the envelope of the ends fitted on each family of sets
// scripts/fit_interval.py replays (gpuperfpredict's pairs, the KernelBench operators comparable
// with the H200 recording, the H100 -> H200 recordings); integration.fit_interval_check fails
// when a refit differs.
// BEGIN fitted (scripts/fit_interval.py --write)
constexpr ResidualSpread s_same_cc{0.8241, 1.3379, 673};
constexpr ResidualSpread s_cross_cc{0.5688, 2.1961, 1924};
// END fitted

} // namespace

bool same_compute_capability(const config::Ceilings& source, const config::Ceilings& target) {
    return !source.gpu.cc.empty() && source.gpu.cc == target.gpu.cc;
}

ResidualSpread residual_spread(bool same_cc) {
    return same_cc ? s_same_cc : s_cross_cc;
}

void widen_by_spread(const ResidualSpread& spread, bool same_cc, Projection& p) {
    if (!(p.time_point_ns > 0) || spread.kernels <= 0) {
        return;
    }
    p.time_calibrated_low_ns = std::min(p.time_low_ns, p.time_point_ns * spread.low);
    p.time_calibrated_high_ns = std::max(p.time_high_ns, p.time_point_ns * spread.high);
    p.notes.push_back(common::string_printf(
        "calibrated: the calibrated interval holds x%.2f-x%.2f of the point, 90%% of %d measured "
        "times %s "
        "(docs/model.md, Calibrated interval)",
        spread.low, spread.high, spread.kernels,
        same_cc ? "of the same compute capability" : "across compute capabilities"));
}

} // namespace irf::model

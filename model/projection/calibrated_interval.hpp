// SPDX-License-Identifier: Apache-2.0
// The projection's interval widened by the residual spread measured on benchmark sets (issue 54
// item 6; docs/model.md, "Calibrated interval"): split conformal, fitted by
// scripts/fit_interval.py.
#pragma once

#include "config/ceilings.hpp"
#include "model/profile/analysis.hpp"

namespace irf::model {

/// The ends of `measured / point` that hold 90% of a class's measured times, and the kernels
/// (or operators) they were fitted on.
struct ResidualSpread {
    double low = 1.0;
    double high = 1.0;
    int kernels = 0;
};

/// Whether both entries name the same compute capability (false when either `cc` is unknown).
[[nodiscard]] bool same_compute_capability(const config::Ceilings& source,
                                           const config::Ceilings& target);

/// The fitted spread of a class of projections: same compute capability or not (`same_cc`,
/// same_compute_capability) x high confidence or not (a high-confidence projection misses by
/// less: docs/model.md, "Calibrated interval").
[[nodiscard]] ResidualSpread residual_spread(bool same_cc, bool high_confidence);

/// Sets `p`'s calibrated interval: its interval widened to hold point x spread.low .. point x
/// spread.high, with a note naming the class; the interval, the Eq. 9 one and the point stay.
void widen_by_spread(const ResidualSpread& spread, bool same_cc, bool high_confidence,
                     Projection& p);

/// The last of a projection's widenings (after those of the target's figures and clocks, which
/// may lower its confidence): widen_by_spread with the spread of `p`'s class from `source` and
/// `target` and its final confidence.
void apply_calibrated_interval(const config::Ceilings& source, const config::Ceilings& target,
                               Projection& p);

} // namespace irf::model

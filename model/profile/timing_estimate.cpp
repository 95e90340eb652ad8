// SPDX-License-Identifier: Apache-2.0
// The estimated time of untimed launches (model/profile/timing_estimate.hpp).
#include "model/profile/timing_estimate.hpp"

#include <algorithm>
#include <cmath>

namespace irf::model {

TimingEstimate estimate_untimed(std::uint64_t timed, double mean_ns, double m2,
                                std::uint64_t untimed) {
    TimingEstimate e;
    if (untimed == 0 || timed == 0) {
        return e; // nothing to estimate, or nothing to estimate it from
    }
    const double u = static_cast<double>(untimed);
    const double n = static_cast<double>(timed);
    e.time_ns = u * mean_ns;
    if (timed >= 2) {
        // m2 may round a hair below zero for identical durations.
        const double variance = std::max(m2, 0.0) / (n - 1);
        e.error_ns = std::sqrt(variance * u * (1 + u / n));
    }
    return e;
}

} // namespace irf::model

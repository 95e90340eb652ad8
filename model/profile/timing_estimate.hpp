// SPDX-License-Identifier: Apache-2.0
// The estimated time of launches left untimed (IRF_TIMING=sampled, docs/configuration.md,
// "Sampled timing"): each at the mean of its kernel's timed launches, with a standard error.
#pragma once

#include <cstdint>
#include <optional>

namespace irf::model {

/// The untimed launches' estimated time and its error, in nanoseconds.
struct TimingEstimate {
    double time_ns = 0;             ///< untimed launches x mean of the timed ones
    std::optional<double> error_ns; ///< one standard error; nullopt under two timed launches
};

/// Estimates `untimed` launches from `timed` launches of mean `mean_ns` whose squared
/// deviations from that mean sum to `m2` (Welford). The error is the standard error of
/// predicting the sum of `untimed` draws: s * sqrt(u * (1 + u / n)), s the sample standard
/// deviation of the timed launches; it covers their spread and the uncertainty of their mean.
[[nodiscard]] TimingEstimate estimate_untimed(std::uint64_t timed, double mean_ns, double m2,
                                              std::uint64_t untimed);

} // namespace irf::model

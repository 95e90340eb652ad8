// SPDX-License-Identifier: Apache-2.0
// How every tool prints a duration (libirf's summary, irf-report, irf-calibrate; irf-plot
// follows the same rules in tools/irf_plot/irfplot/units.py), so one kernel's time reads the
// same wherever it appears.
#pragma once

#include <string>

namespace irf::common {

/// `value` with three significant digits and no exponent from 1 up to 1e15 ("0.417", "9.99",
/// "10.0", "436", "6095"); below 1 and from 1e15 in magnitude printf's %.3g ("0.0312", "1e-05",
/// "1e+308"); NaN or infinity is "-". The number part of format_time and of the tools' rates (GIPS,
/// GB/s).
[[nodiscard]] std::string format_significant(double value);

/// `ns` nanoseconds with three significant digits in the largest unit of ns, us, ms, s that
/// keeps the value at or above 1 once rounded: "999 ns", "1.00 us", "50.5 us", "232 us",
/// "1.23 s", "1234 s"; exactly 0 is "0 ns", a negative value keeps its sign, NaN or infinity
/// is "-".
[[nodiscard]] std::string format_time(double ns);

} // namespace irf::common

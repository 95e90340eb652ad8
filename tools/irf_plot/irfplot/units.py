# SPDX-License-Identifier: Apache-2.0
"""Numbers as the C++ tools print them (common/time_format.hpp): three significant digits, a
duration in the largest of ns, us, ms, s that keeps it at or above 1 once rounded, so a time in
a figure reads as it does in irf-report's tables."""
import math

TIME_UNITS = ((1.0, "ns"), (1e3, "us"), (1e6, "ms"), (1e9, "s"))


def format_significant(value):
    """Three significant digits, no exponent from 1 up to 1e15 ("0.417", "10.0", "436", "6095");
    beyond, an exponent ("1e+308"), as the C++ tools."""
    if not math.isfinite(value):
        return "-"
    magnitude = abs(value)
    if magnitude < 0.9995 or magnitude >= 1e15:
        return f"{value:.3g}"
    # Thresholds where rounding adds a digit: 9.995 prints "10.0", not "10.00".
    decimals = 0 if magnitude >= 99.95 else 1 if magnitude >= 9.995 else 2
    return f"{value:.{decimals}f}"


def format_time(ns):
    """ "999 ns", "1.00 us", "50.5 us", "232 us", "1.23 s"; 0 is "0 ns", NaN/inf "-"."""
    if not math.isfinite(ns):
        return "-"
    if ns == 0:
        return "0 ns"
    magnitude = abs(ns)
    unit = 0
    while unit + 1 < len(TIME_UNITS) and magnitude / TIME_UNITS[unit][0] >= 999.5:
        unit += 1
    scale, name = TIME_UNITS[unit]
    return ("-" if ns < 0 else "") + format_significant(magnitude / scale) + " " + name

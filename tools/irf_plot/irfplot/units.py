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


# Speedup tick candidates, in the order they are kept: 1 (no change), then the 1-2-5 ladder,
# then finer steps for narrow ranges.
SPEEDUP_TICKS = (1, 0.5, 2, 0.1, 10, 0.2, 5, 0.05, 20, 0.01, 100, 0.02, 50, 0.25, 4, 0.8, 1.25,
                 1.5, 3, 0.67)


def speedup_ticks(low, high, spacing=0.09):
    """Ticks for a log speedup axis from `low` to `high`: candidates in SPEEDUP_TICKS order,
    each kept only when it is at least `spacing` of the axis (in log units) from every tick
    kept before, so labels such as "0.2x" and "0.25x" never overlap; sorted."""
    span = math.log(high / low)
    kept = []
    for t in SPEEDUP_TICKS:
        if low <= t <= high and all(abs(math.log(t / k)) >= spacing * span for k in kept):
            kept.append(t)
    return sorted(kept)

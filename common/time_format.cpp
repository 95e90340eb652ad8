// SPDX-License-Identifier: Apache-2.0
// The one duration format of the tools (common/time_format.hpp).
#include "common/time_format.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <string>

namespace irf::common {
namespace {

struct TimeUnit {
    double ns;
    const char* name;
};

constexpr std::array<TimeUnit, 4> s_units{{{1.0, "ns"}, {1e3, "us"}, {1e6, "ms"}, {1e9, "s"}}};

/// Decimals that give `magnitude` (>= 1) three significant digits once rounded: the thresholds
/// are where rounding would add a digit (9.995 prints "10.0", not "10.00").
int decimals(double magnitude) {
    if (magnitude >= 99.95) {
        return 0;
    }
    return magnitude >= 9.995 ? 1 : 2;
}

} // namespace

std::string format_significant(double value) {
    if (!std::isfinite(value)) {
        return "-";
    }
    char buffer[64];
    const double magnitude = std::fabs(value);
    // Below 1 and from 1e15 on: three significant digits with an exponent. %.0f of 1e308 was a
    // 309-digit table cell (issue #39 item 11).
    if (magnitude < 0.9995 || magnitude >= 1e15) {
        std::snprintf(buffer, sizeof buffer, "%.3g", value);
    } else {
        std::snprintf(buffer, sizeof buffer, "%.*f", decimals(magnitude), value);
    }
    return buffer;
}

std::string format_time(double ns) {
    if (!std::isfinite(ns)) {
        return "-";
    }
    if (ns == 0.0) {
        return "0 ns";
    }
    const double magnitude = std::fabs(ns);
    std::size_t unit = 0;
    // Move up while the value would round to 1000 or more in this unit (999.5 ns is "1.00 us").
    while (unit + 1 < s_units.size() && magnitude / s_units[unit].ns >= 999.5) {
        ++unit;
    }
    const double value = magnitude / s_units[unit].ns;
    return (ns < 0 ? "-" : "") + format_significant(value) + " " + s_units[unit].name;
}

} // namespace irf::common

// SPDX-License-Identifier: Apache-2.0
// Values as ncu and nvprof print them: thousands separators, "n/a", unit prefixes, dim3.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "config/foreign_metrics.hpp"

namespace irf::import {

/// A cell read as a number: a value, absent ("n/a", "", "-"), or not a number.
struct CellValue {
    enum class Status { number, absent, bad } status = Status::bad;
    double value = 0;
};

/// Parses "4,621,492", "1.5e3", "-2" (thousands separators in groups of three only); "n/a",
/// "N/A", "-" and "" are absent; anything else ("0x10", "inf", "nan", or a value beyond double
/// range) is bad.
[[nodiscard]] CellValue parse_cell(std::string_view text);

/// The factor from `unit` to the base unit of `kind` (ns, bytes, Hz, or a plain count): 1e3
/// for "usecond"/"us"/"Kbyte"/"Kinst", 1e9 for "Ghz" and "cycle/nsecond", 1 for a percent's "%";
/// nullopt for a unit that does not measure `kind`, or that irf does not know (docs/import.md,
/// "Units"). An empty unit is the base unit.
[[nodiscard]] std::optional<double> unit_factor(config::ForeignKind kind, std::string_view unit);

/// "(256, 1, 1)", "[256,1,1]" or "256" (a 1-D size) as three dimensions; nullopt otherwise.
[[nodiscard]] std::optional<std::array<std::uint32_t, 3>> parse_dim3(std::string_view text);

} // namespace irf::import

// SPDX-License-Identifier: Apache-2.0
// A launch's duration from elapsed cycles over their rate, where an ncu export has no
// gpu__time_duration (NERSC's roofline metric list; docs/import.md, "Time").
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "tools/import/imported.hpp"

namespace irf::import {

/// Keeps {sm,smsp,gpc}__cycles_elapsed.{avg,max} and their .avg.per_second of a row in
/// `launch`; true when the row was a count of cycles (no canonical counter holds it). A rate row
/// also goes on to clock_hz: false.
bool elapsed_cycles_row(LaunchRead& launch, const std::string& name, const std::string& unit,
                        const std::string& value);

/// The duration in ns from the cycles and rates kept, and the names it came from; nullopt when
/// no pair fits.
[[nodiscard]] std::optional<std::pair<double, std::string>>
time_from_cycles(const LaunchRead& launch);

} // namespace irf::import

// SPDX-License-Identifier: Apache-2.0
// `irf-report metrics --ncu`: the ncu command lines that collect exactly irf's metric sets, so a
// run collected with Nsight Compute imports with every counter libirf would have (docs/import.md).
#pragma once

#include <string>

#include "config/metric_sets.hpp"

namespace irf::report {

/// The ncu invocation (`--csv --print-units base --metrics LIST`) for irf's default set of
/// `family`, one for each optional group, and the import line; `chip` names it in comments.
[[nodiscard]] std::string ncu_command_lines(config::ChipFamily family, const std::string& chip);

} // namespace irf::report

// SPDX-License-Identifier: Apache-2.0
// Per-SM residency limits by compute capability (docs/ceilings.md, "SM limits").
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/ceilings.hpp"

namespace irf::config {

/// The SM limits of compute capability `cc` ("9.0"), or nullopt for one not in the table.
[[nodiscard]] std::optional<SmLimits> sm_limits_for_cc(const std::string& cc);

/// The integer keys of gpu.sm_limits (YAML order) and the SmLimits member each one sets; the
/// mapping also has a string `source`.
[[nodiscard]] const std::vector<std::pair<std::string, int SmLimits::*>>& sm_limit_fields();

} // namespace irf::config

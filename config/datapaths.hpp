// SPDX-License-Identifier: Apache-2.0
// The ceilings file's datapaths, clocks and latency blocks (issue 54; docs/ceilings.md,
// "Datapaths", "Sustained clocks", "Latency floor"): the checks across them.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "config/ceilings.hpp"

namespace irf::config {

/// Keys allowed under ceilings.clocks: sustained, sustained_low, sustained_high.
[[nodiscard]] const std::vector<std::string>& clock_keys();

/// Checks across the datapaths and clocks blocks; `fail(key, problem)` throws.
void validate_generations(const Ceilings& ceilings,
                          const std::function<void(const std::string&, const std::string&)>& fail);

} // namespace irf::config

// SPDX-License-Identifier: Apache-2.0
// Nsight Compute reports (.ncu-rep) are read through ncu's own exporter, never parsed by irf.
#pragma once

#include <string>

#include "tools/import/imported.hpp"

namespace irf::import {

/// True when `path` names an Nsight Compute report (.ncu-rep).
[[nodiscard]] bool is_ncu_report(const std::string& path);

/// Runs `ncu --import=PATH --csv --page raw` (the first regular executable ncu in PATH, no
/// shell) and reads its output as it comes. Throws ImportError saying how to export the report
/// when ncu is not on PATH, fails, or runs longer than `limit_s` seconds (then it is killed).
[[nodiscard]] ImportedFile read_ncu_report(const std::string& path, double limit_s);

} // namespace irf::import

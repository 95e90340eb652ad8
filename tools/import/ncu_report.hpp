// SPDX-License-Identifier: Apache-2.0
// Nsight Compute reports (.ncu-rep) are read through ncu's own exporter, never parsed by irf.
#pragma once

#include <string>

#include "tools/import/imported.hpp"

namespace irf::import {

/// True when `path` names an Nsight Compute report (.ncu-rep).
[[nodiscard]] bool is_ncu_report(const std::string& path);

/// Runs `ncu --import PATH --csv --page raw` (ncu from PATH, no shell) and reads its output.
/// Throws ImportError saying how to export the report when ncu is not on PATH or fails.
[[nodiscard]] ImportedFile read_ncu_report(const std::string& path);

} // namespace irf::import

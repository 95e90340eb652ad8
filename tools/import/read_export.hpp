// SPDX-License-Identifier: Apache-2.0
// Reading one ncu or nvprof export, whichever of the supported tables it holds (docs/import.md).
#pragma once

#include <istream>
#include <string>

#include "tools/import/imported.hpp"

namespace irf::import {

/// Reads every table irf knows in `in` (program output and profiler log lines around them are
/// skipped); `path` names the file in errors. Throws ImportError (file, line, column) for bad
/// input, or when no table irf reads is found.
[[nodiscard]] ImportedFile read_export(std::istream& in, const std::string& path);

/// Reads the file at `path`: a CSV export, or an .ncu-rep report exported through `ncu --import
/// R --csv --page raw` when ncu is on PATH (ImportError saying how to export it otherwise),
/// given at most `ncu_limit_s` seconds. Refuses what is not a regular file.
[[nodiscard]] ImportedFile read_export_file(const std::string& path, double ncu_limit_s = 1800);

} // namespace irf::import

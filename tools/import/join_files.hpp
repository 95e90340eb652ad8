// SPDX-License-Identifier: Apache-2.0
// Several exports of one application (counters split over runs, a separate timing run) joined
// kernel by kernel into one irf.profile/v1 profile (docs/import.md, "Several files").
#pragma once

#include <vector>

#include "model/profile/profile.hpp"
#include "tools/import/imported.hpp"

namespace irf::import {

/// Relative difference within which two files' per-launch values of one counter agree. Replayed
/// counters of one kernel and input repeat to well within it; a different input does not.
inline constexpr double k_agreement = 0.01;

/// Joins `files` (command-line order) by kernel name and launch configuration, or by name alone
/// where one file has no launch columns and the name is unique. Counters are compared per
/// launch: values further apart than k_agreement are an ImportError naming both files. Durations
/// and clocks are measurements of each run: the first file that has them gives them. The
/// profile is not analysed; its `import` record names the files.
[[nodiscard]] model::Profile join_files(const std::vector<ImportedFile>& files);

} // namespace irf::import

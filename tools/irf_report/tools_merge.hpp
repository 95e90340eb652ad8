// SPDX-License-Identifier: Apache-2.0
// irf-report merge: rank profiles of one job -> one job profile with per-rank statistics.
#pragma once

#include <string>
#include <vector>

#include "model/profile.hpp"

namespace irf::report {

/// Merges rank profiles (one per input path) into one job profile. Kernels are matched by name
/// and launch configuration: launches and time are summed, counters and analysis are taken from
/// the slowest rank; each kernel and NVTX region gets its per-rank statistics (`ranks`), the
/// profile its `job` record (docs/output-schema.md). Identical warnings of several ranks are
/// kept once, naming the ranks. Throws InputError on duplicate ranks, and on mixed GPUs,
/// ceilings or irf versions unless `allow_mixed` (then each difference becomes a warning).
[[nodiscard]] model::Profile merge_profiles(const std::vector<model::Profile>& ranks,
                                            const std::vector<std::string>& files,
                                            bool allow_mixed);

} // namespace irf::report

// SPDX-License-Identifier: Apache-2.0
// irf-report merge's reading of its files: each input read lean, a few at once, then only the
// kernels whose counters and analysis the job keeps read again (docs/performance.md,
// "irf-report merge").
#pragma once

#include <string>
#include <vector>

#include "model/profile/profile.hpp"

namespace irf::report {

/// How merge_files reads and what it may use.
struct MergeRun {
    bool allow_mixed = false; ///< JobMerge's allow_mixed
    unsigned jobs = 1;        ///< inputs read at once
    double max_memory_gb = 2; ///< refuse a merge that would need more (the line says what fits)
};

/// The job profile of `files` (rank profiles or job profiles merged before): each read without
/// counters and analysis, then the slowest rank's kernels read again in full; equal to
/// merge_profiles of the files read in full. Throws InputError on bad input, and before the
/// estimated memory exceeds run.max_memory_gb.
[[nodiscard]] model::Profile merge_files(const std::vector<std::string>& files,
                                         const MergeRun& run);

} // namespace irf::report

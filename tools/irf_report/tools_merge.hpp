// SPDX-License-Identifier: Apache-2.0
// irf-report merge: rank profiles of one job -> one job profile with per-rank statistics.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/profile.hpp"

namespace irf::report {

/// One rank's share of a kernel.
struct RankTime {
    int rank = 0;
    std::uint64_t launches = 0;
    double time_ns = 0; ///< total over the rank's launches
};

/// A kernel's time across the ranks of a job; a rank that never ran it counts as 0 ns.
struct RankStats {
    std::size_t ranks_present = 0; ///< ranks that ran the kernel
    double min = 0, median = 0, max = 0, mean = 0;
    std::optional<double> imbalance; ///< max / mean; absent when the mean is 0
    int slowest_rank = 0;            ///< the rank whose time decides the job's (projected) time
    std::vector<RankTime> per_rank;  ///< every rank of the job, in rank order
};

/// Statistics over `ranks` (all ranks of the job, in any order; absent ones with 0 time).
[[nodiscard]] RankStats rank_stats(std::vector<RankTime> ranks);

/// A merged job: the job profile, and the statistics of each of its kernels (same order).
struct MergedJob {
    model::Profile job;
    std::vector<RankStats> stats;
    std::vector<int> ranks;         ///< rank of each input, in input order
    std::vector<std::string> files; ///< the inputs
    std::vector<std::string> hosts; ///< distinct hosts of the inputs, sorted
};

/// Merges rank profiles (one per input path). Kernels are matched by name and launch
/// configuration: launches and time are summed, counters and analysis are taken from the
/// slowest rank. Throws InputError on duplicate ranks, and on mixed GPUs, ceilings or irf
/// versions unless `allow_mixed` (then each difference becomes a warning in the job profile).
[[nodiscard]] MergedJob merge_profiles(const std::vector<model::Profile>& ranks,
                                       const std::vector<std::string>& files, bool allow_mixed);

/// The job profile as irf.profile/v1 JSON plus the additive keys `job` (top level) and
/// `ranks` (per kernel), documented in docs/tools.md.
[[nodiscard]] nlohmann::json merged_to_json(const MergedJob& merged);

} // namespace irf::report

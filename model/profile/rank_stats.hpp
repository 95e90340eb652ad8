// SPDX-License-Identifier: Apache-2.0
// Per-rank statistics of a merged job profile (irf-report merge; keys: docs/output-schema.md
// "Merged job profiles"): how a kernel's or a region's launches and time spread over the ranks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/profile/json_reader.hpp"

namespace irf::model {

/// One rank's share of a kernel or region; a rank that never ran it has 0 launches and 0 ns.
struct RankShare {
    int rank = 0;
    std::uint64_t launches = 0;
    double time_ns = 0; ///< total over the rank's launches
};

/// Minimum, median, mean and maximum of one quantity over the ranks, and the rank of the maximum
/// (the lowest rank on a tie).
struct RankSpread {
    double min = 0, median = 0, mean = 0, max = 0;
    int max_rank = 0;
};

/// How a kernel or region spreads over the ranks of a job.
struct RankStats {
    std::size_t present = 0;         ///< ranks that ran it at least once
    RankSpread launches;             ///< launches per rank
    RankSpread time_ns;              ///< time per rank; time_ns.max_rank is the slowest rank
    std::optional<double> imbalance; ///< time max / mean (1 = balanced); absent when the mean is 0
    std::vector<RankShare> per_rank; ///< every rank of the job, in rank order
};

/// The statistics of `shares` (every rank of the job once, in any order; absent ranks with 0).
[[nodiscard]] RankStats rank_stats(std::vector<RankShare> shares);

/// The `ranks` object of a kernel or region.
[[nodiscard]] nlohmann::json rank_stats_to_json(const RankStats& stats);

/// Reads a `ranks` object; the spreads are recomputed from `per_rank`, so they always agree.
[[nodiscard]] RankStats rank_stats_from_json(const JsonNode& node);

/// The top-level `job` record of a merged profile: its ranks, input files and hosts.
struct JobInfo {
    std::vector<int> ranks;         ///< rank of each input, in input order
    std::vector<std::string> files; ///< the inputs
    std::vector<std::string> hosts; ///< distinct hosts of the inputs, sorted
};

} // namespace irf::model

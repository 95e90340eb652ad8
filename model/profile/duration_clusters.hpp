// SPDX-License-Identifier: Apache-2.0
// Duration clusters of one kernel's launches: one (name, launch configuration) key can run
// several problem shapes (a GEMM's grid does not encode K), so one sample may stand for a shape
// that holds little of the kernel's time (docs/configuration.md, IRF_SAMPLES).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "model/profile/profile.hpp"

namespace irf::model {

/// Launches within this ratio of each other (max/min) form one cluster.
inline constexpr double k_cluster_ratio = 1.5;
/// Clusters kept per kernel; a duration beyond them joins the nearest.
inline constexpr std::size_t k_max_clusters = 4;

/// Adds one duration (`profiled`: its counters are in the kernel's) to the clusters, kept sorted
/// by duration; returns the index of the cluster it joined.
std::size_t add_to_clusters(std::vector<DurationCluster>& clusters, double ns, bool profiled);

/// Share of the clustered time in clusters holding a profiled launch (0..1); none without
/// clusters or time.
[[nodiscard]] std::optional<double> sampled_time_share(const std::vector<DurationCluster>& c);

} // namespace irf::model

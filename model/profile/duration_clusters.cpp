// SPDX-License-Identifier: Apache-2.0
// Duration clusters (model/profile/duration_clusters.hpp).
#include "model/profile/duration_clusters.hpp"

#include <algorithm>
#include <cmath>

namespace irf::model {
namespace {

/// How far `ns` lies from a cluster, as a ratio >= 1 (1 = inside its span).
double distance(const DurationCluster& c, double ns) {
    if (ns < c.min_ns) {
        return c.min_ns / ns;
    }
    return ns > c.max_ns ? ns / c.max_ns : 1.0;
}

/// True when the cluster's span with `ns` added stays within k_cluster_ratio.
bool fits(const DurationCluster& c, double ns) {
    return std::max(c.max_ns, ns) <= k_cluster_ratio * std::min(c.min_ns, ns);
}

} // namespace

std::size_t add_to_clusters(std::vector<DurationCluster>& clusters, double ns, bool profiled) {
    ns = std::max(ns, 1.0); // a ratio needs a positive duration
    std::size_t best = clusters.size();
    for (std::size_t i = 0; i < clusters.size(); ++i) {
        const bool better =
            best == clusters.size() || distance(clusters[i], ns) < distance(clusters[best], ns);
        if ((fits(clusters[i], ns) || clusters.size() >= k_max_clusters) && better) {
            best = i;
        }
    }
    if (best == clusters.size()) {
        const auto at = std::find_if(clusters.begin(), clusters.end(),
                                     [ns](const DurationCluster& c) { return c.min_ns > ns; });
        best = static_cast<std::size_t>(at - clusters.begin());
        clusters.insert(at, DurationCluster{ns, ns, 0, 0, 0});
    }
    DurationCluster& c = clusters[best];
    c.min_ns = std::min(c.min_ns, ns);
    c.max_ns = std::max(c.max_ns, ns);
    c.time_ns += ns;
    ++c.launches;
    c.profiled += profiled ? 1 : 0;
    return best;
}

std::optional<double> sampled_time_share(const std::vector<DurationCluster>& clusters) {
    double all = 0, sampled = 0;
    for (const DurationCluster& c : clusters) {
        all += c.time_ns;
        sampled += c.profiled > 0 ? c.time_ns : 0;
    }
    if (clusters.empty() || !(all > 0)) {
        return std::nullopt;
    }
    return sampled / all;
}

} // namespace irf::model

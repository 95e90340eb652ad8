// SPDX-License-Identifier: Apache-2.0
// Duration clusters (model/profile/duration_clusters.hpp): spans within 1.5x, at most four, and the
// share of time in clusters holding a sample.
#include <gtest/gtest.h>

#include "model/profile/duration_clusters.hpp"

namespace irf::model {
namespace test_duration_clusters {
namespace {

TEST(DurationClusters, LaunchesWithinOneAndAHalfShareACluster) {
    std::vector<DurationCluster> c;
    EXPECT_EQ(add_to_clusters(c, 100, true), 0u);
    EXPECT_EQ(add_to_clusters(c, 140, false), 0u); // 140 / 100 = 1.4 <= 1.5
    EXPECT_EQ(add_to_clusters(c, 160, false), 1u); // 160 / 100 = 1.6: a cluster of its own
    EXPECT_EQ(add_to_clusters(c, 50, false), 0u);  // sorted: 50 goes first
    ASSERT_EQ(c.size(), 3u);
    EXPECT_DOUBLE_EQ(c[1].min_ns, 100);
    EXPECT_DOUBLE_EQ(c[1].max_ns, 140);
    EXPECT_DOUBLE_EQ(c[1].time_ns, 240);
    EXPECT_EQ(c[1].launches, 2u);
    EXPECT_EQ(c[1].profiled, 1u);
    // Sampled share: 240 of 50 + 240 + 160 = 450 ns -> 0.5333.
    EXPECT_NEAR(*sampled_time_share(c), 240.0 / 450.0, 1e-12);
}

TEST(DurationClusters, BeyondFourClustersAJoinTheNearest) {
    std::vector<DurationCluster> c;
    for (double ns : {100.0, 1000.0, 10000.0, 100000.0}) {
        add_to_clusters(c, ns, false);
    }
    EXPECT_EQ(add_to_clusters(c, 3000, false), 1u); // 1000 x 3 is nearer than 10000 / 3.33
    EXPECT_EQ(c.size(), k_max_clusters);
    EXPECT_DOUBLE_EQ(c[1].max_ns, 3000);
    EXPECT_DOUBLE_EQ(*sampled_time_share(c), 0.0); // nothing sampled
    EXPECT_FALSE(sampled_time_share({}).has_value());
}

} // namespace
} // namespace test_duration_clusters
} // namespace irf::model

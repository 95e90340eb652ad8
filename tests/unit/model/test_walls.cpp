// SPDX-License-Identifier: Apache-2.0
// Memory walls and predication (docs/model.md: IRM 3.1-3.2) against hand-computed values.
#include <gtest/gtest.h>

#include "model/predication.hpp"
#include "model/walls.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace {

TEST(ModelWalls, PatternAtEachWall) {
    EXPECT_EQ(global_pattern(1.0), "stride-0");      // one sector per warp instruction
    EXPECT_EQ(global_pattern(1.0 / 4), "unit-fp32"); // 32 x 4 B = 4 sectors
    EXPECT_EQ(global_pattern(1.0 / 8), "unit-fp64"); // 32 x 8 B = 8 sectors
    EXPECT_EQ(global_pattern(1.0 / 32), "gather");   // one sector per thread
}

TEST(ModelWalls, PatternBetweenAndBeyondWalls) {
    EXPECT_EQ(global_pattern(2.0), "stride-0"); // broadcast beyond the wall
    EXPECT_EQ(global_pattern(1.0 / 16), "strided");
    EXPECT_EQ(global_pattern(0.5), "strided");
    EXPECT_EQ(global_pattern(1.0 / 64), "gather");
    EXPECT_EQ(global_pattern(0.27), "unit-fp32"); // within 2^(1/4) of 1/4
}

TEST(ModelWalls, GlobalWallFromCounters) {
    Counters c = test::zero_counters();
    c["inst_global_ld"] = 300;
    c["inst_global_st"] = 100;
    c["sectors_global_ld"] = 1200;
    c["sectors_global_st"] = 400;
    std::vector<std::string> missing;
    const auto w = global_wall(c, missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(w->intensity, 0.25); // (300 + 100) / (1200 + 400)
    EXPECT_EQ(w->pattern, "unit-fp32");
}

TEST(ModelWalls, GlobalWallAbsentWithoutGlobalAccess) {
    Counters c = test::zero_counters();
    std::vector<std::string> missing;
    EXPECT_FALSE(global_wall(c, missing).has_value());
    EXPECT_EQ(missing.at(0), "walls.global: no global load/store instructions or sectors");
    c.erase("sectors_global_st");
    missing.clear();
    EXPECT_FALSE(global_wall(c, missing).has_value());
    EXPECT_EQ(missing.at(0), "walls.global: counters absent: sectors_global_st");
}

TEST(ModelWalls, SharedThirtyTwoWayConflict) {
    Counters c = test::zero_counters();
    c["inst_shared_ld"] = 10;
    c["wavefronts_shared_ld"] = 320; // every access serialised over 32 wavefronts
    std::vector<std::string> missing;
    const auto w = shared_wall(c, missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(w->intensity, 1.0 / 32); // 10 / 320
    EXPECT_DOUBLE_EQ(w->conflict_ways, 32);
}

TEST(ModelWalls, SharedConflictFree) {
    Counters c = test::zero_counters();
    c["inst_shared_ld"] = 8;
    c["inst_shared_st"] = 2;
    c["wavefronts_shared_ld"] = 8;
    c["wavefronts_shared_st"] = 2;
    std::vector<std::string> missing;
    const auto w = shared_wall(c, missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(w->intensity, 1); // 10 / 10
    EXPECT_DOUBLE_EQ(w->conflict_ways, 1);
    EXPECT_DOUBLE_EQ(conflict_ways(0.25), 4); // 4 wavefronts per instruction
}

TEST(ModelWalls, HalfPredicatedKernel) {
    Counters c = test::zero_counters();
    c["inst_warp"] = 100;
    c["inst_thread"] = 1600; // 16 of 32 threads active on average
    std::vector<std::string> missing;
    EXPECT_DOUBLE_EQ(*predication(c, missing), 0.5); // 1600 / (32 x 100)
}

TEST(ModelWalls, PredicationAbsentOrInconsistent) {
    Counters c = test::zero_counters();
    std::vector<std::string> missing;
    EXPECT_FALSE(predication(c, missing).has_value()); // 0 / 0
    c["inst_warp"] = 1;
    c["inst_thread"] = 64; // more than 32 threads per warp instruction
    EXPECT_FALSE(predication(c, missing).has_value());
    c.erase("inst_thread");
    EXPECT_FALSE(predication(c, missing).has_value());
    ASSERT_EQ(missing.size(), 3u);
    EXPECT_EQ(missing[2], "predication: counters absent: inst_thread");
}

} // namespace
} // namespace irf::model

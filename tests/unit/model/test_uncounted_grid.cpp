// SPDX-License-Identifier: Apache-2.0
// Grids whose waves are not counted (docs/model.md, "Waves"): a grid that was not recorded is
// read as one wave from the source's measured SM activity when that is at most one half. Values
// worked out on the seed papers' V100 (tests/unit/model/model_fixtures.hpp).
#include <gtest/gtest.h>

#include "model/analyze.hpp"
#include "model/projection/projection.hpp"
#include "model/projection/uncounted_grid.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_uncounted_grid {
namespace {

// No grid recorded (an nvprof metrics export), `active` the summed SM activity of `profiled`
// launches. 1e6 warp instructions: issue 1e6 / 489.6 = 2042.5 ns at the V100's full issue
// rate; 1e5 L2 and DRAM sectors (3864.7 ns of HBM, 1068.1 of L2); 1e5 ns a launch.
KernelRecord no_grid(double active, std::uint64_t profiled = 1) {
    KernelRecord k = test::kernel_record(1e5 * static_cast<double>(profiled), 0);
    k.launches = profiled;
    k.profiled_launches = profiled;
    k.counters["inst_warp"] = 1e6;
    k.counters["l2_sectors_read"] = 1e5;
    k.counters["dram_sectors_read"] = 1e5;
    k.counters["sm_active_share"] = active;
    return k;
}

// The V100 with `sms` SMs (the per-SM rates kept: 4 schedulers x 1.53 GHz each).
config::Ceilings with_sms(int sms, const char* key) {
    config::Ceilings c = test::v100();
    c.gpu.key = key;
    c.gpu.sms = sms;
    return c;
}

TEST(ModelUncountedGrid, AtMostHalfActiveIsOneWaveOfThatManyBlocks) {
    // 10% of 80 SMs = 8 blocks: fill 0.1 here, 8 / 40 = 0.2 on 40 SMs, 1 on 6.
    const auto onto40 = activity_fills(no_grid(0.1), 80, 40);
    ASSERT_TRUE(onto40.has_value());
    EXPECT_DOUBLE_EQ(onto40->first, 0.1);
    EXPECT_DOUBLE_EQ(onto40->second, 0.2);
    EXPECT_DOUBLE_EQ(activity_fills(no_grid(0.1), 80, 6)->second, 1.0);
    // Summed over 4 profiled launches: 0.4 / 4 = 0.1 a launch.
    EXPECT_DOUBLE_EQ(activity_fills(no_grid(0.4, 4), 80, 40)->first, 0.1);
}

TEST(ModelUncountedGrid, OverHalfActiveOrARecordedGridIsNotReadThisWay) {
    // Two waves keep every SM busy through the first: (80 + tail) / 160 > 0.5.
    EXPECT_FALSE(activity_fills(no_grid(0.6), 80, 40).has_value());
    EXPECT_TRUE(activity_fills(no_grid(0.5), 80, 40).has_value());
    KernelRecord recorded = no_grid(0.1);
    recorded.launch.grid = {8, 1, 1};
    EXPECT_FALSE(activity_fills(recorded, 80, 40).has_value());
    KernelRecord without = no_grid(0.1);
    without.counters.erase("sm_active_share");
    EXPECT_FALSE(activity_fills(without, 80, 40).has_value());
}

TEST(ModelUncountedGrid, TheIssueTimeFollowsTheBusySms) {
    // 8 blocks busy on 80 SMs: issue 2042.5 / 0.1 = 20,425 ns here. Onto 16 SMs of the same
    // rates, the 8 blocks fill half of them: 1e6 / (489.6 x 16 / 80) / 0.5 = 20,425 ns, so the
    // point stays 1e5 ns (the SM count ratio alone said 5x slower, 5e5).
    const KernelAnalysis a =
        analyze_kernel(no_grid(0.1), with_sms(80, "v100"), {with_sms(16, "small")});
    ASSERT_EQ(a.projection.size(), 1u);
    const Projection& p = a.projection.front();
    EXPECT_EQ(p.bound_source, "issue");
    EXPECT_NEAR(p.time_point_ns, 1e5, 1e-6);
    EXPECT_EQ(p.confidence, "low");
    EXPECT_TRUE(test::has_note(p, "waves from SM activity: no grid recorded, and the source's "
                                  "SMs held a warp 10.0% of the time"));
    EXPECT_TRUE(test::has_note(p, "about 8.0 blocks, each resident throughout; issue, FLOP and "
                                  "L1 times divided by the fill, 0.100 on the source's 80 SMs "
                                  "and 0.500 on the target's 16"));
}

// 1e7 warp instructions instead: issue 1e7 / 489.6 = 20,424.8 ns at the V100's full rate, over
// its 3864.7 ns of HBM.
KernelRecord issue_heavy_no_grid(double active) {
    KernelRecord k = no_grid(active);
    k.counters["inst_warp"] = 1e7;
    return k;
}

Projection one_onto(const KernelRecord& k, int target_sms) {
    const KernelAnalysis a =
        analyze_kernel(k, with_sms(80, "v100"), {with_sms(target_sms, "other")});
    EXPECT_EQ(a.projection.size(), 1u);
    return a.projection.empty() ? Projection{} : a.projection.front();
}

TEST(ModelUncountedGrid, OverHalfActiveTheIntervalHoldsTheOneWaveReading) {
    // 90% active on 80 SMs: many waves (the point) or one wave of 72 blocks. Onto 160 SMs the
    // point halves the issue time, 1e5 x 10,212.4 / 20,424.8 = 5e4 ns; as one wave the 72 blocks
    // fill 0.45 of 160 SMs and 0.9 of 80: 1e5 x (10,212.4 / 0.45) / (20,424.8 / 0.9) = 1e5 ns.
    const Projection p = one_onto(issue_heavy_no_grid(0.9), 160);
    EXPECT_NEAR(p.time_point_ns, 5e4, 1e-6);
    EXPECT_NEAR(p.time_high_ns, 1e5, 1e-6);
    EXPECT_TRUE(test::has_note(p, "grid not recorded: the source's SMs held a warp 90.0% of the "
                                  "time"));
    EXPECT_TRUE(test::has_note(p, "about 72.0 blocks"));
    // Onto 16 SMs the 72 blocks fill them all (fill 1): 1e5 x 102,124.2 / 22,694.2 = 4.5e5 ns,
    // under the point's 5e5.
    const Projection q = one_onto(issue_heavy_no_grid(0.9), 16);
    EXPECT_NEAR(q.time_point_ns, 5e5, 1e-6);
    EXPECT_NEAR(q.time_low_ns, 4.5e5, 1e-6);
}

TEST(ModelUncountedGrid, WithoutTheActivityOrWithAGridNothingIsRead) {
    KernelRecord without = issue_heavy_no_grid(0.9);
    without.counters.erase("sm_active_share");
    EXPECT_FALSE(test::has_note(one_onto(without, 160), "grid not recorded"));
    KernelRecord recorded = issue_heavy_no_grid(0.9);
    recorded.launch.grid = {72, 1, 1};
    EXPECT_FALSE(test::has_note(one_onto(recorded, 160), "grid not recorded"));
}

} // namespace
} // namespace test_uncounted_grid
} // namespace irf::model

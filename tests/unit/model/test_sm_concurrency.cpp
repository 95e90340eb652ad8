// SPDX-License-Identifier: Apache-2.0
// SM concurrency (docs/model.md, "SM concurrency"): a grid of one or two waves whose busiest SM
// keeps its L1 under 80% of its ceiling runs at its blocks' chains of latencies, a wave at a
// time, so it is projected by the waves' and the SM clocks' ratios (at least the target's
// busiest resource at its ceiling), not by the L1 ratio over the waves' fill. Values worked out on
// the seed papers' V100 (model_fixtures.hpp).
#include <gtest/gtest.h>

#include "model/analyze.hpp"
#include "model/projection/memory_concurrency.hpp"
#include "model/projection/projection.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_sm_concurrency {
namespace {

// 16 blocks of 256 threads: one wave on 80 SMs, one block on the busiest SM, fill 16 / 80 = 0.2.
// L1: 5e7 sectors = 1.6e9 B / 14000 GB/s / 0.2 = 571,428.6 ns; issue 1e6 / 489.6 / 0.2 =
// 10,212.5 ns; L2 and DRAM 1e5 sectors = 3.2e6 B (3864.7 ns at 828 GB/s). At 1e6 ns a launch the
// busiest SM's L1 is 57.1% of it.
KernelRecord l1_kernel(double time_ns) {
    return test::grid_kernel(time_ns, 16, 256,
                             {{"inst_warp", 1e6},
                              {"sectors_global_ld", 5e7},
                              {"l2_sectors_read", 1e5},
                              {"dram_sectors_read", 1e5}});
}

config::Ceilings gpu(int sms, double l1_gbs, double clock_mhz) {
    config::Ceilings c = test::v100_with_limits("t", clock_mhz);
    c.gpu.sms = sms;
    c.l1_gbs->value = l1_gbs;
    return c;
}

Projection onto(const KernelRecord& k, const config::Ceilings& t) {
    config::Ceilings s = gpu(80, 14000, 1530);
    s.gpu.key = "v100";
    const KernelAnalysis a = analyze_kernel(k, s, {t});
    EXPECT_EQ(a.projection.size(), 1u);
    return a.projection.empty() ? Projection{} : a.projection.front();
}

TEST(ModelSmConcurrency, AnUnsaturatedOneWaveGridFollowsTheSmClock) {
    // Twice the SMs and L1: fill 16 / 160 = 0.1, so the L1 ratio said 1.6e9 / 28000 / 0.1 =
    // 571,428.6 ns, the source's time. The blocks' latencies run at the clock: 1e6 x 1530 / 2040
    // = 750,000 ns.
    const Projection p = onto(l1_kernel(1e6), gpu(160, 28000, 2040));
    EXPECT_EQ(p.point_method, "sm-concurrency");
    EXPECT_NEAR(p.time_point_ns, 750000, 1e-6);
    EXPECT_GE(p.time_high_ns, 1e6 - 1e-6); // the L1 ratio's point stays inside
    EXPECT_TRUE(test::has_note(p, "busiest SM's L1 at 57.1% of its ceiling"));
    EXPECT_TRUE(test::has_note(p, "the SM clocks 1530 / 2040 MHz"));
}

TEST(ModelSmConcurrency, TheTargetsBusiestResourceBoundsIt) {
    // Half the L1 on as many SMs: 1.6e9 / 7000 / 0.2 = 1,142,857.1 ns a launch at its ceiling,
    // more than the clock's 750,000 ns.
    const Projection p = onto(l1_kernel(1e6), gpu(80, 7000, 2040));
    EXPECT_EQ(p.point_method, "sm-concurrency");
    EXPECT_NEAR(p.time_point_ns, 1.6e9 / 7000 / 0.2, 1e-3);
}

TEST(ModelSmConcurrency, ASaturatedL1OrManyWavesKeepTheRatio) {
    const config::Ceilings t = gpu(160, 28000, 2040);
    // 571,428.6 / 7e5 = 81.6% of the launch: at its ceiling, the L1 ratio stays.
    EXPECT_EQ(onto(l1_kernel(7e5), t).point_method, "binding-resource");
    // 2000 blocks, 8 an SM (2048 / 256 threads): 4 waves on 80 SMs, more than 2.
    KernelRecord waves = l1_kernel(1e6);
    waves.launch.grid = {2000, 1, 1};
    EXPECT_NE(onto(waves, t).point_method, "sm-concurrency");
}

TEST(ModelSmConcurrency, TwoWavesOntoOneHalveTheLatencyTime) {
    // 1000 blocks, 8 an SM: 2 waves on 80 SMs (640 + 360; the busiest SM runs 13, fill 1000 /
    // 1040, L1 1.6e9 / 14000 / 0.9615 = 118,857.1 ns, 11.9% of the launch), 1 wave on 160 SMs
    // (the busiest runs 7): each wave takes its blocks' latencies, so t = 1e6 x 1 / 2 x 1530 /
    // 2040 = 375,000 ns (the L1 at its ceiling there: 1.6e9 / 28000 / (1000 / 1120) = 64,000 ns).
    KernelRecord two = l1_kernel(1e6);
    two.launch.grid = {1000, 1, 1};
    const Projection p = onto(two, gpu(160, 28000, 2040));
    EXPECT_EQ(p.point_method, "sm-concurrency");
    EXPECT_NEAR(p.time_point_ns, 375000, 1e-6);
    EXPECT_TRUE(test::has_note(p, "2 wave(s) on the source, 1 on the target"));
}

TEST(ModelSmConcurrency, KeplerToMaxwellShortensTheChainsByTheLatencies) {
    // The same grid from cc 3.5 (9 cycles a dependent issue) onto cc 5.2 (6 cycles), the target's
    // L1 four times the source's so that it does not bind (1.6e9 / 56000 / 0.1 = 285,714.3 ns):
    // t = 1e6 x 1530 / 2040 x 6 / 9 = 500,000 ns.
    config::Ceilings s = gpu(80, 14000, 1530);
    s.gpu.key = "kepler";
    s.gpu.cc = "3.5";
    config::Ceilings t = gpu(160, 56000, 2040);
    t.gpu.cc = "5.2";
    const KernelAnalysis a = analyze_kernel(l1_kernel(1e6), s, {t});
    ASSERT_EQ(a.projection.size(), 1u);
    const Projection& p = a.projection.front();
    EXPECT_EQ(p.point_method, "sm-concurrency");
    EXPECT_NEAR(p.time_point_ns, 500000, 1e-6);
    EXPECT_TRUE(test::has_note(p, "x the dependent-issue latencies 6 / 9 cycles"));
    // One generation (both cc 7.0): the clocks alone, as above, and no latency in the note.
    const Projection same = onto(l1_kernel(1e6), gpu(160, 56000, 2040));
    EXPECT_NEAR(same.time_point_ns, 750000, 1e-6);
    EXPECT_FALSE(test::has_note(same, "dependent-issue latencies"));
}

} // namespace
} // namespace test_sm_concurrency
} // namespace irf::model

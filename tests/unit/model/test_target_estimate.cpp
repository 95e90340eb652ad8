// SPDX-License-Identifier: Apache-2.0
// A ceiling the target's entry lacks (issue 54 item 1; docs/model.md, "A ceiling the target
// lacks"): the L2 bandwidth is estimated by SMs x clock, held between the target's DRAM and L1
// bandwidths, and the interval holds the time at both ends. Values worked out on the seed
// papers' V100 (tests/unit/model/model_fixtures.hpp).
#include <gtest/gtest.h>

#include "model/analyze.hpp"
#include "model/projection/target_estimate.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_target_estimate {
namespace {

// Half a V100 (40 SMs) whose entry has no L2 bandwidth.
config::Ceilings half_v100_without_l2() {
    config::Ceilings t = test::v100();
    t.gpu.key = "v100-half";
    t.gpu.sms = 40;
    t.l2_gbs.reset();
    return t;
}

TEST(ModelTargetEstimate, L2BandwidthScalesBySmsTimesClock) {
    // 2996 GB/s x (40 x 1530) / (80 x 1530) = 1498, between DRAM 828 and L1 14000.
    EXPECT_NEAR(estimated_l2_gbs(test::v100(), half_v100_without_l2()), 1498.0, 1e-9);
    config::Ceilings faster_clock = half_v100_without_l2();
    faster_clock.clocks["sustained"] =
        test::qty(2040, "MHz"); // 2996 x (40 x 2040) / (80 x 1530) = 1997.33
    EXPECT_NEAR(estimated_l2_gbs(test::v100(), faster_clock), 2996.0 * 40 * 2040 / (80 * 1530),
                1e-9);
}

TEST(ModelTargetEstimate, L2EstimateHeldBetweenDramAndL1) {
    config::Ceilings fast_dram = half_v100_without_l2();
    fast_dram.hbm_gbs->value = 2000; // above 1498: an L2 is never slower than its DRAM
    EXPECT_NEAR(estimated_l2_gbs(test::v100(), fast_dram), 2000.0, 1e-9);
    config::Ceilings slow_l1 = half_v100_without_l2();
    slow_l1.l1_gbs->value = 1200; // below 1498: never faster than the SMs' L1
    EXPECT_NEAR(estimated_l2_gbs(test::v100(), slow_l1), 1200.0, 1e-9);
    config::Ceilings no_l2 = test::v100();
    no_l2.l2_gbs.reset();
    EXPECT_EQ(estimated_l2_gbs(no_l2, half_v100_without_l2()), 0.0); // nothing to scale
}

// L2-bound on the V100: 1e7 L2 sectors (3.2e8 B / 2996 = 106809.1 ns) beside 1e6 DRAM sectors
// (3.2e7 B / 828 = 38647.3 ns), 2e6 L1 sectors (6.4e7 B / 14000 = 4571.4 ns), 1e6 warp
// instructions (2042.5 ns); 1e5 ns.
KernelRecord l2_kernel() {
    KernelRecord k = test::kernel_record(1e5, 1000);
    k.counters["inst_warp"] = 1e6;
    k.counters["sectors_global_ld"] = 2e6;
    k.counters["l2_sectors_read"] = 1e7;
    k.counters["dram_sectors_read"] = 1e6;
    return k;
}

TEST(ModelTargetEstimate, ProjectionOntoATargetWithoutL2IsDecidedAndBracketed) {
    const KernelAnalysis a = analyze_kernel(l2_kernel(), test::v100(), {half_v100_without_l2()});
    ASSERT_EQ(a.projection.size(), 1u);
    const Projection& p = a.projection[0];
    // L2 binds on both: t = 1e5 x (3.2e8 / 1498) / (3.2e8 / 2996) = 2e5, no interval mean.
    EXPECT_EQ(p.point_method, "estimated-ceiling");
    EXPECT_EQ(p.bound_target, "l2");
    EXPECT_NEAR(p.time_point_ns, 2e5, 1e-6);
    // At DRAM speed: 1e5 x 2996 / 828 = 361835.7 ns. At L1 speed the L2 takes 3.2e8 / 14000 =
    // 22857.1 ns and DRAM binds: 1e5 x 38647.3 / 106809.1 = 36183.5 ns.
    EXPECT_NEAR(p.time_high_ns, 1e5 * 2996.0 / 828.0, 1e-6);
    EXPECT_NEAR(p.time_low_ns, 1e5 * (3.2e7 / 828.0) / (3.2e8 / 2996.0), 1e-6);
    EXPECT_EQ(p.confidence, "low");
    EXPECT_TRUE(test::has_note(p, "target has no L2 bandwidth: 1498 GB/s estimated"));
}

TEST(ModelTargetEstimate, ATargetWithL2IsNotEstimated) {
    config::Ceilings t = half_v100_without_l2();
    t.l2_gbs = test::v100().l2_gbs;
    const KernelAnalysis a = analyze_kernel(l2_kernel(), test::v100(), {t});
    ASSERT_EQ(a.projection.size(), 1u);
    EXPECT_EQ(a.projection[0].point_method, "binding-resource");
    EXPECT_NEAR(a.projection[0].time_point_ns, 1e5, 1e-6); // same L2 bandwidth, L2 binds
    EXPECT_FALSE(test::has_note(a.projection[0], "target has no L2 bandwidth"));
}

} // namespace
} // namespace test_target_estimate
} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// The SM clock a kernel ran at (docs/model.md, "SM clock"): each SM-side value x min(1, clock /
// the clock it assumes), L2 and HBM kept; a clock under 100 MHz or above 1.1 x the boost is not
// trusted. Below, at and above each clock, worked by hand on the test V100 (boost 1530 MHz).
#include <gtest/gtest.h>

#include "model/roofline/sm_clock.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_sm_clock {
namespace {

// The test V100 with its FP16 tensor peak quoted at 1380 MHz, below the boost (as NVIDIA quotes
// the H100's tensor peaks at 1830 MHz against a 1980 MHz boost: docs/ceilings.md).
config::Ceilings tensor_at_1380() {
    config::Ceilings c = test::v100();
    c.tensor_tflops["fp16"].clock_mhz = 1380;
    return c;
}

TEST(ModelSmClock, BelowItsOwnClockAValueScalesWithTheClock) {
    // Fraction 0.8 = 1224 MHz. Tensor 125 TFLOP/s at 1380 MHz: 125 x 1224 / 1380 = 110.87;
    // values at the boost x 0.8: FP32 15,700 -> 12,560 GFLOP/s, L1 14,000 -> 11,200 GB/s,
    // warp GIPS 80 x 4 x 1.53 = 489.6 -> 391.68. L2 and HBM keep 2996 and 828 GB/s.
    const config::Ceilings c = at_clock_fraction(tensor_at_1380(), 0.8);
    EXPECT_NEAR(c.tensor_tflops.at("fp16").value, 125 * 1224.0 / 1380, 1e-9);
    EXPECT_NEAR(c.tensor_tflops.at("fp16").value, 110.87, 0.01);
    EXPECT_NEAR(c.gflops.at("fp32_fma").value, 12560, 1e-9);
    EXPECT_NEAR(c.l1_gbs->value, 11200, 1e-9);
    EXPECT_NEAR(c.shared_gbs->value, 11200, 1e-9);
    EXPECT_NEAR(c.warp_gips.value, 391.68, 1e-9);
    EXPECT_DOUBLE_EQ(c.l2_gbs->value, 2996);
    EXPECT_DOUBLE_EQ(c.hbm_gbs->value, 828);
}

TEST(ModelSmClock, AtOrAboveItsOwnClockAValueIsNotRaised) {
    // Fraction 1380 / 1530: exactly the tensor peak's clock, 125 stays. Fraction 0.95 = 1453.5
    // MHz, above 1380: min(1, 1453.5 / 1380) = 1, 125 stays (x 1.0533 = 131.66 would raise it),
    // while FP32 at the boost takes 15,700 x 0.95 = 14,915.
    const config::Ceilings at = at_clock_fraction(tensor_at_1380(), 1380.0 / 1530);
    EXPECT_NEAR(at.tensor_tflops.at("fp16").value, 125, 1e-9);
    const config::Ceilings above = at_clock_fraction(tensor_at_1380(), 0.95);
    EXPECT_DOUBLE_EQ(above.tensor_tflops.at("fp16").value, 125);
    EXPECT_NEAR(above.gflops.at("fp32_fma").value, 14915, 1e-9);
}

TEST(ModelSmClock, AtTheBoostNothingChanges) {
    const config::Ceilings c = at_clock_fraction(tensor_at_1380(), 1.0);
    EXPECT_DOUBLE_EQ(c.gflops.at("fp32_fma").value, 15700);
    EXPECT_DOUBLE_EQ(c.tensor_tflops.at("fp16").value, 125);
}

TEST(ModelSmClock, OnlyPlausibleClocksAreTrusted) {
    const config::GpuIdentity gpu = test::v100().gpu;
    const auto fraction = [&gpu](double hz) { return clock_fraction({{"clock_hz", hz}}, gpu); };
    // 1224 MHz: 1224 / 1530 = 0.8.
    ASSERT_TRUE(fraction(1.224e9).has_value());
    EXPECT_NEAR(*fraction(1.224e9), 0.8, 1e-12);
    // 100 MHz is the lowest trusted clock (100 / 1530); 99 MHz is not.
    ASSERT_TRUE(fraction(100e6).has_value());
    EXPECT_NEAR(*fraction(100e6), 100.0 / 1530, 1e-12);
    EXPECT_FALSE(fraction(99e6).has_value());
    // 1.1 x 1530 = 1683 MHz is the highest, at most 1 as a fraction; 1684 MHz is not trusted.
    ASSERT_TRUE(fraction(1683e6).has_value());
    EXPECT_DOUBLE_EQ(*fraction(1683e6), 1.0);
    EXPECT_FALSE(fraction(1684e6).has_value());
    EXPECT_FALSE(clock_fraction({}, gpu).has_value()); // no clock_hz counter
}

} // namespace
} // namespace test_sm_clock
} // namespace irf::model

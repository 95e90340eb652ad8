// SPDX-License-Identifier: Apache-2.0
// Sustained clocks (issue 54 item 3; docs/model.md, "SM clock"): the measured clock on the source,
// the target's sustained clock scaled like it, the spread in the interval, and a profile without
// a clock at its GPU's sustained clock. Every value worked out here.
#include <gtest/gtest.h>

#include "model/analyze.hpp"
#include "model/roofline/sm_clock.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_generations_clock {
namespace {

config::Quantity mhz(double value) {
    config::Quantity q = test::qty(value, "MHz");
    q.provenance = config::Provenance::published;
    return q;
}

// A GeForce-like part: 80 SMs, boost 1700 MHz, sustained 1900 (1800-2000) under load.
config::Ceilings geforce() {
    config::Ceilings c = test::v100();
    c.gpu.key = "geforce";
    c.gpu.boost_clock_mhz = 1700;
    c.clocks["sustained"] = mhz(1900);
    c.clocks["sustained_low"] = mhz(1800);
    c.clocks["sustained_high"] = mhz(2000);
    return c;
}

// A data-centre part at its boost: 1530 MHz, measured down to 1377 under load.
config::Ceilings datacentre() {
    config::Ceilings c = test::v100();
    c.clocks["sustained"] = mhz(1530);
    c.clocks["sustained_low"] = mhz(1377);
    return c;
}

TEST(ModelGenerationsClock, TheTargetRunsAtItsSustainedClockScaledLikeTheSource) {
    // The source ran at 1377 of its sustained 1530 (0.9): the GeForce at 0.9 x 1900 = 1710.
    EXPECT_NEAR(target_clock_mhz(1377, datacentre(), geforce()), 1710, 1e-9);
    // At its sustained clock: the target's own, 1900 (its boost is 1700).
    EXPECT_NEAR(target_clock_mhz(1530, datacentre(), geforce()), 1900, 1e-9);
    // Above it: capped at the target's sustained_high, 2000 (1900 x 1.1 = 2090).
    EXPECT_NEAR(target_clock_mhz(2090, geforce(), geforce()), 2000, 1e-9);
    // No clocks block: the boost stands in on both (1377 / 1530 x 1530).
    EXPECT_NEAR(target_clock_mhz(1377, test::v100(), test::v100()), 1377, 1e-9);
}

TEST(ModelGenerationsClock, AMeasuredClockAboveTheBoostIsTrustedUpToTheSpread) {
    const config::Ceilings c = geforce();
    const auto at = [&c](double hz) { return measured_clock_mhz({{"clock_hz", hz}}, c); };
    EXPECT_NEAR(*at(1.95e9), 1950, 1e-9); // above the 1700 boost, a GeForce under load
    EXPECT_NEAR(*at(2.1e9), 2000, 1e-9);  // over sustained_high: held at 2000
    EXPECT_TRUE(at(2.2e9).has_value());   // 1.1 x 2000 = 2200 is the last trusted
    EXPECT_FALSE(at(2.21e9).has_value());
    // Without a spread the boost is the highest: 1.1 x 1530 = 1683; 1600 reads as 1530.
    EXPECT_NEAR(*measured_clock_mhz({{"clock_hz", 1.6e9}}, test::v100()), 1530, 1e-9);
}

TEST(ModelGenerationsClock, AboveTheBoostValuesRiseExceptThoseQuotedBelowIt) {
    config::Ceilings c = geforce();
    c.l1_gbs->clock_mhz = 1700;
    c.tensor_tflops["fp16"].clock_mhz = 1500; // quoted below the boost: not raised
    const config::Ceilings at = at_clock_fraction(c, 1900.0 / 1700);
    EXPECT_NEAR(at.l1_gbs->value, 14000.0 * 1900 / 1700, 1e-9);
    EXPECT_NEAR(at.gflops.at("fp32_fma").value, 15700.0 * 1900 / 1700, 1e-9);
    EXPECT_DOUBLE_EQ(at.tensor_tflops.at("fp16").value, 125);
    EXPECT_DOUBLE_EQ(at.hbm_gbs->value, 828); // memory keeps its clock
}

TEST(ModelGenerationsClock, AProfileWithoutAClockRunsAtTheSustainedClockAndSaysSo) {
    std::vector<std::string> notes;
    KernelRecord k = test::kernel_record(1e5, 1000);
    k.counters.erase("clock_hz");
    EXPECT_NEAR(source_clock_mhz(k, geforce(), notes), 1900, 1e-9);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0], "clock: not measured; the source's sustained clock under load, 1900 MHz "
                        "(its ceilings file), stands in for it");
    notes.clear();
    EXPECT_NEAR(source_clock_mhz(k, test::v100(), notes), 1530, 1e-9);
    EXPECT_TRUE(notes.empty()); // the boost: nothing to say
}

TEST(ModelGenerationsClock, AnIssueBoundKernelMovesWithBothSustainedClocks) {
    // 1e6 warp instructions, nothing else: issue-bound. V100 (80 SMs x 4 x 1530 MHz) -> the
    // GeForce at 1900 MHz: 1e5 x 1530 / 1900 = 80526.3 ns; the spread 1800-2000 gives
    // 80526.3 x 1900 / 2000 = 76500 and x 1900 / 1800 = 85000.
    KernelRecord k = test::kernel_record(1e5, 8000);
    k.counters["inst_warp"] = 1e6;
    const KernelAnalysis a = analyze_kernel(k, test::v100(), {geforce()});
    ASSERT_EQ(a.projection.size(), 1u);
    const Projection& p = a.projection[0];
    EXPECT_EQ(p.bound_target, "issue");
    EXPECT_NEAR(p.time_point_ns, 1e5 * 1530 / 1900, 1e-6);
    EXPECT_NEAR(p.time_low_ns, 76500, 1e-6);
    EXPECT_NEAR(p.time_high_ns, 85000, 1e-6);
    EXPECT_EQ(p.confidence, "low"); // latency-bound: issue 2042.5 ns of 1e5; not the spread
}

TEST(ModelGenerationsClock, AWideClockSpreadLowersTheConfidence) {
    config::Ceilings t = geforce();
    t.clocks["sustained_low"] = mhz(1500); // 2000 / 1500 = 1.33 > 1.25
    Projection p;
    p.bound_target = "issue";
    p.time_point_ns = p.time_low_ns = p.time_high_ns = 1000;
    p.confidence = "high";
    widen_by_clock_spread(t, 1900, p);
    EXPECT_NEAR(p.time_low_ns, 950, 1e-9); // 1000 x 1900 / 2000
    EXPECT_NEAR(p.time_high_ns, 1000.0 * 1900 / 1500, 1e-9);
    EXPECT_EQ(p.confidence, "low");
    Projection hbm = p;
    hbm.bound_target = "hbm"; // the memory clock does not move with the SM clock
    hbm.time_low_ns = hbm.time_high_ns = 1000;
    widen_by_clock_spread(t, 1900, hbm);
    EXPECT_DOUBLE_EQ(hbm.time_low_ns, 1000);
}

} // namespace
} // namespace test_generations_clock
} // namespace irf::model

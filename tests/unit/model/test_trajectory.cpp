// SPDX-License-Identifier: Apache-2.0
// Roofline scaling trajectories (docs/model.md: SLIDES "Roofline Scaling Trajectory")
// against hand-computed values.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model/projection/trajectory.hpp"
#include "model/projection/trajectory_report.hpp"

namespace irf::model {
namespace test_trajectory {
namespace {

// A 100-SM GPU: 1000 warp GIPS; L1 1000, L2 200, HBM 100 GTXN/s.
CeilingsUsed gpu100() {
    CeilingsUsed c;
    c.warp_gips = 1000;
    c.gtxn_per_s = {{"l1", 1000}, {"l2", 200}, {"hbm", 100}};
    return c;
}

TrajectoryPoint point(int sms, double time_ns, double ii_hbm, double gips = 1) {
    TrajectoryPoint p;
    p.sms = sms;
    p.time_ns = time_ns;
    p.ii.hbm = ii_hbm;
    p.ii.l2 = 4 * ii_hbm;
    p.gips_warp = gips;
    p.counters_sms = sms;
    return p;
}

TEST(ModelTrajectory, CeilingScalesWithTheActiveSmShare) {
    // 50 of 100 SMs: share 0.5 -> peak 500; L1 10 x 500 = 5000, L2 4 x 100 = 400,
    // HBM 2 x 50 = 100: the roofline is 100 GIPS.
    const PerLevel ii{10.0, 4.0, 2.0};
    EXPECT_DOUBLE_EQ(*scaled_ceiling_gips(gpu100(), ii, 50, 100), 100);
    // The whole GPU: min(1000, 10000, 800, 200) = 200.
    EXPECT_DOUBLE_EQ(*scaled_ceiling_gips(gpu100(), ii, 100, 100), 200);
    // No intensity at all: the scaled issue peak, 0.25 x 1000.
    EXPECT_DOUBLE_EQ(*scaled_ceiling_gips(gpu100(), PerLevel{}, 25, 100), 250);
    EXPECT_FALSE(scaled_ceiling_gips(CeilingsUsed{}, ii, 25, 100).has_value());
}

TEST(ModelTrajectory, IdealScalingMovesStraightUp) {
    // 25 -> 100 SMs, 400 -> 100 ns: speedup 4 on 4x the SMs, efficiency 1, HBM ii unchanged.
    const auto v = classify_trajectory({point(25, 400, 2), point(100, 100, 2)}, gpu100(), 1000);
    EXPECT_EQ(v.kind, "ideal");
    EXPECT_DOUBLE_EQ(v.sm_ratio, 4);
    EXPECT_DOUBLE_EQ(v.speedup, 4);
    EXPECT_DOUBLE_EQ(v.efficiency, 1);
    EXPECT_EQ(v.level, "hbm");
    EXPECT_DOUBLE_EQ(*v.intensity_change, 0);
}

TEST(ModelTrajectory, FallingIntensityIsDegrading) {
    // 50 -> 100 SMs, 200 -> 150 ns: speedup 1.333, efficiency 0.667; HBM ii 2 -> 1.5 = -25%.
    const auto v = classify_trajectory({point(50, 200, 2), point(100, 150, 1.5)}, gpu100(), 1000);
    EXPECT_EQ(v.kind, "degrading_intensity");
    EXPECT_NEAR(v.efficiency, 2.0 / 3.0, 1e-12);
    EXPECT_DOUBLE_EQ(*v.intensity_change, -0.25);
}

TEST(ModelTrajectory, SharedLevelNearItsCeilingSaturates) {
    // 50 -> 100 SMs, 100 -> 80 ns: efficiency 1.25 / 2 = 0.625. At 100 SMs 80 GIPS at HBM ii 1
    // is 80 GTXN/s of the whole GPU's 100 (80%); L2: 80 / 4 = 20 of 200 (10%).
    const auto v =
        classify_trajectory({point(50, 100, 1, 50), point(100, 80, 1, 80)}, gpu100(), 1000);
    EXPECT_EQ(v.kind, "saturating");
    EXPECT_EQ(v.level, "hbm");
    EXPECT_DOUBLE_EQ(*v.shared_use, 0.8);
    EXPECT_DOUBLE_EQ(v.efficiency, 0.625);
}

TEST(ModelTrajectory, TooFewBlocksDoNotScale) {
    // 40 blocks cannot use 100 SMs: 50 -> 100 SMs at the same 100 ns.
    const auto v = classify_trajectory({point(50, 100, 1), point(100, 100, 1)}, gpu100(), 40);
    EXPECT_EQ(v.kind, "not_scaling");
    EXPECT_NE(v.reason.find("40 blocks for 100 SMs"), std::string::npos) << v.reason;
}

TEST(ModelTrajectory, FlatAndSublinear) {
    // Enough blocks, 2x the SMs, 100 -> 95 ns (speedup 1.05 < 1.1), no level near its ceiling.
    EXPECT_EQ(classify_trajectory({point(50, 100, 1), point(100, 95, 1)}, gpu100(), 1000).kind,
              "not_scaling");
    // 100 -> 66.7 ns: speedup 1.5, efficiency 0.75 < 0.8, intensity steady, no saturation.
    const auto v =
        classify_trajectory({point(50, 100, 1), point(100, 100 / 1.5, 1)}, gpu100(), 1000);
    EXPECT_EQ(v.kind, "sublinear");
    EXPECT_NEAR(v.efficiency, 0.75, 1e-12);
}

TEST(ModelTrajectory, OnePointOrOneSmCountIsUndecided) {
    EXPECT_EQ(classify_trajectory({point(50, 100, 1)}, gpu100(), 1000).kind, "undecided");
    EXPECT_EQ(classify_trajectory({point(50, 100, 1), point(50, 90, 1)}, gpu100(), 1000).kind,
              "undecided");
}

KernelRecord kernel(const std::string& name, double mean_ns, bool with_counters) {
    KernelRecord k;
    k.name = name;
    k.mangled = "_Z1kv";
    k.launch.grid = {1000, 1, 1};
    k.launches = 10;
    k.time_ns = {10 * mean_ns, mean_ns, mean_ns, mean_ns};
    if (with_counters) {
        k.profiled_launches = 1;
        k.counters = {{"inst_warp", 1e6},
                      {"dram_sectors_read", 4e5},
                      {"dram_sectors_write", 1e5},
                      {"time_ns", mean_ns}};
    }
    return k;
}

Profile run(std::optional<int> sms_active, double mean_ns, bool with_counters) {
    Profile p;
    p.app = "app";
    p.gpu.sms = 100;
    p.gpu.sms_active = sms_active;
    p.ceilings = gpu100();
    p.ceilings->warp_gips = 500;
    p.kernels.push_back(kernel("k", mean_ns, with_counters));
    return p;
}

TEST(ModelTrajectory, BuildsFromRunsAndBorrowsCountersUnderMps) {
    const Profile full = run(std::nullopt, 1e4, true);
    Profile half = run(50, 2e4, false); // under MPS: times only
    half.kernels.push_back(kernel("only_here", 5, false));
    const auto out = build_trajectories({&half, &full});
    ASSERT_EQ(out.size(), 1u); // "only_here" is in one run only
    const KernelTrajectory& k = out[0];
    ASSERT_EQ(k.points.size(), 2u);
    // Sorted by SMs. 1e6 warp instructions per launch: 1e6 / 2e4 ns = 50 GIPS at 50 SMs,
    // 1e6 / 1e4 = 100 GIPS at 100. HBM ii = 1e6 / (4e5 + 1e5) = 2.
    EXPECT_EQ(k.points[0].sms, 50);
    EXPECT_EQ(k.points[0].counters_sms, 100);
    EXPECT_DOUBLE_EQ(*k.points[0].gips_warp, 50);
    EXPECT_DOUBLE_EQ(*k.points[1].gips_warp, 100);
    EXPECT_DOUBLE_EQ(*k.points[0].ii.hbm, 2);
    // Ceilings: 50 SMs: min(0.5 x 500, 2 x 0.5 x 100) = 100; 100 SMs: min(500, 200) = 200.
    EXPECT_DOUBLE_EQ(*k.points[0].ceiling_gips, 100);
    EXPECT_DOUBLE_EQ(*k.points[1].ceiling_gips, 200);
    EXPECT_EQ(k.verdict.kind, "ideal"); // 2x faster on 2x the SMs
}

TEST(ModelTrajectory, FlopsPerByteComeFromTheAnalysedFlops) {
    Profile full = run(std::nullopt, 1e4, true);
    Profile half = run(50, 2e4, false);
    FlopsResult f;
    f.fp32 = 3.2e7; // 3.2e7 FLOPs over 5e5 HBM sectors x 32 B = 1.6e7 B: 2 FLOPs per byte
    full.kernels[0].analysis = KernelAnalysis{};
    full.kernels[0].analysis->flops = f;
    const auto out = build_trajectories({&full, &half});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_DOUBLE_EQ(*out[0].points[1].ai.hbm, 2);
    EXPECT_FALSE(out[0].points[1].ai.l1.has_value()); // no L1 counters in this kernel
    // 3.2e7 FLOPs per launch: 3.2e7 / 2e4 ns = 1600 GFLOP/s at 50 SMs, 3200 at 100.
    EXPECT_DOUBLE_EQ(*out[0].points[0].gflops, 1600);
    EXPECT_DOUBLE_EQ(*out[0].points[1].gflops, 3200);
}

TEST(ModelTrajectory, RunWithoutCeilingsIsRefusedByName) {
    Profile raw = run(std::nullopt, 1e4, true);
    raw.ceilings.reset();
    const Profile full = run(std::nullopt, 1e4, true);
    try {
        (void)build_trajectories({&full, &raw});
        FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("run 2"), std::string::npos) << e.what();
    }
}

TEST(ModelTrajectory, JsonHasTheSchemaAndNullsForAbsentValues) {
    const Profile full = run(std::nullopt, 1e4, true);
    const Profile half = run(50, 2e4, false);
    const auto doc = nlohmann::json::parse(
        dump_trajectories(build_trajectories({&full, &half}), *full.ceilings, 100));
    EXPECT_EQ(doc.at("schema"), "irf.trajectory/v1");
    EXPECT_EQ(doc.at("sms"), 100);
    EXPECT_EQ(doc.at("ceilings").at("warp_gips"), 500);
    EXPECT_EQ(doc.at("ceilings").at("gtxn_per_s").at("hbm"), 100);
    const auto& p = doc.at("kernels").at(0).at("points").at(0);
    EXPECT_EQ(p.at("sms"), 50);
    EXPECT_TRUE(p.at("ii").at("l1").is_null());
    EXPECT_TRUE(p.at("gflops").is_null()); // no analysis.flops in these runs
    EXPECT_EQ(doc.at("kernels").at(0).at("verdict").at("kind"), "ideal");
    EXPECT_NE(trajectory_table(build_trajectories({&full, &half}), 10).find("ideal"),
              std::string::npos);
}

} // namespace
} // namespace test_trajectory
} // namespace irf::model

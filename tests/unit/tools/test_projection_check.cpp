// SPDX-License-Identifier: Apache-2.0
// unit tests: irf-report check-projection's figures (tools/irf_report/projection_check.hpp) on
// hand-made profiles, every value worked out here.
#include <gtest/gtest.h>

#include "tools/irf_report/projection_check.hpp"

namespace irf::report {
namespace test_projection_check {
namespace {

/// A kernel with `launches` launches of `mean_ns`, projected (when `point` > 0) onto "b" with
/// total times low/point/high.
model::KernelRecord kernel(const std::string& name, std::uint64_t launches, double mean_ns,
                           double low = 0, double point = 0, double high = 0) {
    model::KernelRecord k;
    k.name = name;
    k.launches = launches;
    k.time_ns.mean = mean_ns;
    k.time_ns.total = mean_ns * static_cast<double>(launches);
    k.profiled_launches = point > 0 ? 1 : 0;
    if (point > 0) {
        model::Projection p;
        p.target = "b";
        p.time_low_ns = low;
        p.time_point_ns = point;
        p.time_high_ns = high;
        p.bound_source = p.bound_target = "hbm";
        p.confidence = "high";
        k.analysis.emplace().projection.push_back(p);
    }
    return k;
}

TEST(ProjectionCheck, ErrorsIntervalsAndWeightsAsWorkedOut) {
    model::Profile recorded, measured;
    // A: 10 x 100 ns, projected to 500 ns in all (400-600): 50 ns a launch (40-60).
    recorded.kernels.push_back(kernel("A", 10, 100, 400, 500, 600));
    // B: 10 x 10 ns, projected to 50 ns in all, no interval: 5 ns a launch.
    recorded.kernels.push_back(kernel("B", 10, 10, 50, 50, 50));
    recorded.kernels.push_back(kernel("once", 1, 7, 7, 7, 7)); // left out: one launch
    recorded.kernels.push_back(kernel("gone", 5, 7, 7, 7, 7)); // left out: not measured
    measured.kernels.push_back(kernel("B", 10, 4));            // 40 ns in all
    measured.kernels.push_back(kernel("A", 10, 55));           // 550 ns in all
    measured.kernels.push_back(kernel("once", 3, 7));
    measured.kernels.push_back(kernel("new", 3, 7)); // left out: not recorded
    const ProjectionCheck c = check_projection(recorded, measured, "");
    EXPECT_EQ(c.target, "b");
    ASSERT_EQ(c.kernels.size(), 2u);
    EXPECT_EQ(c.kernels[0].name, "A"); // the longer measured time first
    EXPECT_DOUBLE_EQ(c.kernels[0].predicted_mean_ns, 50);
    EXPECT_DOUBLE_EQ(c.kernels[0].low_ns, 40);
    EXPECT_DOUBLE_EQ(c.kernels[0].high_ns, 60);
    EXPECT_NEAR(c.kernels[0].error, (50.0 - 55) / 55, 1e-12); // -9.09%, inside 40-60
    EXPECT_TRUE(c.kernels[0].inside);
    EXPECT_NEAR(c.kernels[1].error, 0.25, 1e-12); // 5 vs 4: +25%, outside 5-5
    EXPECT_FALSE(c.kernels[1].inside);
    // MAPE (0.0909 + 0.25) / 2; weighted by 550 and 40 ns: (50 + 10) / 590.
    EXPECT_NEAR(c.summary.mape, (5.0 / 55 + 0.25) / 2, 1e-12);
    EXPECT_NEAR(c.summary.weighted_mape, 60.0 / 590, 1e-12);
    EXPECT_DOUBLE_EQ(c.summary.inside_share, 0.5);
    EXPECT_NEAR(c.summary.weighted_inside, 550.0 / 590, 1e-12);
    EXPECT_EQ(c.summary.high_confidence, 2u); // both "high": the same mean of |error|
    EXPECT_NEAR(c.summary.high_confidence_mape, c.summary.mape, 1e-12);
    // Totals over the recorded launches: 1000 + 100, 500 + 50, 550 + 40.
    EXPECT_DOUBLE_EQ(c.summary.recorded_total_ns, 1100);
    EXPECT_DOUBLE_EQ(c.summary.predicted_total_ns, 550);
    EXPECT_DOUBLE_EQ(c.summary.measured_total_ns, 590);
    ASSERT_EQ(c.left_out.size(), 3u);
    EXPECT_EQ(c.left_out[0], "once: a single launch (its time includes lazy module loading)");
    EXPECT_EQ(c.left_out[1], "gone: not in the measured profile");
    EXPECT_EQ(c.left_out[2], "new: not in the recorded profile");
    const std::string text = projection_check_text(c, recorded, measured, 20, false);
    EXPECT_NE(text.find("\nleft out: 1 a single launch (its time includes lazy module loading), "
                        "1 not in the measured profile, 1 not in the recorded profile\n"),
              std::string::npos)
        << text;
}

TEST(ProjectionCheck, TheModelsOwnIntervalIsKeptBesideTheCalibratedOne) {
    model::Profile recorded, measured;
    recorded.kernels.push_back(kernel("A", 10, 100, 400, 500, 600));
    auto& p = recorded.kernels[0].analysis->projection[0];
    p.time_calibrated_low_ns = 300; // the calibrated widening: 30-80 ns a launch
    p.time_calibrated_high_ns = 800;
    measured.kernels.push_back(kernel("A", 10, 75));
    const ProjectionCheck c = check_projection(recorded, measured, "");
    ASSERT_EQ(c.kernels.size(), 1u);
    EXPECT_DOUBLE_EQ(c.kernels[0].low_ns, 30);
    EXPECT_DOUBLE_EQ(c.kernels[0].high_ns, 80);
    EXPECT_DOUBLE_EQ(c.kernels[0].model_low_ns, 40); // 400 / 10 launches
    EXPECT_DOUBLE_EQ(c.kernels[0].model_high_ns, 60);
    EXPECT_TRUE(c.kernels[0].inside); // 75 ns: inside the calibrated 30-80, outside 40-60
    EXPECT_NE(projection_check_json(c).find("\"model_high_ns\": 60.0"), std::string::npos);
}

TEST(ProjectionCheck, AKernelWithoutCountersSaysWhy) {
    model::Profile recorded, measured;
    model::KernelRecord graph_node = kernel("G", 4, 100);
    graph_node.no_counters = "graph node: timed only";
    recorded.kernels.push_back(graph_node);
    measured.kernels.push_back(kernel("G", 4, 90));
    const ProjectionCheck c = check_projection(recorded, measured, "");
    ASSERT_EQ(c.left_out.size(), 1u);
    EXPECT_EQ(c.left_out[0], "G: no counters on the recorded GPU (graph node: timed only)");
}

TEST(ProjectionCheck, AKernelWithoutThatProjectionIsLeftOut) {
    model::Profile recorded, measured;
    recorded.kernels.push_back(kernel("A", 4, 100)); // profiled, never analysed
    recorded.kernels.back().profiled_launches = 1;
    measured.kernels.push_back(kernel("A", 4, 90));
    const ProjectionCheck c = check_projection(recorded, measured, "b");
    EXPECT_TRUE(c.kernels.empty());
    ASSERT_EQ(c.left_out.size(), 1u);
    EXPECT_EQ(c.left_out[0], "A: no projection onto the measured GPU");
    EXPECT_DOUBLE_EQ(c.summary.mape, 0);
}

TEST(ProjectionCheck, TextNamesTheMissesAndTheSummary) {
    model::Profile recorded, measured;
    recorded.kernels.push_back(kernel("A", 10, 100, 400, 500, 600));
    recorded.kernels.push_back(kernel("B", 10, 10, 50, 50, 50));
    measured.kernels.push_back(kernel("A", 10, 55));
    measured.kernels.push_back(kernel("B", 10, 3)); // 5 vs 3: +66.7%
    const ProjectionCheck c = check_projection(recorded, measured, "");
    const std::string text = projection_check_text(c, recorded, measured, 20, false);
    EXPECT_NE(text.find("misses over 25% (error, bound, confidence, interval):\n  B: +66.7%, hbm "
                        "-> hbm, high confidence, outside\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("2 kernels compared, 0 left out; error per launch: MAPE 37.9%"),
              std::string::npos)
        << text;
}

} // namespace
} // namespace test_projection_check
} // namespace irf::report

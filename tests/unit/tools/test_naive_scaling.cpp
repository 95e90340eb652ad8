// SPDX-License-Identifier: Apache-2.0
// unit tests: the naive scalings beside the kernel-by-kernel projection check (issue 54 item 4;
// tools/irf_report/naive_scaling.hpp), every value worked out here.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tools/irf_report/projection_check.hpp"

namespace irf::report {
namespace test_naive_scaling {
namespace {

/// Ten launches of `mean_ns`, projected (when `point` > 0) onto "b" at `point` in all, bound by
/// `bound` on the source.
model::KernelRecord naive_kernel(const std::string& name, double mean_ns, double point = 0,
                                 const std::string& bound = "hbm") {
    model::KernelRecord k;
    k.name = name;
    k.launches = 10;
    k.time_ns.mean = mean_ns;
    k.time_ns.total = mean_ns * 10;
    if (point > 0) {
        k.profiled_launches = 1;
        model::Projection p;
        p.target = "b";
        p.time_low_ns = p.time_point_ns = p.time_high_ns = point;
        p.bound_source = bound;
        p.bound_target = bound;
        p.confidence = "high";
        k.analysis.emplace().projection.push_back(p);
    }
    return k;
}

TEST(NaiveScaling, FactorsFromTwoCeilingsEntries) {
    config::Ceilings s, t;
    s.gpu.sms = 68;
    s.gpu.boost_clock_mhz = 1500;
    s.hbm_gbs = config::Quantity{};
    s.hbm_gbs->value = 600;
    t.gpu.sms = 84;
    t.gpu.boost_clock_mhz = 1700;
    const NaiveFactors unknown_dram = naive_factors(s, t);
    EXPECT_NEAR(unknown_dram.sm_clock, 68.0 * 1500 / (84.0 * 1700), 1e-15); // 0.7143
    EXPECT_EQ(unknown_dram.dram, 0);                                        // no target DRAM
    t.hbm_gbs = config::Quantity{};
    t.hbm_gbs->value = 1008;
    EXPECT_NEAR(naive_factors(s, t).dram, 600.0 / 1008, 1e-15);
    EXPECT_EQ(by_bound_factor("hbm", {0.5, 0.25}), 0.25);
    EXPECT_EQ(by_bound_factor("l2", {0.5, 0.25}), 0.5);
    EXPECT_EQ(by_bound_factor("", {0.5, 0.25}), 0.5); // undecided: SMs x clock
}

TEST(NaiveScaling, KernelCheckReportsEachBaselineAndWhetherTheModelBeatsIt) {
    model::Profile recorded, measured;
    // A: 100 ns a launch, hbm-bound, projected to 600 ns in all (60 a launch), measured 50.
    // B: 100 ns a launch, issue-bound, projected to 400 in all (40 a launch), measured 40.
    recorded.kernels.push_back(naive_kernel("A", 100, 600, "hbm"));
    recorded.kernels.push_back(naive_kernel("B", 100, 400, "issue"));
    measured.kernels.push_back(naive_kernel("A", 50));
    measured.kernels.push_back(naive_kernel("B", 40));
    const NaiveFactors f{0.5, 0.4}; // SMs x clock halves a time, DRAM makes it 0.4x
    const ProjectionCheck c = check_projection(recorded, measured, "", f);
    ASSERT_EQ(c.kernels.size(), 2u);
    EXPECT_EQ(c.kernels[0].name, "A");
    EXPECT_DOUBLE_EQ(c.kernels[0].naive.sm_clock_ns, 50);
    EXPECT_DOUBLE_EQ(c.kernels[0].naive.dram_ns, 40);
    EXPECT_DOUBLE_EQ(c.kernels[0].naive.by_bound_ns, 40); // hbm-bound: DRAM
    EXPECT_DOUBLE_EQ(c.kernels[1].naive.by_bound_ns, 50); // issue-bound: SMs x clock
    // Model: |60-50|/50 = 0.2 and 0; MAPE 0.1.
    EXPECT_NEAR(c.summary.mape, 0.1, 1e-12);
    // SMs x clock: 50 vs 50 (0), 50 vs 40 (0.25): 0.125. DRAM: 40 vs 50 (0.2), 40 vs 40 (0):
    // 0.1. By bound: 40 vs 50 (0.2), 50 vs 40 (0.25): 0.225.
    EXPECT_NEAR(c.summary.naive.sm_clock, 0.125, 1e-12);
    EXPECT_NEAR(c.summary.naive.dram, 0.1, 1e-12);
    EXPECT_NEAR(c.summary.naive.by_bound, 0.225, 1e-12);
    const std::string text = projection_check_text(c, recorded, measured, 20, false);
    // Equal MAPEs tie: neither beats the other.
    EXPECT_NE(text.find("naive MAPE: SMs x clock 12.5%, DRAM bandwidth 10.0%, by bound 22.5%; "
                        "the model beats SMs x clock, ties with DRAM, beats by bound\n"),
              std::string::npos)
        << text;
    const auto json = nlohmann::json::parse(projection_check_json(c));
    EXPECT_NEAR(json.at("summary").at("mape_by_bound").get<double>(), 0.225, 1e-12);
    EXPECT_DOUBLE_EQ(json.at("kernels").at(0).at("dram_ns").get<double>(), 40);
}

TEST(NaiveScaling, AnUnknownFactorIsNotAvailableNeverAZero) {
    model::Profile recorded, measured;
    recorded.kernels.push_back(naive_kernel("A", 100, 600));
    measured.kernels.push_back(naive_kernel("A", 50));
    const ProjectionCheck c = check_projection(recorded, measured, "", {0.5, 0});
    EXPECT_TRUE(c.summary.naive.sm_clock_known);
    EXPECT_STREQ(beats(0.1, 0.1004), "ties with");
    EXPECT_STREQ(beats(0.1, 0.1006), "beats");
    EXPECT_STREQ(beats(0.1006, 0.1), "LOSES TO");
    EXPECT_FALSE(c.summary.naive.dram_known);
    const std::string text = projection_check_text(c, recorded, measured, 20, false);
    EXPECT_NE(text.find("naive MAPE: SMs x clock 0.0%, DRAM bandwidth n/a, by bound n/a; the "
                        "model LOSES TO SMs x clock, cannot compare with DRAM, cannot compare "
                        "with by bound\n"),
              std::string::npos)
        << text;
    const auto json = nlohmann::json::parse(projection_check_json(c));
    EXPECT_TRUE(json.at("summary").at("mape_dram").is_null());
}

// Public data (tests/data/projection-public/): each run is one launch that is no first launch.
TEST(NaiveScaling, SingleLaunchesAreComparedOnlyWhenAsked) {
    model::Profile recorded, measured;
    recorded.kernels.push_back(naive_kernel("A", 100, 600));
    measured.kernels.push_back(naive_kernel("A", 50));
    recorded.kernels[0].launches = measured.kernels[0].launches = 1;
    EXPECT_TRUE(check_projection(recorded, measured, "", {0.5, 0.4}).kernels.empty());
    const ProjectionCheck c = check_projection(recorded, measured, "", {0.5, 0.4}, true);
    ASSERT_EQ(c.kernels.size(), 1u);
    EXPECT_NEAR(c.kernels[0].error, 0.2, 1e-12); // 60 a launch against 50
}

} // namespace
} // namespace test_naive_scaling
} // namespace irf::report

// SPDX-License-Identifier: Apache-2.0
// irf-report check-projection's high-confidence MAPE (docs/tools.md): the mean |error| over the
// kernels projected with high confidence only, in the summary, the text and the JSON.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tools/irf_report/projection_check.hpp"

namespace irf::report {
namespace test_projection_check_mape {
namespace {
// Named: in a unity batch, other files' helpers of the same names share the anonymous
// namespace.
namespace mape {

/// Ten launches of `mean_ns`; projected (when `point` > 0) onto "b" at `point` in all, with
/// `confidence`.
model::KernelRecord kernel(const std::string& name, double mean_ns, double point = 0,
                           const std::string& confidence = "high") {
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
        p.bound_source = p.bound_target = "hbm";
        p.confidence = confidence;
        k.analysis.emplace().projection.push_back(p);
    }
    return k;
}

TEST(ProjectionCheckMape, HighConfidenceMapeAveragesOnlyTheHighConfidenceKernels) {
    model::Profile recorded, measured;
    // H: 110 ns a launch against 100 measured, +10%, high. L: 150 against 100, +50%, low.
    // P: 80 against 100, -20%, high.
    recorded.kernels.push_back(kernel("H", 100, 1100, "high"));
    recorded.kernels.push_back(kernel("L", 100, 1500, "low"));
    recorded.kernels.push_back(kernel("P", 100, 800, "high"));
    for (const char* name : {"H", "L", "P"}) {
        measured.kernels.push_back(kernel(name, 100));
    }
    const ProjectionCheck c = check_projection(recorded, measured, "");
    ASSERT_EQ(c.kernels.size(), 3u);
    // MAPE over all three (0.1 + 0.5 + 0.2) / 3 = 26.7%; over the two high ones (0.1 + 0.2) / 2
    // = 15% (over every compared kernel it would be 0.3 / 3 = 10%).
    EXPECT_NEAR(c.summary.mape, 0.8 / 3, 1e-12);
    EXPECT_EQ(c.summary.high_confidence, 2u);
    EXPECT_NEAR(c.summary.high_confidence_mape, 0.15, 1e-12);
    const std::string text = projection_check_text(c, recorded, measured, 20, false);
    EXPECT_NE(text.find("MAPE 26.7%"), std::string::npos) << text;
    EXPECT_NE(text.find("(2 with high confidence: 15.0%)"), std::string::npos) << text;
    const nlohmann::json j = nlohmann::json::parse(projection_check_json(c));
    EXPECT_NEAR(j["summary"]["high_confidence_mape"].get<double>(), 0.15, 1e-12) << j.dump();
    EXPECT_EQ(j["summary"]["high_confidence"], 2);
}

TEST(ProjectionCheckMape, NoHighConfidenceKernelGivesZero) {
    model::Profile recorded, measured;
    recorded.kernels.push_back(kernel("L", 100, 1500, "low"));
    measured.kernels.push_back(kernel("L", 100));
    const ProjectionCheck c = check_projection(recorded, measured, "");
    ASSERT_EQ(c.kernels.size(), 1u);
    EXPECT_EQ(c.summary.high_confidence, 0u);
    EXPECT_DOUBLE_EQ(c.summary.high_confidence_mape, 0);
    EXPECT_NEAR(c.summary.mape, 0.5, 1e-12);
}

} // namespace mape
} // namespace
} // namespace test_projection_check_mape
} // namespace irf::report

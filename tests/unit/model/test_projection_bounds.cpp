// SPDX-License-Identifier: Apache-2.0
// The target's figure spread widens both ends of the projection interval (docs/model.md,
// "Projection", the target's figure spread): high = point x value / lowest figure, low = point x
// value / highest figure, and the confidence is low above a spread of 1.25. Worked by hand.
#include <gtest/gtest.h>

#include <string>

#include "model/projection/projection_bounds.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_projection_bounds {
namespace {

// A projection whose target is bound by `resource`, with the interval closed on its point.
Projection bound_by(const std::string& resource, double point_ns) {
    Projection p;
    p.target = "t";
    p.confidence = "high";
    p.bound_source = p.bound_target = resource;
    p.resource_ns_target[resource] = point_ns;
    p.time_point_ns = p.time_low_ns = p.time_high_ns = point_ns;
    return p;
}

// The test V100 as a target whose HBM value in use is `value` GB/s, among figures from
// `lowest` to `highest`.
CeilingPair hbm_figures(double value, double lowest, double highest) {
    CeilingPair pair;
    pair.source = pair.target = test::v100();
    pair.target.hbm_gbs->value = value;
    pair.target_spread["hbm_gbs"] = {lowest, highest};
    return pair;
}

TEST(ModelProjectionBounds, AFigureAboveTheValueInUseLowersTheLowEnd) {
    // Value 3000 GB/s among 2500-3600: high = 1e6 x 3000 / 2500 = 1.2e6 ns, low = 1e6 x 3000 /
    // 3600 = 833,333.3 ns; spread (3000 / 2500) / (3000 / 3600) = 1.44 > 1.25: low confidence.
    Projection p = bound_by("hbm", 1e6);
    widen_by_spread(hbm_figures(3000, 2500, 3600), p);
    EXPECT_NEAR(p.time_high_ns, 1.2e6, 1e-6);
    EXPECT_NEAR(p.time_low_ns, 1e6 * 3000 / 3600, 1e-6);
    EXPECT_NEAR(p.time_low_ns, 833333.3, 0.1);
    EXPECT_NEAR(p.time_point_ns, 1e6, 1e-9); // the point stays
    EXPECT_EQ(p.confidence, "low");
    EXPECT_TRUE(test::has_note(p, "hbm_gbs: the target's figures span 2500-3600 (provenance "
                                  "spread x1.44)"));
}

TEST(ModelProjectionBounds, AValueAtTheTopOfItsFiguresLeavesTheLowEnd) {
    // Value 3600 among 2500-3600: low = 1e6 x 3600 / 3600 = the point; high = 1e6 x 3600 / 2500.
    Projection p = bound_by("hbm", 1e6);
    widen_by_spread(hbm_figures(3600, 2500, 3600), p);
    EXPECT_NEAR(p.time_low_ns, 1e6, 1e-9);
    EXPECT_NEAR(p.time_high_ns, 1.44e6, 1e-6);
}

TEST(ModelProjectionBounds, AnIntervalAlreadyWiderKeepsItsEnds) {
    // Eq. 9 gave 7e5-1.5e6 ns around 1e6: the spread's 833,333-1.2e6 lies inside it.
    Projection p = bound_by("hbm", 1e6);
    p.time_low_ns = 7e5;
    p.time_high_ns = 1.5e6;
    widen_by_spread(hbm_figures(3000, 2500, 3600), p);
    EXPECT_DOUBLE_EQ(p.time_low_ns, 7e5);
    EXPECT_DOUBLE_EQ(p.time_high_ns, 1.5e6);
}

TEST(ModelProjectionBounds, ASpreadOfExactlyOnePointTwoFiveStaysHighConfidence) {
    // Value 2500 among 2000-2500: high = 1e6 x 2500 / 2000 = 1.25e6, low = the point; spread
    // 1.25 is not above 1.25. With 1999 as the lowest figure: 2500 / 1999 = 1.2506, low.
    Projection at = bound_by("hbm", 1e6);
    widen_by_spread(hbm_figures(2500, 2000, 2500), at);
    EXPECT_NEAR(at.time_high_ns, 1.25e6, 1e-6);
    EXPECT_EQ(at.confidence, "high");
    Projection past = bound_by("hbm", 1e6);
    widen_by_spread(hbm_figures(2500, 1999, 2500), past);
    EXPECT_EQ(past.confidence, "low");
}

TEST(ModelProjectionBounds, AnIssueBoundTargetUsesItsWarpGipsFigures) {
    // Issue 1000 warp-GIPS among 900-1100: low = 5e5 x 1000 / 1100 = 454,545.5 ns, high = 5e5 x
    // 1000 / 900 = 555,555.6 ns; spread 1100 / 900 = 1.22: high confidence.
    CeilingPair pair;
    pair.source = pair.target = test::v100();
    pair.target.warp_gips.value = 1000;
    pair.target_spread["warp_gips"] = {900, 1100};
    Projection p = bound_by("issue", 5e5);
    widen_by_spread(pair, p);
    EXPECT_NEAR(p.time_low_ns, 5e5 * 1000 / 1100, 1e-6);
    EXPECT_NEAR(p.time_high_ns, 5e5 * 1000 / 900, 1e-6);
    EXPECT_EQ(p.confidence, "high");
}

} // namespace
} // namespace test_projection_bounds
} // namespace irf::model

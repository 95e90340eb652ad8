// SPDX-License-Identifier: Apache-2.0
// The calibrated interval (issue 54 item 6; docs/model.md, "Calibrated interval"): the point x the
// residual spread of its class widens the interval; the class is the compute capabilities'.
#include <utility>

#include <gtest/gtest.h>

#include "model/projection/calibrated_interval.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_calibrated_interval {
namespace {

Projection projected(double point, double low, double high) {
    Projection p;
    p.time_point_ns = point;
    p.time_low_ns = low;
    p.time_high_ns = high;
    p.time_eq9_low_ns = low;
    p.time_eq9_high_ns = high;
    return p;
}

TEST(ModelCalibratedInterval, TheSpreadWidensAroundThePoint) {
    // Point 1e5 in [8e4, 1.2e5]; spread x0.5 .. x2.0: calibrated [5e4, 2e5]; the interval, the
    // eq9 ends and the point stay.
    Projection p = projected(1e5, 8e4, 1.2e5);
    widen_by_spread({0.5, 2.0, 100}, false, false, p);
    EXPECT_NEAR(p.time_calibrated_low_ns, 5e4, 1e-9);
    EXPECT_NEAR(p.time_calibrated_high_ns, 2e5, 1e-9);
    EXPECT_NEAR(p.time_low_ns, 8e4, 1e-9);
    EXPECT_NEAR(p.time_high_ns, 1.2e5, 1e-9);
    EXPECT_NEAR(p.time_point_ns, 1e5, 1e-9);
    EXPECT_EQ(checked_interval(p), std::make_pair(5e4, 2e5));
    EXPECT_TRUE(test::has_note(p, "calibrated: the calibrated interval holds x0.50-x2.00 of the "
                                  "point, 90% of 100 measured times of low-confidence projections "
                                  "across compute capabilities"));
}

TEST(ModelCalibratedInterval, AWiderIntervalIsKept) {
    // x0.9 .. x1.1 of 1e5 lies inside [8e4, 1.2e5]: the calibrated interval is the interval.
    Projection p = projected(1e5, 8e4, 1.2e5);
    widen_by_spread({0.9, 1.1, 100}, true, true, p);
    EXPECT_NEAR(p.time_calibrated_low_ns, 8e4, 1e-9);
    EXPECT_NEAR(p.time_calibrated_high_ns, 1.2e5, 1e-9);
    EXPECT_TRUE(test::has_note(p, "of high-confidence projections of the same compute capability"));
}

TEST(ModelCalibratedInterval, AnUnfittedSpreadChangesNothing) {
    Projection p = projected(1e5, 8e4, 1.2e5);
    widen_by_spread({0.5, 2.0, 0}, true, true, p);
    EXPECT_EQ(p.time_calibrated_low_ns, 0.0); // absent from the JSON
    EXPECT_EQ(checked_interval(p), std::make_pair(8e4, 1.2e5));
    EXPECT_TRUE(p.notes.empty());
}

TEST(ModelCalibratedInterval, TheClassIsTheComputeCapability) {
    config::Ceilings a = test::v100(), b = test::v100();
    a.gpu.cc = "7.0";
    b.gpu.cc = "7.0";
    EXPECT_TRUE(same_compute_capability(a, b));
    b.gpu.cc = "8.0";
    EXPECT_FALSE(same_compute_capability(a, b));
    a.gpu.cc.clear();
    b.gpu.cc.clear();
    EXPECT_FALSE(same_compute_capability(a, b)); // unknown: the wider class
}

TEST(ModelCalibratedInterval, TheClassIsAlsoTheProjectionsConfidence) {
    // Each of the four fitted classes is its own spread, and a high-confidence projection's is
    // narrower than a low-confidence one's of the same compute-capability class (the fit's data:
    // docs/validation/projection.md).
    for (const bool same : {true, false}) {
        const ResidualSpread high = residual_spread(same, true);
        const ResidualSpread low = residual_spread(same, false);
        EXPECT_GT(high.kernels, 0);
        EXPECT_GT(low.kernels, 0);
        EXPECT_LT(high.high / high.low, low.high / low.low) << same;
    }
    // The class follows the confidence the projection ends with: lowered by the target's figures
    // after project(), it takes the low-confidence spread.
    config::Ceilings a = test::v100(), b = test::v100();
    a.gpu.cc = "7.0";
    b.gpu.cc = "8.0";
    Projection p = projected(1e5, 1e5, 1e5);
    p.confidence = "low";
    apply_calibrated_interval(a, b, p);
    const ResidualSpread cross_low = residual_spread(false, false);
    EXPECT_NEAR(p.time_calibrated_low_ns, 1e5 * cross_low.low, 1e-6);
    EXPECT_NEAR(p.time_calibrated_high_ns, 1e5 * cross_low.high, 1e-6);
    Projection q = projected(1e5, 1e5, 1e5);
    q.confidence = "high";
    apply_calibrated_interval(a, a, q);
    EXPECT_NEAR(q.time_calibrated_high_ns, 1e5 * residual_spread(true, true).high, 1e-6);
    EXPECT_TRUE(test::has_note(q, "of high-confidence projections of the same compute capability"));
}

} // namespace
} // namespace test_calibrated_interval
} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// IRF_TIMING=sampled's estimate of untimed launches (model/profile/timing_estimate.hpp) against
// hand-computed values, and its fields in the profile and the text summary.
#include <cmath>

#include <gtest/gtest.h>

#include "common/time_format.hpp"
#include "model/profile/profile_json.hpp"
#include "model/profile/timing_estimate.hpp"
#include "model/summary/summary_samples.hpp"
#include "model/summary/text_summary.hpp"

namespace irf::model {
namespace test_timing_estimate {
namespace {

TEST(TimingEstimate, UntimedLaunchesAtTheMeanWithThePredictionError) {
    // Timed 100, 200, 300 ns: mean 200, squared deviations 10^4 + 0 + 10^4 = 2 * 10^4, sample
    // variance 2 * 10^4 / 2 = 10^4 (s = 100). 6 untimed: 6 x 200 = 1200 ns, error
    // 100 * sqrt(6 * (1 + 6 / 3)) = 100 * sqrt(18) = 424.26 ns.
    const TimingEstimate e = estimate_untimed(3, 200, 2e4, 6);
    EXPECT_DOUBLE_EQ(e.time_ns, 1200);
    ASSERT_TRUE(e.error_ns.has_value());
    EXPECT_NEAR(*e.error_ns, 424.264, 1e-3);
}

TEST(TimingEstimate, ManyUntimedGrowLikeTheStandardErrorOfTheMeanTimesTheirCount) {
    // n = 100 timed, s = 10 (m2 = 99 * 100), u = 9900: 10 * sqrt(9900 * 100) = 9949.87, close to
    // SE(mean) x u = 10 / 10 * 9900 = 9900.
    const TimingEstimate e = estimate_untimed(100, 50, 99 * 100, 9900);
    EXPECT_DOUBLE_EQ(e.time_ns, 9900 * 50);
    ASSERT_TRUE(e.error_ns.has_value());
    EXPECT_NEAR(*e.error_ns, 9949.874, 1e-3);
}

TEST(TimingEstimate, ErrorIsUnknownUnderTwoTimedLaunchesAndZeroWithoutSpread) {
    const TimingEstimate one = estimate_untimed(1, 500, 0, 4);
    EXPECT_DOUBLE_EQ(one.time_ns, 2000);
    EXPECT_FALSE(one.error_ns.has_value());                         // not 0: unknown
    const TimingEstimate same = estimate_untimed(5, 500, -1e-9, 4); // rounding below zero
    ASSERT_TRUE(same.error_ns.has_value());
    EXPECT_DOUBLE_EQ(*same.error_ns, 0);
    EXPECT_DOUBLE_EQ(estimate_untimed(5, 500, 10, 0).time_ns, 0);
    EXPECT_DOUBLE_EQ(estimate_untimed(0, 0, 0, 7).time_ns, 0); // nothing to estimate from
}

Profile estimated_profile(std::optional<double> error) {
    Profile p;
    KernelRecord k;
    k.name = "tiny(float*)";
    k.launches = 9;
    k.time_ns = TimeStats{1800, 100, 200, 300};
    k.estimated_launches = 6;
    k.estimate_error_ns = error;
    p.kernels = {k};
    return p;
}

TEST(TimingEstimate, ProfileCarriesTheEstimateAndReadsItBack) {
    const Profile p = estimated_profile(424.25);
    const nlohmann::json j = profile_to_json(p);
    const nlohmann::json& estimated = j.at("kernels").at(0).at("time_ns").at("estimated");
    EXPECT_EQ(estimated.at("launches"), 6);
    EXPECT_DOUBLE_EQ(estimated.at("error_ns").get<double>(), 424.25);
    const Profile back = profile_from_json(j);
    EXPECT_EQ(back.kernels.at(0).estimated_launches, 6u);
    EXPECT_EQ(back.kernels.at(0).estimate_error_ns, std::optional<double>(424.25));
    EXPECT_EQ(profile_to_json(back), j);
    // An unknown error is written as null and read back as unknown.
    const nlohmann::json unknown = profile_to_json(estimated_profile(std::nullopt));
    EXPECT_TRUE(unknown.at("kernels").at(0).at("time_ns").at("estimated").at("error_ns").is_null());
    EXPECT_FALSE(profile_from_json(unknown).kernels.at(0).estimate_error_ns.has_value());
    // A measured total has no such key: profiles without sampled timing read as before.
    Profile measured = estimated_profile(std::nullopt);
    measured.kernels[0].estimated_launches = 0;
    EXPECT_FALSE(profile_to_json(measured).at("kernels").at(0).at("time_ns").contains("estimated"));
}

TEST(TimingEstimate, SummaryMarksTheTotalAndGivesItsError) {
    const Profile p = estimated_profile(424.25);
    const std::string text = estimate_text(p.kernels[0]);
    EXPECT_NE(text.find("6 untimed launches (IRF_TIMING=sampled or IRF_GRAPH_TIMING=graphs)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("+/- " + common::format_time(424.25) + " (one standard error)"),
              std::string::npos)
        << text;
    EXPECT_NE(estimate_text(estimated_profile(std::nullopt).kernels[0]).find("error unknown"),
              std::string::npos);
    const std::string summary = text_summary(p);
    EXPECT_NE(summary.find("~" + common::format_time(1800)), std::string::npos) << summary;
    EXPECT_NE(summary.find("total with ~ = estimated"), std::string::npos) << summary;
    EXPECT_NE(summary.find(text), std::string::npos) << summary;
}

} // namespace
} // namespace test_timing_estimate
} // namespace irf::model

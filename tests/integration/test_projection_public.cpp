// SPDX-License-Identifier: Apache-2.0
// integration: the public cross-generation replay (issue 54 item 5;
// tests/data/projection-public/<set>/README.md). Each pair of a public set's GPUs
// (gpuperfpredict, magus) is checked as a user would (check-projection with the GPUs' ceilings
// beside the data), and the figures are held to those recorded in expected.json: a model change
// that worsens MAPE, time-weighted MAPE or coverage, or stops beating a naive scaling it beat,
// fails here.
#include <cstddef>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/golden.hpp"
#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace test_projection_public {
namespace {

using nlohmann::json;

/// Slack against the recorded figures: the replay is deterministic, so this only absorbs the
/// rounding of expected.json.
constexpr double k_slack = 0.0005;

json public_pair(const std::string& set, const std::string& source, const std::string& target) {
    const std::string dir = irf::test::data_path("projection-public/" + set + "/");
    const auto r = irf::test::run_process(
        {IRF_REPORT_BIN, "check-projection", dir + source + ".json", dir + target + ".json",
         "--ceilings", dir + "ceilings/" + source + ".yaml", "--target",
         dir + "ceilings/" + target + ".yaml", "--single-launches", "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out).at("summary");
}

/// Each pair of `set`'s expected.json against the figures recorded there (at least `pairs`).
void hold_recorded_figures(const std::string& set, std::size_t pairs) {
    const auto expected = json::parse(
        irf::test::read_file(irf::test::data_path("projection-public/" + set + "/expected.json")));
    ASSERT_GE(expected.at("pairs").size(), pairs);
    for (const json& e : expected.at("pairs")) {
        const std::string source = e.at("source"), target = e.at("target");
        SCOPED_TRACE(set + ": " + source + " -> " + target);
        const json s = public_pair(set, source, target);
        EXPECT_EQ(s.at("compared"), e.at("compared"));
        EXPECT_LE(s.at("mape").get<double>(), e.at("mape").get<double>() + k_slack);
        EXPECT_LE(s.at("weighted_mape").get<double>(),
                  e.at("weighted_mape").get<double>() + k_slack);
        EXPECT_GE(s.at("inside_share").get<double>(), e.at("inside_share").get<double>() - k_slack);
        for (const char* naive : {"mape_sm_clock", "mape_dram", "mape_by_bound"}) {
            if (e.at("mape").get<double>() < e.at(naive).get<double>()) { // beaten when recorded
                EXPECT_LT(s.at("mape").get<double>(), s.at(naive).get<double>()) << naive;
            }
        }
    }
}

TEST(ProjectionPublic, GpuperfpredictPairsHoldTheirRecordedFigures) {
    hold_recorded_figures("gpuperfpredict", 6);
}

TEST(ProjectionPublic, MagusPairsHoldTheirRecordedFigures) {
    hold_recorded_figures("magus", 2); // GTX 950 -> GTX 1080 Ti and back
}

} // namespace
} // namespace test_projection_public

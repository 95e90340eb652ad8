// SPDX-License-Identifier: Apache-2.0
// unit test (no GPU): the walls that model/ derives from each case's expected counts are the
// verdicts expected.json states, so a gpu test failure points at the measurement, not at a
// disagreement between the known answers and the model.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "model/walls.hpp"
#include "tests/gpu/expected_cases.hpp"

namespace irf::test {
namespace {

model::Counters counters_of(const ExpectedCase& c) {
    model::Counters out;
    for (const auto& [name, value] : c.counts) {
        out[name] = value;
    }
    return out;
}

TEST(ExpectedVsModel, GlobalWallsOfTheExpectedCountsAreTheExpectedVerdicts) {
    int checked = 0;
    for (const ExpectedCase& c : expected_cases()) {
        if (!c.verdict.contains("global_pattern")) {
            continue;
        }
        SCOPED_TRACE(c.id);
        std::vector<std::string> missing;
        const auto wall = model::global_wall(counters_of(c), missing);
        ASSERT_TRUE(wall.has_value()) << (missing.empty() ? "" : missing.front());
        EXPECT_EQ(wall->pattern, c.verdict.at("global_pattern").get<std::string>());
        EXPECT_NEAR(wall->intensity, c.verdict.at("global_intensity").get<double>(), 1e-12);
        ++checked;
    }
    // 12 stride cases, 3 transposes, the triad and 2 demo transposes.
    EXPECT_EQ(checked, 18);
}

TEST(ExpectedVsModel, SharedWallsOfTheExpectedCountsAreTheExpectedVerdicts) {
    int checked = 0;
    for (const ExpectedCase& c : expected_cases()) {
        if (!c.verdict.contains("shared_conflict_ways")) {
            continue;
        }
        SCOPED_TRACE(c.id);
        std::vector<std::string> missing;
        const auto wall = model::shared_wall(counters_of(c), missing);
        ASSERT_TRUE(wall.has_value()) << (missing.empty() ? "" : missing.front());
        EXPECT_NEAR(wall->conflict_ways, c.verdict.at("shared_conflict_ways").get<double>(), 1e-9);
        ++checked;
    }
    // 6 bank-conflict cases, tiled and padded transposes, and the demo's padded transpose.
    EXPECT_EQ(checked, 9);
}

// Spot checks by hand, independent of the generator: 32-way conflicted loads diluted by the
// conflict-free stores of the bank app, (4096 + 65536 x 32) / (4096 + 65536) = 30.176..., and
// the tiled transpose's (32768 x 32 + 32768) / (2 x 32768) = 16.5 (IRM's "16-way", docs/model.md).
TEST(ExpectedVsModel, HandComputedConflictDegrees) {
    for (const ExpectedCase& c : expected_cases()) {
        if (c.id == "bank-ways32") {
            EXPECT_NEAR(c.verdict.at("shared_conflict_ways").get<double>(), 2101248.0 / 69632.0,
                        1e-12);
        } else if (c.id == "transpose-tiled") {
            EXPECT_DOUBLE_EQ(c.verdict.at("shared_conflict_ways").get<double>(), 16.5);
        }
    }
}

} // namespace
} // namespace irf::test

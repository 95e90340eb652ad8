// SPDX-License-Identifier: Apache-2.0
// Keeps the tools' analysed test profiles (golden tools_profile_*.json) equal to what
// model::analyze makes of tests/data/tools/raw_*.json, so irf-plot, csv and compare are tested
// on the model's real output. IRF_UPDATE_GOLDEN=1 regenerates them after a model change.
#include <gtest/gtest.h>

#include "config/ceilings.hpp"
#include "model/analyze.hpp"
#include "model/profile_json.hpp"
#include "tests/support/golden.hpp"
#include "tests/unit/tools/tools_ceilings.hpp"

namespace {

irf::model::Profile check_analysed(const std::string& raw, const std::string& golden) {
    irf::model::Profile profile = irf::model::load_profile(irf::test::data_path("tools/" + raw));
    irf::model::analyze(profile, irf::test::tools_source_ceilings(),
                        irf::test::tools_target_ceilings());
    EXPECT_TRUE(irf::test::matches_golden(golden, irf::model::dump_profile(profile)));
    return profile;
}

TEST(ToolsProfiles, BeforeMatchesTheModel) {
    const auto profile = check_analysed("raw_before.json", "tools_profile_before.json");
    ASSERT_FALSE(profile.kernels.empty());
    ASSERT_TRUE(profile.kernels[0].analysis.has_value());
    const auto& irm = profile.kernels[0].analysis->irm;
    ASSERT_TRUE(irm.has_value());
    // Hand-computed for transpose_naive: 10,485,760 warp instructions in 1,200,000 ns is
    // 8.738133 warp GIPS; HBM II = 10,485,760 / (2,097,152 + 16,777,216 sectors) = 0.555556.
    EXPECT_NEAR(irm->gips_warp, 8.738133, 1e-6);
    EXPECT_NEAR(irm->ii.hbm.value_or(0), 0.555556, 1e-6);
}

TEST(ToolsProfiles, AfterMatchesTheModel) {
    check_analysed("raw_after.json", "tools_profile_after.json");
}

} // namespace

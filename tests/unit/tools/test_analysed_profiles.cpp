// SPDX-License-Identifier: Apache-2.0
// Keeps the tools' analysed test profiles (golden tools_profile_*.json) equal to what
// model::analyze makes of tests/data/tools/raw_*.json, so irf-plot, csv and compare are tested
// on the model's real output. IRF_UPDATE_GOLDEN=1 regenerates them after a model change.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "config/ceilings.hpp"
#include "model/analyze.hpp"
#include "model/profile/profile_json.hpp"
#include "model/roofline/pipe_ceilings.hpp"
#include "tests/support/golden.hpp"
#include "tests/unit/tools/tools_ceilings.hpp"

namespace test_analysed_profiles {
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

const irf::model::KernelRecord* kernel_named(const irf::model::Profile& profile,
                                             const std::string& part) {
    for (const auto& k : profile.kernels) {
        if (k.name.find(part) != std::string::npos) {
            return &k;
        }
    }
    ADD_FAILURE() << "no kernel " << part;
    return nullptr;
}

TEST(ToolsProfiles, BeforeTransposeConflictWays) {
    const auto profile = check_analysed("raw_before.json", "tools_profile_before.json");
    const auto* k = kernel_named(profile, "transpose_coalesced");
    ASSERT_TRUE(k != nullptr && k->analysis && k->analysis->walls.shared);
    // 16-way column loads: (16 x 524,288 + 524,288 store) wavefronts over 1,048,576 ld+st, one
    // ideal wavefront each (no bytes counters: 4-byte words): 8,912,896 / 1,048,576 = 8.5 ways.
    EXPECT_DOUBLE_EQ(k->analysis->walls.shared->conflict_ways, 8.5);
}

// The summary's pipe cell of the tensor GEMM, by hand from the pipe-mix counters: 96 Mi =
// 100,663,296 warp instructions in 310,000 ns = 324.72031 warp GIPS; LD/ST 18 Mi of 96 Mi =
// 0.1875 -> 60.885058 warp GIPS of the LSU's 132 SMs x 1 x 1.98 GHz = 261.36: 23.2955%, busier
// than INT32 (30/96 x 324.72 = 101.475 of 522.72: 19.41%) and FMA (10/96: 33.825 of 1045.44:
// 3.24%). No pipe caps the issue rate below the schedulers' 1045.44: INT32 allows 522.72 /
// 0.3125 = 1672.7, LD/ST 261.36 / 0.1875 = 1393.9.
TEST(ToolsProfiles, BeforeGemmPipeCell) {
    const auto profile = check_analysed("raw_before.json", "tools_profile_before.json");
    const auto* k = kernel_named(profile, "hgemm_wmma");
    ASSERT_TRUE(k != nullptr && k->analysis && k->analysis->pipes);
    const auto& pipes = *k->analysis->pipes;
    const auto& lsu = pipes.by_pipe.at("lsu");
    EXPECT_NEAR(lsu.gips, 60.885058, 1e-6);
    EXPECT_NEAR(lsu.ceiling_gips, 261.36, 1e-9);
    EXPECT_NEAR(lsu.pct, 23.2955, 1e-4);
    EXPECT_NEAR(pipes.by_pipe.at("int32").pct, 19.41, 5e-3);
    EXPECT_EQ(irf::model::busiest_pipe_label(pipes), "lsu 23%");
    EXPECT_EQ(pipes.binding, "issue");
    EXPECT_NEAR(pipes.ceiling_gips, 1045.44, 1e-9);
}

TEST(ToolsProfiles, AfterMatchesTheModel) {
    const auto profile = check_analysed("raw_after.json", "tools_profile_after.json");
    const auto* k = kernel_named(profile, "stream_triad");
    ASSERT_TRUE(k != nullptr && k->analysis);
    const auto& projections = k->analysis->projection;
    const auto a100 = std::find_if(projections.begin(), projections.end(),
                                   [](const auto& p) { return p.target == "a100-test"; });
    ASSERT_NE(a100, projections.end());
    // Hand-derived: DRAM 16 Mi + 8 Mi sectors x 32 = 805,306,368 B; HBM 240,390 ns at 3350 GB/s
    // binds the source (L1 24,075 at 33450, L2 80,531 at 10000, issue 16 Mi / (132 x 4 x 1.98)
    // = 16,048, FP64 64 Mi FLOPs / 66900 = 1,003) and 394,952 ns at 2039 GB/s the a100-test
    // target (L2 161,061, issue 27,543). Streaming 805 MB fits neither L2; no SM limits, so no
    // waves. t = 20 x 273,000 ns x 3350 / 2039 = 8,970,574 ns.
    EXPECT_EQ(a100->bound_source, "hbm");
    EXPECT_EQ(a100->bound_target, "hbm");
    EXPECT_NEAR(a100->time_point_ns, 5.46e6 * 3350 / 2039, 1e-3);
    EXPECT_NEAR(a100->time_point_ns, 8970574, 1);
}

} // namespace
} // namespace test_analysed_profiles

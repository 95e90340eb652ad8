// SPDX-License-Identifier: Apache-2.0
// Region rollup against hand-computed values, and the regions' JSON round trip and text section.
#include <gtest/gtest.h>

#include "model/profile/profile_json.hpp"
#include "model/roofline/regions.hpp"
#include "model/summary/text_summary.hpp"

namespace irf::model {
namespace model_test_regions {
namespace {

KernelRecord kernel(const std::string& name, std::uint64_t profiled, double time_ns, double inst,
                    double l2, const std::string& bound) {
    KernelRecord k;
    k.name = name;
    k.profiled_launches = profiled;
    k.counters = {{"time_ns", time_ns},    {"inst_warp", inst},    {"l2_sectors_read", l2},
                  {"l2_sectors_write", 0}, {"l2_sectors_atom", 0}, {"l2_sectors_red", 0}};
    k.analysis = KernelAnalysis{};
    k.analysis->irm = IrmResult{};
    k.analysis->irm->bound = bound;
    k.analysis->flops = FlopsResult{};
    return k;
}

/// A: 4 profiled launches (400 ns, 1000 warp inst, 100 L2 sectors, 800 fp32 FLOPs), hbm-bound;
/// 1 of them under "step/fwd", where A ran 10 launches for 1000 ns.
/// B: 2 profiled launches (200 ns, 600 inst, 50 sectors, 300 fp64 FLOPs), issue-bound; both
/// under "step/fwd", where B ran 5 launches for 3000 ns.
Profile two_kernels() {
    Profile p;
    p.kernels.push_back(kernel("A", 4, 400, 1000, 100, "hbm"));
    p.kernels.back().analysis->flops->fp32 = 800;
    p.kernels.back().regions = {{"step/fwd", 10, 1000, 1}, {"step/bwd", 2, 250, 3}};
    p.kernels.push_back(kernel("B", 2, 200, 600, 50, "issue"));
    p.kernels.back().analysis->flops->fp64 = 300;
    p.kernels.back().regions = {{"step/fwd", 5, 3000, 2}};
    return p;
}

TEST(Regions, RollUpWeighsBoundsByTimeAndSumsProfiledLaunches) {
    Profile p = two_kernels();
    roll_up_regions(p);
    ASSERT_EQ(p.regions.size(), 2u);
    const RegionRecord& fwd = p.regions[0]; // 4000 ns before bwd's 250 ns
    EXPECT_EQ(fwd.path, "step/fwd");
    EXPECT_EQ(fwd.time_ns, 4000); // 1000 + 3000: every launch
    EXPECT_EQ(fwd.launches, 15u); // 10 + 5
    EXPECT_EQ(fwd.kernels, 2u);
    ASSERT_TRUE(fwd.analysis);
    const RegionAnalysis& a = *fwd.analysis;
    EXPECT_DOUBLE_EQ(a.bound_shares.at("hbm"), 0.25);   // 1000 / 4000
    EXPECT_DOUBLE_EQ(a.bound_shares.at("issue"), 0.75); // 3000 / 4000
    // A's share of its profiled launches under fwd: 1/4; B's: 2/2.
    EXPECT_EQ(a.profiled_launches, 3u);        // 1 + 2
    EXPECT_DOUBLE_EQ(a.profiled_time_ns, 300); // 0.25 x 400 + 200
    EXPECT_DOUBLE_EQ(a.inst_warp, 850);        // 0.25 x 1000 + 600
    EXPECT_DOUBLE_EQ(a.fp32, 200);             // 0.25 x 800
    EXPECT_DOUBLE_EQ(a.fp64, 300);             // 1 x 300
    ASSERT_TRUE(a.transactions.l2);
    EXPECT_DOUBLE_EQ(*a.transactions.l2, 75);          // 0.25 x 100 + 50
    EXPECT_FALSE(a.transactions.l1);                   // no L1 counters: absent, not 0
    EXPECT_DOUBLE_EQ(*a.gips_warp, 850.0 / 300.0);     // ratio of sums: 2.833
    EXPECT_DOUBLE_EQ(*a.gflops, 500.0 / 300.0);        // (200 + 300) / 300
    EXPECT_DOUBLE_EQ(*a.ii.l2, 850.0 / 75.0);          // 11.33 inst per transaction
    EXPECT_DOUBLE_EQ(*a.ai.l2, 500.0 / (32.0 * 75.0)); // 0.2083 FLOPs per byte
    const RegionAnalysis& bwd = *p.regions[1].analysis;
    EXPECT_DOUBLE_EQ(bwd.inst_warp, 750); // 3/4 x 1000
    EXPECT_DOUBLE_EQ(bwd.bound_shares.at("hbm"), 1.0);
}

TEST(Regions, UnprofiledKernelsCountInTimeButNotInRates) {
    Profile p;
    KernelRecord k;
    k.name = "timed_only";
    k.regions = {{"io", 3, 900, 0}};
    p.kernels.push_back(k);
    roll_up_regions(p);
    ASSERT_EQ(p.regions.size(), 1u);
    EXPECT_EQ(p.regions[0].time_ns, 900);
    EXPECT_FALSE(p.regions[0].analysis); // no kernel was analysed
}

TEST(Regions, JsonRoundTripAndTextSectionBeforeKernels) {
    Profile p = two_kernels();
    roll_up_regions(p);
    const Profile back = profile_from_json(profile_to_json(p));
    ASSERT_EQ(back.regions.size(), 2u);
    EXPECT_EQ(back.regions[0].path, "step/fwd");
    EXPECT_DOUBLE_EQ(*back.regions[0].analysis->ii.l2, 850.0 / 75.0);
    EXPECT_EQ(back.kernels[0].regions.size(), 2u);
    EXPECT_EQ(back.kernels[0].regions[1].profiled_launches, 3u);
    const std::string text = text_summary(p);
    const auto regions = text.find("NVTX regions by inclusive time");
    ASSERT_NE(regions, std::string::npos);
    EXPECT_LT(regions, text.find("kernels by time"));
    EXPECT_NE(text.find("issue 75% hbm 25%"), std::string::npos) << text;
}

} // namespace
} // namespace model_test_regions
} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Warm L2 (docs/model.md, "Warm L2"): between GPUs of one compute capability, an HBM-bound launch
// whose working set fits both L2s is projected by its other resources, since an application's
// launches find such data in the L2 the launches before them filled. Values worked out on the
// seed papers' V100 (tests/unit/model/model_fixtures.hpp).
#include <gtest/gtest.h>

#include "model/analyze.hpp"
#include "model/projection/projection.hpp"
#include "model/projection/warm_l2.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_warm_l2 {
namespace {

// 6400 blocks of 256 threads: 10 full waves of 8 blocks an SM on 80 SMs (fill 1). 1e5 L2 and
// DRAM read sectors = 3.2e6 B, a stream (working set 3.2 MB, inside a 6 MB L2): HBM 3.2e6 / 828
// = 3864.7 ns, 55.2% of a 7000 ns launch; L2 3.2e6 / 2996 = 1068.1 ns; L1 3.2e6 / 14000 =
// 228.6 ns; issue 1e5 / 489.6 = 204.2 ns.
KernelRecord small_stream() {
    return test::dram_stream_kernel(7000, 6400, 256, 1e5, 1e5);
}

// A cc 7.0 V100 with twice its HBM bandwidth and 1.25x its L2's (3745 GB/s).
config::Ceilings faster_memory(const char* cc, std::uint64_t l2_bytes) {
    config::Ceilings c = test::v100_with_limits("t", 1530);
    c.gpu.cc = cc;
    c.gpu.l2_bytes = l2_bytes;
    c.hbm_gbs->value = 1656;
    c.l2_gbs->value = 3745;
    return c;
}

Projection onto(const config::Ceilings& t) {
    config::Ceilings s = test::v100_with_limits("v100", 1530);
    s.gpu.cc = "7.0";
    const KernelAnalysis a = analyze_kernel(small_stream(), s, {t});
    EXPECT_EQ(a.projection.size(), 1u);
    return a.projection.empty() ? Projection{} : a.projection.front();
}

TEST(ModelWarmL2, TheLongestTimeLeavesHbmOut) {
    ResourceArray r;
    r.ns[k_hbm] = 5;
    EXPECT_DOUBLE_EQ(longest_time_without_hbm_ns(r), 0);
    r.ns[k_l2] = 3;
    r.ns[k_issue] = 4;
    EXPECT_DOUBLE_EQ(longest_time_without_hbm_ns(r), 4);
}

TEST(ModelWarmL2, AWorkingSetInBothL2sFollowsTheOtherResources) {
    // HBM's ratio said 7000 x 828 / 1656 = 3500 ns; the L2 binds among the rest on both:
    // 7000 x 1068.1 / 854.5 = 7000 x 2996 / 3745 = 5600 ns.
    const Projection p = onto(faster_memory("7.0", 6ull << 20));
    EXPECT_EQ(p.point_method, "warm-l2");
    EXPECT_NEAR(p.time_point_ns, 5600, 1e-6);
    EXPECT_EQ(p.confidence, "low");
    EXPECT_LE(p.time_low_ns, 3500 + 1e-6); // HBM's point stays inside
    EXPECT_TRUE(test::has_note(p, "working set (~3.2 MB a launch) fits both L2s (6.3 and 6.3 MB)"));
    EXPECT_TRUE(test::has_note(p, "(1.25x instead of HBM's 2.00x)"));
}

TEST(ModelWarmL2, AcrossComputeCapabilitiesHbmKeepsThePoint) {
    const Projection p = onto(faster_memory("8.0", 6ull << 20));
    EXPECT_EQ(p.point_method, "binding-resource");
    EXPECT_NEAR(p.time_point_ns, 3500, 1e-6);
}

TEST(ModelWarmL2, AWorkingSetOverTheTargetsL2KeepsHbm) {
    // 3.2 MB does not fit a 2 MB L2: the target's launches read it from DRAM.
    const Projection p = onto(faster_memory("7.0", 2ull << 20));
    EXPECT_EQ(p.point_method, "binding-resource");
    EXPECT_NEAR(p.time_point_ns, 3500, 1e-6);
}

} // namespace
} // namespace test_warm_l2
} // namespace irf::model

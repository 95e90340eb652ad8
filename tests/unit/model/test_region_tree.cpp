// SPDX-License-Identifier: Apache-2.0
// The NVTX region tree of the summary (#41 item 5): PyTorch's decorations stripped, numbered
// siblings folded, inclusive totals per level, the share of time with counters.
#include <gtest/gtest.h>

#include "model/roofline/region_tree.hpp"
#include "model/summary/summary_regions.hpp"

namespace irf::model {
namespace test_region_tree {
namespace {

KernelRecord kernel(const std::string& name, bool with_counters) {
    KernelRecord k;
    k.name = name;
    k.analysis.emplace(); // analysed, no Instruction Roofline verdict: bound "undecided"
    if (with_counters) {
        k.profiled_launches = 1;
        k.counters["time_ns"] = 1e6;   // the profiled launch: 1 ms
        k.counters["inst_warp"] = 1e8; // 1e8 / 1e6 ns = 100 warp GIPS
    }
    return k;
}

// A training step: the same GEMM in three numbered layers (profiled in layer0 only), the
// optimizer's kernel never profiled, and a lone "conv1" that has no numbered sibling.
Profile step_profile() {
    Profile p;
    KernelRecord gemm = kernel("gemm", true);
    gemm.regions = {{"step/layer0/aten::mm, seq = 11, op_id = 7", 1, 1.0e6, 1},
                    {"step/layer1/aten::mm, seq = 12, op_id = 8", 1, 1.2e6, 0},
                    {"step/layer2/aten::mm, seq = 13, op_id = 9", 1, 1.1e6, 0}};
    KernelRecord adam = kernel("adam", false);
    adam.regions = {{"step/optimizer", 4, 2.0e6, 0}, {"step/conv1", 1, 0.2e6, 0}};
    p.kernels = {gemm, adam};
    return p;
}

TEST(RegionTree, PyTorchDecorationsAreLeftOut) {
    EXPECT_EQ(plain_range_name("aten::mm, seq = 4071, op_id = 9213"), "aten::mm");
    EXPECT_EQ(plain_range_name("aten::addmm, seq = 12, op_id = 34, sizes = [[8, 512]]"),
              "aten::addmm");
    EXPECT_EQ(plain_range_name("forward"), "forward");
    EXPECT_EQ(grouped_path("a/b, seq = 1/c", 2), "a/b");
}

TEST(RegionTree, NumberedSiblingsFoldAndEveryLevelIsInclusive) {
    const std::vector<RegionNode> nodes = region_tree(step_profile());
    ASSERT_EQ(nodes.size(), 5u);
    // Depth first, children by inclusive time: step 1.0 + 1.2 + 1.1 + 2.0 + 0.2 = 5.5 ms;
    // layer* 3.3 ms, then optimizer 2.0 ms, then conv1 0.2 ms.
    EXPECT_EQ(nodes[0].path, "step");
    EXPECT_DOUBLE_EQ(nodes[0].inclusive.time_ns, 5.5e6);
    EXPECT_EQ(nodes[0].inclusive.kernels, 2u);
    EXPECT_EQ(nodes[0].inclusive.launches, 8u); // 3 + 4 + 1
    EXPECT_EQ(nodes[1].path, "step/layer*");
    EXPECT_EQ(nodes[1].level, 1u);
    EXPECT_DOUBLE_EQ(nodes[1].inclusive.time_ns, 3.3e6);
    EXPECT_EQ(nodes[1].members, 3u);
    EXPECT_DOUBLE_EQ(nodes[1].member_min_ns, 1.0e6);
    EXPECT_DOUBLE_EQ(nodes[1].member_max_ns, 1.2e6);
    EXPECT_EQ(nodes[2].path, "step/layer*/aten::mm");
    EXPECT_EQ(nodes[2].members, 1u);
    EXPECT_EQ(nodes[3].path, "step/optimizer");
    EXPECT_EQ(nodes[4].path, "step/conv1"); // no numbered sibling: not folded
    // Counters: only layer0's 1.0 ms was profiled: 1.0 / 3.3 = 30.3% of layer*, 1.0 / 5.5 of
    // step; its GIPS is that launch's 100.
    EXPECT_NEAR(nodes[1].counted_share, 1.0 / 3.3, 1e-12);
    EXPECT_NEAR(nodes[0].counted_share, 1.0 / 5.5, 1e-12);
    ASSERT_TRUE(nodes[1].inclusive.analysis && nodes[1].inclusive.analysis->gips_warp);
    EXPECT_DOUBLE_EQ(*nodes[1].inclusive.analysis->gips_warp, 100.0);
}

TEST(RegionTree, DepthKeepsTheTopLevels) {
    const std::vector<RegionNode> nodes = region_tree(step_profile(), {2, true});
    ASSERT_EQ(nodes.size(), 4u); // step, layer*, optimizer, conv1: aten::mm is level 3
    EXPECT_EQ(nodes[1].path, "step/layer*");
    EXPECT_DOUBLE_EQ(nodes[1].inclusive.time_ns, 3.3e6);
}

TEST(RegionTree, TheSummarySectionIndentsAndSaysPartial) {
    const std::string text = regions_section(step_profile(), 10, 5.5e6, 30, 0);
    EXPECT_NE(text.find("Top 5 of 5 NVTX regions by inclusive time"), std::string::npos) << text;
    EXPECT_NE(text.find("\n  2    layer* [x3] "), std::string::npos) << text;
    EXPECT_NE(text.find("\n  3      aten::mm "), std::string::npos) << text;
    EXPECT_NE(text.find("30% partial"), std::string::npos) << text; // 1.0 / 3.3
    EXPECT_NE(text.find("1.00 ms-1.20 ms"), std::string::npos) << text;
    EXPECT_NE(text.find("(counters: share of the region's time"), std::string::npos) << text;
    // --top 2: the two longest nodes, still in tree order.
    const std::string two = regions_section(step_profile(), 2, 5.5e6, 30, 0);
    EXPECT_NE(two.find("Top 2 of 5"), std::string::npos) << two;
    EXPECT_EQ(two.find("optimizer"), std::string::npos) << two;
}

} // namespace
} // namespace test_region_tree
} // namespace irf::model

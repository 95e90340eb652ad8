// SPDX-License-Identifier: Apache-2.0
// The issue time of a mix on an SM's datapaths (issue 54 item 2; docs/model.md, "Datapaths"),
// worked by hand: a 60:40 FP32:INT32 mix on TU102, GA102 and GA100 per SM per clock.
#include <gtest/gtest.h>

#include "model/projection/resource_times.hpp"
#include "model/roofline/datapath_issue.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_datapath_issue {
namespace {

// Datapaths of one SM at 1 GHz, so a path's GIPS is its warp instructions per clock.
std::map<std::string, config::Quantity>
paths(std::initializer_list<std::pair<const char*, double>> l) {
    std::map<std::string, config::Quantity> out;
    for (const auto& [key, rate] : l) {
        out[key] = test::qty(rate, "warp-GIPS");
    }
    return out;
}

// Per SM per clock (architecture whitepapers, docs/ceilings.md "Datapaths"): TU102 and GA100
// have 64 FP32 and 64 INT32 lanes on separate paths (2 warp instructions each); GA102 has 64
// FP32-only lanes and 64 lanes that run FP32 or INT32. Four schedulers issue 4 per clock.
const auto tu102 = [] { return paths({{"fp32", 2}, {"int32", 2}, {"fp16", 2}, {"lsu", 0.5}}); };
const auto ga100 = [] { return paths({{"fp32", 2}, {"int32", 2}, {"fp64", 1}, {"lsu", 1}}); };
const auto ga102 = [] {
    return paths({{"fp32_or_fp16", 2}, {"fp32_or_int32", 2}, {"fp64", 0.0625}, {"lsu", 0.5}});
};

DatapathShares mix(double int32, double fp32) {
    return {int32, fp32, 0, 0, 0};
}

TEST(ModelDatapathIssue, SixtyFortyFp32Int32OnTu102Ga102Ga100) {
    // TU102: FP32 0.6 / 2 = 0.3 clk per warp instruction, INT32 0.4 / 2 = 0.2, issue 1/4: 0.3.
    EXPECT_NEAR(datapath_issue_ceiling(mix(0.4, 0.6), 4, tu102()), 1 / 0.3, 1e-12);
    // GA100: the same separate paths, 0.3.
    EXPECT_NEAR(datapath_issue_ceiling(mix(0.4, 0.6), 4, ga100()), 1 / 0.3, 1e-12);
    // GA102: FP32 alone 0.6 / 4 = 0.15, INT32 alone 0.4 / 2 = 0.2, both 1.0 / 4 = 0.25, issue
    // 0.25: 0.25, so 1.2x TU102's rate per SM per clock, not the 2x its FP32 lanes suggest.
    EXPECT_NEAR(datapath_issue_ceiling(mix(0.4, 0.6), 4, ga102()), 4, 1e-12);
    EXPECT_NEAR(datapath_issue_ceiling(mix(0.4, 0.6), 4, ga102()) /
                    datapath_issue_ceiling(mix(0.4, 0.6), 4, tu102()),
                1.2, 1e-12);
}

TEST(ModelDatapathIssue, PureFp32DoublesOnGa102PureInt32DoesNot) {
    EXPECT_NEAR(datapath_issue_ceiling(mix(0, 1), 4, tu102()), 2, 1e-12);
    EXPECT_NEAR(datapath_issue_ceiling(mix(0, 1), 4, ga102()), 4, 1e-12);
    EXPECT_NEAR(datapath_issue_ceiling(mix(1, 0), 4, ga102()), 2, 1e-12);
    // FP16 shares GA102's first path with FP32: 0.5 FP16 + 0.5 FP32 -> FP16 alone 0.5 / 2 =
    // 0.25, both 1.0 / 4 = 0.25: 4.
    EXPECT_NEAR(datapath_issue_ceiling({0, 0.5, 0, 0.5, 0}, 4, ga102()), 4, 1e-12);
    // A class no path runs (fp64 on TU102's map) is bound by the schedulers only.
    EXPECT_NEAR(datapath_issue_ceiling({0, 0, 1, 0, 0}, 4, tu102()), 4, 1e-12);
}

TEST(ModelDatapathIssue, KeplerSmxIssuesFourWarpInstructionsPerClock) {
    // A Kepler SMX (tests/data/projection-public/gpuperfpredict/ceilings/, issue 54): 192 FP32
    // lanes, 160 of them also INT32 on a shared path of 5 warp instructions, capped at 4 since
    // the CUDA C++ Programming Guide ("Multiprocessor Level") counts 8 per clock on cc 3.x only
    // with independent pairs in every warp: fp32_or_int32 4, fp32 1, four schedulers.
    const auto kepler = paths({{"fp32_or_int32", 4}, {"fp32", 1}, {"lsu", 1}, {"mufu", 1}});
    // 60:40 FP32:INT32: INT32 alone 0.4 / 4 = 0.1 clk, both 1.0 / 5 = 0.2, issue 1 / 4 = 0.25:
    // 4 per clock. With the former 8 dispatch slots and a 5-wide path: 1 / 8 = 0.125, both
    // 1.0 / 6 = 0.167: 6 per clock, 1.5x a Maxwell SMM's 4 for the same mix.
    EXPECT_NEAR(datapath_issue_ceiling(mix(0.4, 0.6), 4, kepler), 4, 1e-12);
    const auto former = paths({{"fp32_or_int32", 5}, {"fp32", 1}, {"lsu", 1}, {"mufu", 1}});
    EXPECT_NEAR(datapath_issue_ceiling(mix(0.4, 0.6), 8, former), 6, 1e-12);
}

TEST(ModelDatapathIssue, SharesFromTheSassClasses) {
    Counters c;
    c["thread_class_integer"] = 30;
    c["thread_class_bit"] = 10;
    c["thread_class_uniform"] = 10; // its own datapath: counted in the total only
    c["thread_class_fp32"] = 40;
    c["thread_class_memory"] = 10;
    const auto s = datapath_shares(c);
    ASSERT_TRUE(s.has_value());
    EXPECT_DOUBLE_EQ((*s)[0], 0.4); // int32: (30 + 10) / 100
    EXPECT_DOUBLE_EQ((*s)[1], 0.4);
    EXPECT_DOUBLE_EQ((*s)[4], 0.1);
    EXPECT_FALSE(datapath_shares({{"inst_warp", 5}}).has_value());
}

TEST(ModelDatapathIssue, AGpuWithDatapathsTimesTheIssueOnThem) {
    // 80 SMs at 1000 MHz: GA102-like paths of 160 warp GIPS each, issue 320. 1e6 warp
    // instructions of 60:40 FP32:INT32: 1e6 / 320 = 3125 ns (GA102), 1e6 / 266.67 = 3750 (TU102).
    config::Ceilings c = test::v100();
    c.gpu.boost_clock_mhz = 1000;
    c.datapaths = paths({{"fp32_or_fp16", 160}, {"fp32_or_int32", 160}});
    Counters k = test::kernel_counters(1e6, 1e5);
    k["thread_class_fp32"] = 60;
    k["thread_class_integer"] = 40;
    EXPECT_NEAR(*resource_times(k, c, 1.0).ns.at("issue"), 3125, 1e-9);
    c.datapaths = paths({{"fp32", 160}, {"int32", 160}});
    EXPECT_NEAR(*resource_times(k, c, 1.0).ns.at("issue"), 3750, 1e-9);
}

} // namespace
} // namespace test_datapath_issue
} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Dependent-issue latency (docs/model.md, "Dependent-issue latency"): between SM generations of
// different dependent-issue latencies, the share of an SM-bound launch its busiest resource does
// not explain moves by the SMs x clocks and the latencies in cycles. Values worked out on the
// seed papers' V100 (tests/unit/model/model_fixtures.hpp).
#include <gtest/gtest.h>

#include "model/analyze.hpp"
#include "model/projection/issue_latency.hpp"
#include "model/projection/projection.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_issue_latency {
namespace {

// 6400 blocks of 256 threads: 10 full waves on 80 SMs, 5 on 160 (fill 1 on both). 1e8 warp
// instructions: issue 1e8 / 489.6 = 204,248.4 ns on 80 SMs at 1530 MHz, 51.06% of 4e5 ns.
KernelRecord issue_kernel() {
    return test::grid_kernel(4e5, 6400, 256, {{"inst_warp", 1e8}});
}

config::Ceilings gpu(const char* key, const char* cc, int sms) {
    config::Ceilings c = test::v100_with_limits(key, 1530);
    c.gpu.cc = cc;
    c.gpu.sms = sms;
    return c;
}

Projection onto(const config::Ceilings& t) {
    const KernelAnalysis a = analyze_kernel(issue_kernel(), gpu("s", "3.5", 80), {t});
    EXPECT_EQ(a.projection.size(), 1u);
    return a.projection.empty() ? Projection{} : a.projection.front();
}

TEST(ModelIssueLatency, CitedLatenciesByGeneration) {
    EXPECT_DOUBLE_EQ(*dependent_issue_latency_cycles("3.5"), 9);
    EXPECT_DOUBLE_EQ(*dependent_issue_latency_cycles("5.2"), 6);
    EXPECT_DOUBLE_EQ(*dependent_issue_latency_cycles("6.1"), 6);
    EXPECT_DOUBLE_EQ(*dependent_issue_latency_cycles("7.0"), 4);
    EXPECT_DOUBLE_EQ(*dependent_issue_latency_cycles("7.5"), 4);
    EXPECT_FALSE(dependent_issue_latency_cycles("8.0").has_value());
    EXPECT_FALSE(dependent_issue_latency_cycles("").has_value());
}

TEST(ModelIssueLatency, KeplerToMaxwellMovesTheUnexplainedShareByTheLatencies) {
    // Twice the SMs at one clock: the issue ratio says 0.5 (2e5 ns). u = 204,248.4 / 4e5 =
    // 0.5106; the rest moves by 80 x 1530 x 6 / (160 x 1530 x 9) = 1/3:
    // 4e5 x (0.5106 x 0.5 + 0.4894 / 3) = 167,374.7 ns.
    const Projection p = onto(gpu("t", "5.2", 160));
    const double u = 1e8 / 489.6 / 4e5;
    EXPECT_EQ(p.point_method, "issue-latency");
    EXPECT_NEAR(p.time_point_ns, 4e5 * (u * 0.5 + (1 - u) / 3), 1e-6);
    EXPECT_NEAR(p.time_point_ns, 167374.7, 0.1);
    EXPECT_GE(p.time_high_ns, 2e5 - 1e-6); // the ratio's point stays inside
    EXPECT_TRUE(test::has_note(p, "the busiest resource explains 51.1% of a launch"));
    EXPECT_TRUE(test::has_note(p, "the latencies 6 / 9 cycles"));
}

TEST(ModelIssueLatency, OneLatencyOrAnUncitedOneKeepsTheRatio) {
    for (const char* cc : {"3.7", "8.0"}) {
        const Projection p = onto(gpu("t", cc, 160));
        EXPECT_EQ(p.point_method, "binding-resource") << cc;
        EXPECT_NEAR(p.time_point_ns, 2e5, 1e-6) << cc;
    }
}

TEST(ModelIssueLatency, AMemoryBoundSourceKeepsTheRatio) {
    // 1e7 DRAM and L2 read sectors: 3.2e8 B / 828 = 386,473 ns, HBM binds.
    KernelRecord k = issue_kernel();
    k.counters["l2_sectors_read"] = 1e7;
    k.counters["dram_sectors_read"] = 1e7;
    const KernelAnalysis a = analyze_kernel(k, gpu("s", "3.5", 80), {gpu("t", "5.2", 160)});
    ASSERT_EQ(a.projection.size(), 1u);
    EXPECT_EQ(a.projection.front().bound_source, "hbm");
    EXPECT_NE(a.projection.front().point_method, "issue-latency");
}

} // namespace
} // namespace test_issue_latency
} // namespace irf::model

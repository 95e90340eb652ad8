// SPDX-License-Identifier: Apache-2.0
// Projection (docs/model.md: PROJ Eq. 9) worked by hand for an HBM-bound, an issue-bound and
// an integer-only kernel.
#include <gtest/gtest.h>

#include "model/analyze.hpp"
#include "model/projection/projection.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_projection {
namespace {

KernelRecord kernel(std::uint32_t blocks) {
    KernelRecord k;
    k.name = "k";
    k.launches = 1;
    k.profiled_launches = 1;
    k.time_ns.total = 1e5;
    k.launch.grid = {blocks, 1, 1};
    k.counters = test::zero_counters();
    k.counters["time_ns"] = 1e5;
    return k;
}

const Projection& only_projection(const KernelAnalysis& a) {
    EXPECT_EQ(a.projection.size(), 1u);
    return a.projection.at(0);
}

TEST(ModelProjection, TimeFormOfEquationNine) {
    // Perf_t = Perf_s / r_s x r_t, so t_t = t_s x r_s / r_t = 100 x 10 / 20
    EXPECT_DOUBLE_EQ(projected_time_ns(100, 10, 20), 50);
}

TEST(ModelProjection, HbmBoundKernelOntoDoubleHbm) {
    KernelRecord k = kernel(1000);
    k.counters["inst_warp"] = 1e6;
    k.counters["sectors_global_ld"] = 5e6; // 2.5e6 sectors hit in L1 = 8e7 B
    k.counters["l2_sectors_read"] = 2.5e6;
    k.counters["dram_sectors_read"] = 2.5e6; // 8e7 B from HBM
    config::Ceilings target = test::v100();
    target.gpu.key = "v100-hbm2x";
    target.hbm_gbs->value = 1656;
    const KernelAnalysis a = analyze_kernel(k, test::v100(), {target});
    ASSERT_TRUE(a.irm.has_value());
    EXPECT_EQ(a.irm->bound, "hbm"); // 0.4 x 25.875 = 10.35 < 37.45 (L2) < 87.5 (L1)
    const Projection& p = only_projection(a);
    EXPECT_EQ(p.target, "v100-hbm2x");
    EXPECT_EQ(p.basis, "instructions"); // no FP FLOPs
    // HBM and L2 levels (no L2 hits): t = 1e5 x (8e7/1656) / (8e7/828) = 5e4
    EXPECT_NEAR(p.time_point_ns, 5e4, 1e-6);
    EXPECT_NEAR(p.time_low_ns, 5e4, 1e-6);
    // L1 level, Eq. 6: t = 1e5 x (8e7/14000 + 8e7/1656) / (8e7/14000 + 8e7/828) = 52792.0
    const double l1 = 1e5 * (8e7 / 14000 + 8e7 / 1656) / (8e7 / 14000 + 8e7 / 828);
    EXPECT_NEAR(p.time_high_ns, l1, 1e-6);
    EXPECT_NEAR(p.time_high_ns, 52792.0, 0.1);
    EXPECT_NEAR(p.speedup_point, 2, 1e-9);
    EXPECT_EQ(p.confidence, "high"); // 80 MB > both L2s, 1000 blocks > 80 SMs
}

// The same HBM traffic over ten times the time: its busiest resource, HBM at 8e7 B / 828 GB/s =
// 96,618 ns, is 9.7% of 1e6 ns, under the 10% at which no ceiling explains the duration. At
// 9e5 ns it is 10.7%: still high.
TEST(ModelProjection, ALatencyBoundKernelIsLowConfidence) {
    for (const double ns : {1e6, 9e5}) {
        KernelRecord k = kernel(1000);
        k.time_ns.total = ns;
        k.counters["time_ns"] = ns;
        k.counters["inst_warp"] = 1e6;
        k.counters["sectors_global_ld"] = 5e6;
        k.counters["l2_sectors_read"] = 2.5e6;
        k.counters["dram_sectors_read"] = 2.5e6;
        config::Ceilings target = test::v100();
        target.gpu.key = "v100-hbm2x";
        target.hbm_gbs->value = 1656;
        const KernelAnalysis a = analyze_kernel(k, test::v100(), {target});
        const Projection& p = only_projection(a);
        bool noted = false;
        for (const std::string& note : p.notes) {
            noted = noted || note.find("latency-bound: its busiest resource is 9.7% of its time "
                                       "on the source") == 0;
        }
        EXPECT_EQ(p.confidence, ns == 1e6 ? "low" : "high") << ns;
        EXPECT_EQ(noted, ns == 1e6) << testing::PrintToString(p.notes);
        EXPECT_NEAR(p.speedup_point, 2, 1e-9); // the point is unchanged: only the confidence
    }
}

TEST(ModelProjection, IssueBoundFp64KernelOntoTwiceTheSms) {
    KernelRecord k = kernel(1000);
    k.counters["inst_warp"] = 4.896e7; // 489.6 GIPS over 1e5 ns: the V100 peak
    k.counters["inst_thread"] = 32 * 4.896e7;
    k.counters["thread_dfma"] = 1e8; // 2e8 FLOPs, all FMA
    k.counters["sectors_global_ld"] = 1000;
    k.counters["l2_sectors_read"] = 1000;
    k.counters["dram_sectors_read"] = 1000;
    config::Ceilings target = test::v100();
    target.gpu.key = "v100-2x-sms";
    target.gpu.sms = 160;
    target.gflops["fp64_fma"].value = 15600;
    const KernelAnalysis a = analyze_kernel(k, test::v100(), {target});
    ASSERT_TRUE(a.irm.has_value());
    EXPECT_EQ(a.irm->bound, "issue");
    const Projection& p = only_projection(a);
    // Issue (4.896e7 / 489.6 = 1e5 ns) outlasts the FLOPs (2e8 / 7800 = 25641 ns) on both GPUs
    EXPECT_EQ(p.basis, "instructions");
    EXPECT_EQ(p.bound_source, "issue");
    // Compute binds at every level: t = 1e5 x (4.896e7 / 979.2) / (4.896e7 / 489.6) = 5e4
    EXPECT_NEAR(p.time_low_ns, 5e4, 1e-6);
    EXPECT_NEAR(p.time_point_ns, 5e4, 1e-6);
    EXPECT_NEAR(p.time_high_ns, 5e4, 1e-6);
    EXPECT_NEAR(p.speedup_point, 2, 1e-9);
    EXPECT_EQ(p.confidence, "high");
}

TEST(ModelProjection, IntegerOnlyL2BoundKernelWithFewBlocks) {
    KernelRecord k = kernel(40); // fewer blocks than the target's 80 SMs
    k.counters["inst_warp"] = 1e6;
    k.counters["sectors_global_ld"] = 1e6;
    k.counters["l2_sectors_read"] = 1e6;
    k.counters["dram_sectors_read"] = 1e4; // 0.32 MB: fits both L2s
    config::Ceilings target = test::v100();
    target.gpu.key = "v100-l2x2";
    target.l2_gbs->value = 5992;
    const KernelAnalysis a = analyze_kernel(k, test::v100(), {target});
    ASSERT_TRUE(a.irm.has_value());
    EXPECT_EQ(a.irm->bound, "l2"); // 1 x 93.625 < 437.5 (L1) < 489.6 < 100 x 25.875 (HBM)
    const Projection& p = only_projection(a);
    EXPECT_EQ(p.basis, "instructions");
    // Point, the binding resource (L2 on both): 3.2e7 B at 2996 then 5992 GB/s;
    // t = 1e5 x (3.2e7/5992) / (3.2e7/2996) = 5e4
    EXPECT_EQ(p.bound_source, "l2");
    EXPECT_EQ(p.bound_target, "l2");
    EXPECT_NEAR(p.time_point_ns, 5e4, 1e-6);
    EXPECT_NEAR(p.speedup_point, 2, 1e-9);
    // Eq. 9 interval. L2 level, Eq. 7: L2 hits 3.168e7 B, HBM 3.2e5 B;
    // t = 1e5 x (3.168e7/5992 + 3.2e5/828) / (3.168e7/2996 + 3.2e5/828) = 51763.0
    const double l2 = 1e5 * (3.168e7 / 5992 + 3.2e5 / 828) / (3.168e7 / 2996 + 3.2e5 / 828);
    EXPECT_NEAR(p.time_eq9_low_ns, l2, 1e-6); // L1 level has no L1 hits: same as L2
    EXPECT_NEAR(p.time_eq9_low_ns, 51763.0, 0.1);
    // The point 5e4 lies below the Eq. 9 interval, so the reported low end is the point
    EXPECT_NEAR(p.time_low_ns, 5e4, 1e-6);
    // HBM level: 1e6 / (3.2e5/828) GIPS > 489.6 on both, so issue binds: ratio 1
    EXPECT_NEAR(p.time_high_ns, 1e5, 1e-6);
    // Mean (performance interval, so harmonic in time): 2 / (1/51763.0 + 1/1e5) = 68215.9
    EXPECT_NEAR(p.time_mean_ns, 2 / (1 / l2 + 1 / 1e5), 1e-6);
    EXPECT_EQ(p.confidence, "low");
    bool said_why = false;
    for (const std::string& n : p.notes) {
        said_why = said_why || n.find("grid of 40 blocks < 80 SMs") != std::string::npos;
    }
    EXPECT_TRUE(said_why);
}

TEST(ModelProjection, StreamingWorkingSetFittingOnlyTheTargetL2KeepsItsTraffic) {
    KernelRecord k = kernel(1000);
    k.counters["inst_warp"] = 1e6;
    k.counters["sectors_global_ld"] = 625000;
    k.counters["l2_sectors_read"] = 625000;
    k.counters["dram_sectors_read"] = 625000; // 20 MB per launch: > 6 MB, < 50 MB
    config::Ceilings target = test::v100();
    target.gpu.key = "big-l2";
    target.gpu.l2_bytes = 50ull << 20;
    const KernelAnalysis a = analyze_kernel(k, test::v100(), {target});
    const Projection& p = only_projection(a);
    EXPECT_TRUE(test::has_note(p, "fits the target's L2 only"));
    // Streaming (L2 traffic = DRAM = 20 MB): the working set is all of it, and on the big L2 its
    // DRAM traffic stays the compulsory 20 MB (docs/model.md, "L2 capacity"): the same bytes,
    // so nothing is re-estimated and the L2 costs no confidence.
    EXPECT_TRUE(test::has_note(p, "no reuse in L2, so the same DRAM traffic on the target"));
    ASSERT_TRUE(p.l2.has_value());
    EXPECT_FALSE(p.l2->re_estimated);
    EXPECT_DOUBLE_EQ(p.l2->working_set_bytes, 2e7);
    EXPECT_DOUBLE_EQ(p.l2->dram_target_bytes, 2e7);
    // No other low-confidence reason applies (docs/model.md, Projection 4): the waves are not
    // counted (no SM limits) but 1000 blocks >= 80 SMs, every resource is known, and the block
    // fits. So the confidence stays high.
    EXPECT_EQ(p.confidence, "high");
}

// t_s is the kernel's total over all launches (time_ns.total), else the profiled time
// (docs/model.md, "Projection"). Ten launches of 1e5 ns, one of them profiled, onto twice the HBM
// bandwidth: t = 1e6 x (8e7 / 1656) / (8e7 / 828) = 5e5 ns; the profiled launch alone gives 5e4.
TEST(ModelProjection, TheKernelsTotalTimeIsProjectedNotTheProfiledLaunch) {
    for (const double total : {1e6, 0.0}) {
        KernelRecord k = kernel(1000);
        k.launches = 10;
        k.time_ns.total = total; // 0: no total recorded, so the profiled time stands for it
        k.counters["inst_warp"] = 1e6;
        k.counters["sectors_global_ld"] = 5e6;
        k.counters["l2_sectors_read"] = 2.5e6;
        k.counters["dram_sectors_read"] = 2.5e6;
        config::Ceilings target = test::v100();
        target.gpu.key = "v100-hbm2x";
        target.hbm_gbs->value = 1656;
        const KernelAnalysis a = analyze_kernel(k, test::v100(), {target});
        const Projection& p = only_projection(a);
        const double expected = total > 0 ? 5e5 : 5e4;
        EXPECT_NEAR(p.time_point_ns, expected, 1e-6) << total;
        EXPECT_NEAR(p.time_low_ns, expected, 1e-6) << total;
        EXPECT_NEAR(p.speedup_point, 2, 1e-9) << total;
    }
}

TEST(ModelProjection, ZeroTimeKernelIsNotProjected) {
    KernelRecord k = kernel(1000);
    k.counters["time_ns"] = 0;
    k.counters["inst_warp"] = 10;
    const KernelAnalysis a = analyze_kernel(k, test::v100(), {test::v100()});
    EXPECT_TRUE(a.projection.empty());
    bool said_why = false;
    for (const std::string& m : a.missing) {
        said_why = said_why || m == "projection[v100]: kernel time is 0 ns or absent";
    }
    EXPECT_TRUE(said_why);
}

} // namespace
} // namespace test_projection
} // namespace irf::model

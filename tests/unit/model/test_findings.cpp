// SPDX-License-Identifier: Apache-2.0
// The three findings of issue 18 (model fidelity), reproduced on the shipped ceilings: each kernel
// is projected on the resource that binds it (docs/model.md: PROJ Eq. 9 in time form, with
// the per-precision compute time of HRM Eq. 2-3), and the L2 ceilings
// follow one method per die x SMs x clock (docs/ceilings.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "config/gpu_database.hpp"
#include "model/analyze.hpp"
#include "model/roofline/transactions.hpp"
#include "tests/unit/model/findings_fixtures.hpp"

namespace irf::model {
namespace test_findings {
namespace {

using test::project_one;
using test::shipped;

// 1e6 sectors at L1, L2 and DRAM: 32 MB, far from binding the issue-bound kernels below.
void light_memory(KernelRecord& k) {
    for (const char* name : {"sectors_global_ld", "l2_sectors_read", "dram_sectors_read"}) {
        k.counters[name] = 1e6;
    }
}

TEST(ModelFindings, IssueBoundIntegerKernelH100ToL40s) {
    KernelRecord k = test::full_waves_kernel(1e6);
    k.counters["inst_warp"] = 1.0454e9; // 1.0454e9 / 1045.4 warp GIPS = 1e6 ns: issue-bound
    k.counters["thread_dfma"] = 1e6;    // 2e6 FLOPs = 2 GFLOP/s; on the L40S 2e6 / 1431.4 = 1397 ns
    light_memory(k);
    const Projection p = project_one(k, "h100-sxm5", "l40s");
    EXPECT_EQ(p.bound_source, "issue");
    EXPECT_EQ(p.bound_target, "issue");
    // t = 1e6 x (1.0454e9 / 1431.4) / 1e6 = 730334 ns: 1045.4 / 1431.4 -> 1.369x faster
    EXPECT_NEAR(p.time_point_ns, 1e6 * 1045.4 / 1431.4, 1e-3);
    EXPECT_NEAR(p.speedup_point, 1.369, 0.001);
}

// Issue #18 item 11: with the mix known, the busiest pipe caps the issue rate. Half LD/ST, half
// FP32: the H100 issues at most 261.4 / 0.5 = 522.8 warp GIPS (LD/ST, 32 units per SM), the
// L40S 178.9 / 0.5 = 357.8 (16 units per SM), although its schedulers are 1.37x faster. The
// shipped files' datapaths (issue 54 item 2) give the same caps unrounded: 132 x 1 x 1.98 / 0.5
// = 522.72 and 142 x 0.5 x 2.52 / 0.5 = 357.84.
TEST(ModelFindings, LoadStoreHeavyKernelH100ToL40sIsLsuBound) {
    KernelRecord k = test::full_waves_kernel(2e6);
    k.counters["inst_warp"] = 1e9; // 1e9 / 522.72 = 1,913,070 ns of issue on the H100
    k.counters["inst_thread"] = 3.2e10;
    k.counters["thread_class_memory"] = 1.6e10;
    k.counters["thread_class_fp32"] = 1.6e10;
    light_memory(k);
    const Projection p = project_one(k, "h100-sxm5", "l40s");
    EXPECT_EQ(p.bound_source, "issue");
    EXPECT_EQ(p.bound_target, "issue");
    EXPECT_NEAR(p.resource_ns_source.at("issue"), 1e9 / 522.72, 1e-3);
    // t = 2e6 x (1e9 / 357.84) / (1e9 / 522.72) = 2,921,529 ns: 1.46x slower, not 1.37x faster.
    EXPECT_NEAR(p.time_point_ns, 2e6 * 522.72 / 357.84, 1e-3);
    EXPECT_NEAR(1.0 / p.speedup_point, 1.461, 0.001);
}

// Issue 40 item 5: DFMA:FFMA = 1:2. The FP64 and FMA pipes run at once, so the FLOP time is the
// longer of the two, not their sum.
TEST(ModelFindings, Fp64PlusFp32KernelH100ToL40s) {
    KernelRecord k = test::full_waves_kernel(1e8);
    k.counters["thread_dfma"] = 1e12;   // 2e12 FP64 FLOPs
    k.counters["thread_ffma"] = 2e12;   // 4e12 FP32 FLOPs
    k.counters["inst_warp"] = 9.375e10; // (1e12 + 2e12) / 32
    k.counters["inst_thread"] = 3e12;   // no predication
    const Projection p = project_one(k, "h100-sxm5", "l40s");
    // H100: issue 9.375e10 / 1045.4 = 8.9678e7 ns; FP64 2e12 / 33454.1 = 5.9783e7, FMA
    // 4e12 / 66908.2 = 5.9783e7: the pipes overlap, so issue binds (their sum, 1.1957e8, said
    // flops).
    EXPECT_EQ(p.bound_source, "issue");
    EXPECT_NEAR(p.resource_ns_source.at("flops"), 2e12 / 33454.1, 1.0);
    // L40S: FP64 2e12 / 1431.4 = 1.39723e9 ns > FMA 4e12 / 91607 = 4.3665e7 > issue 6.5495e7
    EXPECT_EQ(p.bound_target, "flops");
    // t = 1e8 x 1.39723e9 / 8.9678e7 = 1.5581e9 ns: 0.0642x (the sum gave 0.083x)
    EXPECT_NEAR(p.time_point_ns, 1e8 * (2e12 / 1431.4) / (9.375e10 / 1045.4), 1.0);
    EXPECT_NEAR(p.speedup_point, 0.0642, 0.0001);
}

TEST(ModelFindings, L2BoundKernelH100ToH200IsNotFaster) {
    KernelRecord k = test::full_waves_kernel(4e6);
    k.counters["inst_warp"] = 1e9;         // 1e9 / 1045.4 = 956,572 ns
    k.counters["sectors_global_ld"] = 1e9; // L1: 3.2e10 B / 33454 = 956,535 ns
    k.counters["l2_sectors_read"] = 1e9;   // L2: 3.2e10 B / 10300 = 3,106,796 ns on both GPUs
    k.counters["dram_sectors_read"] = 1e7; // HBM: 3.2e8 B / 3352.3 = 95,457 ns (4800 on the H200)
    const Projection p = project_one(k, "h100-sxm5", "h200-sxm");
    EXPECT_EQ(p.bound_source, "l2");
    EXPECT_EQ(p.bound_target, "l2");
    // Same die, SMs, clock and L2: t = 4e6 x 3106796 / 3106796 = 4e6 (was 1.30x faster), but
    // for the shipped launch floors (docs/model.md, "Launch floor + work"):
    // 738.9 + (4e6 - 896.4) x 1 = 3,999,842.5 ns.
    EXPECT_NEAR(p.time_point_ns, 738.9 + (4e6 - 896.4), 1e-3);
    EXPECT_NEAR(p.speedup_point, 4e6 / 3999842.5, 1e-12);
}

TEST(CeilingsDatabaseL2, OneFigurePerDieSmsAndClock) {
    // GH100 at 132 SMs x 1980 MHz: 10300 GB/s (H200 gpu-l2-cache plateau = 39.41 B/clk/SM)
    EXPECT_DOUBLE_EQ(shipped("h100-sxm5").l2_gbs->value, shipped("h200-sxm").l2_gbs->value);
    EXPECT_DOUBLE_EQ(shipped("gh200").l2_gbs->value, shipped("h200-sxm").l2_gbs->value);
    // B200: 148 SMs x 39.41 B/clk/SM x 1980 MHz = 11548.9 GB/s (GH100's per-SM rate assumed)
    EXPECT_NEAR(shipped("b200").l2_gbs->value, 148 * 39.41 * 1.98, 1.0);
    // A100: the gpu-l2-cache plateau, 5480 GB/s (108 x 35.99 B/clk/SM x 1.41 GHz), like the others
    for (const char* key : {"a100-pcie", "a100-sxm4-40gb", "a100-sxm4-80gb"}) {
        EXPECT_DOUBLE_EQ(shipped(key).l2_gbs->value, 5480) << key;
        EXPECT_EQ(shipped(key).l2_gbs->provenance, config::Provenance::published) << key;
    }
    // AD102: L40S 142 x 14.99 x 2.52 = 5363.9; RTX 4090 128 x 14.99 x 2.52 = 4835.0
    EXPECT_NEAR(shipped("l40s").l2_gbs->value / 142, shipped("rtx-4090").l2_gbs->value / 128, 0.01);
}

TEST(CeilingsDatabaseL2, Rtx4090Int8IsDense) {
    // 128 SMs x 2048 op/clk/SM x 2.52 GHz = 660.6 TOPS dense; 1321.2 is the 2:4-sparse figure
    EXPECT_NEAR(shipped("rtx-4090").tensor_tflops.at("int8").value, 660.6, 0.05);
    EXPECT_NEAR(shipped("rtx-4090").tensor_sparse_tflops.at("int8").value, 1321.2, 0.05);
}

TEST(CeilingsDatabaseL2, PaperV100ErtFiguresAreSelectable) {
    const config::Ceilings ert = shipped("v100-sxm2-ert");
    // docs/model.md: IRM 3.1: 14000 / 2996 / 828 GB/s = 437.5 / 93.6 / 25.9 GTXN/s
    EXPECT_NEAR(gtxn_per_s(ert.l1_gbs->value), 437.5, 1e-9);
    EXPECT_NEAR(gtxn_per_s(ert.l2_gbs->value), 93.6, 0.05);
    EXPECT_NEAR(gtxn_per_s(ert.hbm_gbs->value), 25.9, 0.05);
}

} // namespace
} // namespace test_findings
} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// The FP pipes' active share in Perf_ceil (docs/model.md, "FP active share": PROJ Eq. 3; issue
// 40 item 9) against hand-computed values.
#include <gtest/gtest.h>

#include "model/projection/resource_times.hpp"
#include "model/roofline/flop_roofline.hpp"
#include "model/roofline/kernel_ceilings.hpp"
#include "model/roofline/predication.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_fp_share {
namespace {

// A kernel half predicated overall (inst_thread 16000 / (32 x 1000) = 0.5) whose FP32 work is
// 100 fully active FFMA warp instructions: 3200 thread FFMAs, 6400 FLOPs. On the V100 fixture
// Perf_mix = the FP32 FMA peak 15700 GFLOP/s (all FMA, projection Eq. 2).
Counters half_predicated_ffma_kernel() {
    Counters c = test::kernel_counters(1000, 1000);
    c["inst_thread"] = 16000;
    c["thread_ffma"] = 3200;
    return c;
}

void add_fma_pipe(Counters& c, double warps, double threads) {
    c["inst_pipe_fma"] = warps;
    c["thread_pipe_fma"] = threads;
}

KernelAnalysis analysed(const Counters& c, std::vector<std::string>& missing) {
    KernelAnalysis a;
    a.predication = predication(c, missing);
    a.flops = flop_roofline(c, test::v100(), missing);
    return a;
}

TEST(ModelFpShare, SharePerPipeFromThreadAndWarpCounters) {
    Counters c;
    add_fma_pipe(c, 100, 3200); // 3200 / (32 x 100) = 1
    c["inst_pipe_fp64"] = 100;  // 800 / 3200 = 0.25
    c["thread_pipe_fp64"] = 800;
    c["inst_pipe_fp16"] = 10; // 330 / (32 x 10) > 1: inconsistent, no share
    c["thread_pipe_fp16"] = 330;
    EXPECT_DOUBLE_EQ(*fp_active_share(c, "fp32"), 1.0);
    EXPECT_DOUBLE_EQ(*fp_active_share(c, "fp64"), 0.25);
    EXPECT_FALSE(fp_active_share(c, "fp16").has_value());
    EXPECT_FALSE(fp_active_share(c, "tensor_fp16").has_value()); // the tensor peak has no share
    EXPECT_EQ(fp_share_pipe("fp32"), "fma");
    EXPECT_EQ(fp_share_pipe("fp16"), "fp16");
    EXPECT_EQ(fp_share_pipe("tensor_bf16"), "");
    c["inst_pipe_fma"] = 0; // the pipe issued nothing: no share
    EXPECT_FALSE(fp_active_share(c, "fp32").has_value());
    EXPECT_DOUBLE_EQ(fp_ceiling_share(c, "fp32", 0.5), 0.5); // the kernel-wide share stands in
    EXPECT_DOUBLE_EQ(fp_ceiling_share(c, "fp64", 0.5), 0.25);
}

// Issue 40 item 9: fully active FFMAs in a kernel 50% predicated. The kernel-wide share gives
// Perf_ceil = 0.5 x 15700 = 7850 GFLOP/s; the FMA pipe's share (3200 / (32 x 100) = 1) gives
// 15700: the FP ceiling doubles.
TEST(ModelFpShare, FullyActiveFfmaInHalfPredicatedKernelDoublesPerfCeil) {
    Counters c = half_predicated_ffma_kernel();
    std::vector<std::string> missing;
    const auto today = kernel_ceilings(c, test::v100(), analysed(c, missing));
    EXPECT_DOUBLE_EQ(today.at("perf_mix_gflops"), 15700);
    EXPECT_DOUBLE_EQ(today.at("perf_ceil_gflops"), 7850);
    add_fma_pipe(c, 100, 3200);
    const auto measured = kernel_ceilings(c, test::v100(), analysed(c, missing));
    EXPECT_DOUBLE_EQ(measured.at("perf_ceil_gflops"), 15700);
}

// The same ceiling reaches the FLOP roofline's by_precision and the FLOP time of the
// projection: 6400 FLOPs / 15.7 FLOP/ns = 407.64 ns (815.29 ns at the kernel-wide 0.5).
TEST(ModelFpShare, FlopTimeAndPrecisionCeilingUseTheShare) {
    Counters c = half_predicated_ffma_kernel();
    EXPECT_DOUBLE_EQ(*precision_ceiling_gflops(c, test::v100(), "fp32", 0.5), 7850);
    std::map<std::string, double> terms;
    std::vector<std::string> unknown;
    EXPECT_DOUBLE_EQ(*flop_time_ns(kernel_work(c), test::v100(), 0.5, terms, unknown),
                     6400.0 / 7850);
    add_fma_pipe(c, 100, 3200);
    EXPECT_DOUBLE_EQ(*precision_ceiling_gflops(c, test::v100(), "fp32", 0.5), 15700);
    EXPECT_DOUBLE_EQ(*flop_time_ns(kernel_work(c), test::v100(), 0.5, terms, unknown),
                     6400.0 / 15700);
    std::vector<std::string> missing;
    const auto f = flop_roofline(c, test::v100(), missing);
    ASSERT_TRUE(f.has_value());
    EXPECT_DOUBLE_EQ(*f->by_precision.at("fp32").ceiling_gflops, 15700);
}

// Without the pipe counters the kernel says the stand-in; at predication 1 nothing is missing
// (every pipe is then fully active), nor with the counters collected.
TEST(ModelFpShare, AbsentShareIsSaidOnlyWhenItCouldMatter) {
    Counters c = half_predicated_ffma_kernel();
    std::vector<std::string> missing;
    ASSERT_TRUE(flop_roofline(c, test::v100(), missing).has_value());
    ASSERT_EQ(missing.size(), 1u);
    EXPECT_EQ(missing[0], "flops.active_share.fp32: thread_pipe_fma / inst_pipe_fma absent "
                          "(IRF_METRICS=pipe_mix counts them; thread_pipe_fp64 only on TU10x, "
                          "GA100 and GH100); Perf_ceil uses the kernel-wide predication");
    missing.clear();
    add_fma_pipe(c, 0, 0);
    ASSERT_TRUE(flop_roofline(c, test::v100(), missing).has_value());
    ASSERT_EQ(missing.size(), 1u);
    EXPECT_NE(missing[0].find("inst_pipe_fma inconsistent (the pipe issued nothing"),
              std::string::npos)
        << missing[0];
    missing.clear();
    add_fma_pipe(c, 100, 3200);
    ASSERT_TRUE(flop_roofline(c, test::v100(), missing).has_value());
    EXPECT_TRUE(missing.empty()) << missing[0];
    c.erase("thread_pipe_fma");
    c["inst_thread"] = 32000; // predication 1
    ASSERT_TRUE(flop_roofline(c, test::v100(), missing).has_value());
    EXPECT_TRUE(missing.empty()) << missing[0];
}

} // namespace
} // namespace test_fp_share
} // namespace irf::model

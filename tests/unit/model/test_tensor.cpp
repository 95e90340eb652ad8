// SPDX-License-Identifier: Apache-2.0
// Tensor cores (issue 18 item 3): 512 FLOPs per instruction is Volta's HMMA only
// (docs/model.md: IRM section 4), and unmeasured tensor work leaves the bound undecided.
#include <gtest/gtest.h>

#include "model/analyze.hpp"
#include "model/projection/resource_times.hpp"
#include "model/roofline/counters.hpp"
#include "model/roofline/flop_roofline.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_tensor {
namespace {

Counters tensor_only_instructions() {
    Counters c = test::zero_counters();
    c["time_ns"] = 1000;
    c["inst_warp"] = 1000;
    c["inst_tensor"] = 100; // tensor_ops_* are 0: ops by type not collected on this sample
    return c;
}

TEST(ModelTensor, VoltaFallsBackTo512FlopsPerHmma) {
    config::Ceilings v100 = test::v100();
    v100.gpu.cc = "7.0";
    std::vector<std::string> missing;
    const auto f = flop_roofline(tensor_only_instructions(), v100, missing);
    ASSERT_TRUE(f.has_value());
    // 125 TFLOP/s / 512 FLOPs per HMMA = 244.14 GIPS
    EXPECT_DOUBLE_EQ(*f->hmma_gips_ceiling, 125000.0 / 512);
}

TEST(ModelTensor, OtherArchitecturesNeverUse512) {
    config::Ceilings h100 = test::v100();
    h100.gpu.cc = "9.0";
    std::vector<std::string> missing;
    const auto f = flop_roofline(tensor_only_instructions(), h100, missing);
    ASSERT_TRUE(f.has_value());
    EXPECT_FALSE(f->hmma_gips_ceiling.has_value()); // absent, never 125000 / 512 nor 0
    bool said = false;
    for (const std::string& m : missing) {
        said = said || m.find("512 is Volta's HMMA only") != std::string::npos;
    }
    EXPECT_TRUE(said);
}

TEST(ModelTensor, UnmeasuredTensorWorkLeavesTheBoundUndecided) {
    const ResourceTimes r = resource_times(tensor_only_instructions(), test::v100(), 1.0);
    EXPECT_FALSE(r.ns.at("flops").has_value());
    EXPECT_EQ(binding_resource(r), "");
    ASSERT_FALSE(r.unknown.empty());
    EXPECT_EQ(r.unknown.front(), "flops: tensor instructions without tensor_ops_* counters");
}

// The H100 recording: nvcc zeroes registers with HFMA2.MMA, which the tensor pipe counts (1 a
// warp in fma-chains), and the kernel's tensor-types sample then measures 0 ops of every type.
TEST(ModelTensor, MeasuredZeroTensorOpsMeanNoTensorMath) {
    Counters moves = tensor_only_instructions();
    EXPECT_TRUE(issues_tensor_math(moves)) << "ops not measured: it may do tensor math";
    moves["tensor_ops_fp16"] = 0;
    moves["tensor_ops_bf16"] = 0;
    EXPECT_FALSE(issues_tensor_math(moves));
    const ResourceTimes r = resource_times(moves, test::v100(), 1.0);
    for (const std::string& u : r.unknown) {
        EXPECT_EQ(u.find("tensor instructions"), std::string::npos) << u;
    }
    std::vector<std::string> missing;
    const auto f = flop_roofline(moves, test::v100(), missing);
    ASSERT_TRUE(f.has_value());
    EXPECT_FALSE(f->hmma_gips_ceiling.has_value());
    moves["tensor_ops_bf16"] = 4096; // an mma.sync.m16n8k16 warp's 4096 ops
    EXPECT_TRUE(issues_tensor_math(moves));
}

// Issue 40 item 9: INT8 tensor ops are integer work, not FLOPs, though they take tensor time.
TEST(ModelTensor, Int8OpsAreNotFlops) {
    Counters c = tensor_only_instructions();
    c["tensor_ops_int8"] = 4e6;
    c["tensor_ops_fp16"] = 1e6;
    std::vector<std::string> missing;
    const auto f = flop_roofline(c, test::v100(), missing);
    ASSERT_TRUE(f.has_value());
    // Tensor FLOPs = the fp16 1e6 only; gflops = 1e6 / 1000 ns = 1000 (with int8: 5000)
    EXPECT_DOUBLE_EQ(f->tensor, 1e6);
    EXPECT_DOUBLE_EQ(f->gflops, 1000);
}

// Issue 41 item 3: the tensor pipe's use is each type's ops per second over its dense peak,
// summed (one pipe). fp16 6.5e11 ops in 1e6 ns = 650,000 GFLOP/s of 989,430: 65.694%; bf16
// 1e11 ops = 100,000 of 989,430: 10.107%; together 75.801%.
TEST(ModelTensor, TensorPipeUseAddsTheTypes) {
    std::map<std::string, PrecisionFlops> by_precision;
    by_precision["fp32"] = {1e9, 1000, {}, 1e5}; // CUDA-core FLOPs are not tensor-pipe use
    by_precision["tensor_fp16"] = {6.5e11, 650000, {}, 989430};
    EXPECT_NEAR(*tensor_pipe_pct(by_precision), 100.0 * 650000 / 989430, 1e-9);
    by_precision["tensor_bf16"] = {1e11, 100000, {}, 989430};
    EXPECT_NEAR(*tensor_pipe_pct(by_precision), 100.0 * 750000 / 989430, 1e-9);
    by_precision["tensor_fp8"] = {1e9, 1000, {}, std::nullopt}; // a counted type without a peak
    EXPECT_FALSE(tensor_pipe_pct(by_precision).has_value());
    EXPECT_FALSE(tensor_pipe_pct({{"fp32", {1e9, 1000, {}, 1e5}}}).has_value());
}

// Through the FLOP roofline: 6.25e7 fp16 tensor ops in 1000 ns = 62,500 GFLOP/s of the V100's
// 125,000: 50%. Without the ops the use is absent and the reason names the setting.
TEST(ModelTensor, FlopRooflineGivesTheTensorPipeUse) {
    Counters c = tensor_only_instructions();
    c["tensor_ops_fp16"] = 6.25e7;
    std::vector<std::string> missing;
    EXPECT_DOUBLE_EQ(*flop_roofline(c, test::v100(), missing)->tensor_pipe_pct, 50);
    const auto none = flop_roofline(tensor_only_instructions(), test::v100(), missing);
    EXPECT_FALSE(none->tensor_pipe_pct.has_value());
    bool said = false;
    for (const std::string& m : missing) {
        said = said || m.find("IRF_METRICS=tensor_types or irf run --metrics tensor_types") !=
                           std::string::npos;
    }
    EXPECT_TRUE(said);
}

// Issue 53 item 4: nvcc's HFMA2.MMA register moves, counted by the tensor pipe and as HFMA
// thread instructions. The public A100 export's naive FP32 GEMM: 67,161,292,800 tensor-pipe
// instructions, 2,149,161,369,600 HFMA thread instructions = 32 x that exactly, no tensor ops.
Counters hfma2_mma_moves() {
    Counters c = tensor_only_instructions();
    c["inst_tensor"] = 67161292800.0;
    c["thread_hfma"] = 2149161369600.0;
    c["thread_ffma"] = 1000;
    return c;
}

TEST(ModelTensor, HfmaThreadInstructionsOf32PerTensorInstructionAreRegisterMoves) {
    const Counters moves = hfma2_mma_moves();
    EXPECT_DOUBLE_EQ(tensor_register_moves(moves), 67161292800.0);
    EXPECT_FALSE(issues_tensor_math(moves)) << "moves: no '?' in the tensor column";
    // Within 1%: 32 x 100 = 3,200; 3,231 HFMA is 0.97% off, 3,233 is 1.03%.
    Counters near = tensor_only_instructions();
    near["thread_hfma"] = 3231;
    EXPECT_DOUBLE_EQ(tensor_register_moves(near), 100);
    near["thread_hfma"] = 3233;
    EXPECT_DOUBLE_EQ(tensor_register_moves(near), 0);
    EXPECT_TRUE(issues_tensor_math(near)) << "not explained by moves: it may do tensor math";
    // Measured zero ops of every type: moves whatever the HFMA count (the H100 recording).
    near["tensor_ops_fp16"] = 0;
    EXPECT_DOUBLE_EQ(tensor_register_moves(near), 100);
    near["tensor_ops_fp16"] = 4096;
    EXPECT_DOUBLE_EQ(tensor_register_moves(near), 0);
}

// The public BERT export's softmax: 160 tensor-pipe instructions for 40 x 128 threads = 160
// warps, with 3,200 HFMA thread instructions (20 active threads a move, not 32).
TEST(ModelTensor, AFewMovesAWarpUnderPredicationAreMovesGivenTheLaunch) {
    Counters c = tensor_only_instructions();
    c["inst_tensor"] = 160;
    c["thread_hfma"] = 3200;
    EXPECT_DOUBLE_EQ(tensor_register_moves(c), 0) << "without the launch: not explained";
    EXPECT_DOUBLE_EQ(tensor_register_moves(c, 160), 160);
    EXPECT_DOUBLE_EQ(tensor_register_moves(c, 160.0 / 16), 160); // 16 a warp: still moves
    EXPECT_DOUBLE_EQ(tensor_register_moves(c, 160.0 / 17), 0);   // 17 a warp: tensor math
    c["thread_hfma"] = 159;                                      // fewer HFMA than moves: not moves
    EXPECT_DOUBLE_EQ(tensor_register_moves(c, 160), 0);
    KernelRecord k;
    k.launch.grid = {40, 1, 1};
    k.launch.block = {128, 1, 1};
    k.profiled_launches = 1;
    EXPECT_DOUBLE_EQ(profiled_warps(k), 160);
    k.launch.block = {100, 1, 1}; // 4 warps a block, the last partly filled
    EXPECT_DOUBLE_EQ(profiled_warps(k), 160);
}

TEST(ModelTensor, RegisterMovesAreNoTensorWorkAndNoFp16Flops) {
    const Counters raw = hfma2_mma_moves();
    const auto fixed = without_tensor_moves(raw);
    ASSERT_TRUE(fixed.has_value());
    EXPECT_DOUBLE_EQ(fixed->at("inst_tensor"), 0);
    EXPECT_DOUBLE_EQ(fixed->at("thread_hfma"), 0); // 2,149,161,369,600 - 32 x 67,161,292,800
    EXPECT_FALSE(without_tensor_moves(tensor_only_instructions()).has_value());
    // Through analyze: FP16 FLOPs 0 (were 2 x 2.15e12), FP32 2 x 1000, the moves recorded and said.
    KernelRecord k;
    k.name = "gemm_v1";
    k.counters = raw;
    k.profiled_launches = 1;
    const KernelAnalysis a = analyze_kernel(k, test::v100(), {});
    ASSERT_TRUE(a.flops.has_value());
    EXPECT_DOUBLE_EQ(a.flops->fp16, 0);
    EXPECT_DOUBLE_EQ(a.flops->fp32, 2000);
    EXPECT_DOUBLE_EQ(a.flops->tensor_register_moves, 67161292800.0);
    bool said = false;
    for (const std::string& n : a.notes) {
        said = said || n.find("tensor: the 67161292800 tensor-pipe instructions are register "
                              "moves") != std::string::npos;
    }
    EXPECT_TRUE(said);
    // The raw counters stay as measured.
    EXPECT_DOUBLE_EQ(k.counters.at("thread_hfma"), 2149161369600.0);
}

// The projection reads the counters as the analysis does: moves known only from the launch (the
// H200's FP32 SIMT GEMM of KernelBench: 6,464 tensor-pipe instructions, 2.1 a warp, 196,928 HFMA)
// are no unmeasured tensor work, so its bound is decided; without the launch they are unexplained,
// the bound undecided and the point the interval's mean.
TEST(ModelTensor, MovesKnownFromTheLaunchLeaveTheProjectionDecided) {
    KernelRecord k;
    k.name = "sgemm";
    k.counters = tensor_only_instructions();
    k.counters["inst_tensor"] = 160;
    k.counters["thread_hfma"] = 3200;
    k.profiled_launches = 1;
    k.launch.grid = {40, 1, 1};
    k.launch.block = {128, 1, 1};
    config::Ceilings target = test::v100();
    target.gpu.key = "t";
    const auto method = [&](const KernelRecord& kernel) {
        const KernelAnalysis a = analyze_kernel(kernel, test::v100(), {target});
        return a.projection.empty() ? std::string("none") : a.projection.front().point_method;
    };
    EXPECT_NE(method(k), "interval-mean");
    k.launch = {};
    EXPECT_EQ(method(k), "interval-mean");
}

} // namespace
} // namespace test_tensor
} // namespace irf::model

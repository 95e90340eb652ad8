// SPDX-License-Identifier: Apache-2.0
// FLOP roofline (docs/model.md: HRM Eq. 2-7), instruction mix and kernel ceilings
// (docs/model.md: PROJ Eq. 2-8) against hand-computed values.
#include <numeric>

#include <gtest/gtest.h>

#include "model/roofline/flop_roofline.hpp"
#include "model/roofline/instruction_mix.hpp"
#include "model/roofline/kernel_ceilings.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_flop_roofline {
namespace {

TEST(ModelFlops, FlopCountCountsFmaTwice) {
    EXPECT_DOUBLE_EQ(flop_count(10, 20, 30), 90); // 10 + 20 + 2 x 30
}

TEST(ModelFlops, FmaShareSixtyPercentGivesEightyPercentCeiling) {
    // Eq. 6: alpha = 60 / (60 + 30 + 10) = 0.6; Eq. 7: beta = (0.6 x 2 + 0.4) / 2 = 0.8
    EXPECT_DOUBLE_EQ(fma_fraction(60, 30, 10), 0.6);
    EXPECT_DOUBLE_EQ(fma_mix_factor(0.6), 0.8);
    // Projection Eq. 2 with no-FMA = FMA / 2: 7800 x 0.6 + 3900 x 0.4 = 6240 = 0.8 x 7800
    EXPECT_DOUBLE_EQ(*perf_mix(7800, 3900, 60, 30, 10), 6240);
    EXPECT_FALSE(perf_mix(7800, 3900, 0, 0, 0).has_value());
}

TEST(ModelFlops, HmmaGipsFromTensorPeak) {
    // 125 TFLOP/s / 512 FLOPs per HMMA = 244.14 GIPS
    EXPECT_DOUBLE_EQ(hmma_gips(125, 512), 125000.0 / 512);
    EXPECT_NEAR(hmma_gips(125, 512), 244, 0.2);
}

TEST(ModelFlops, KernelRoofline) {
    // L1: 20 x 32 = 640 B; L2: 320 B; HBM: 160 B.
    Counters c = test::kernel_counters(0, 10, {20, 10, 5});
    c["thread_dfma"] = 60;
    c["thread_dadd"] = 30;
    c["thread_dmul"] = 10;
    c["thread_ffma"] = 5;
    std::vector<std::string> missing;
    const auto f = flop_roofline(c, test::v100(), missing);
    ASSERT_TRUE(f.has_value());
    EXPECT_DOUBLE_EQ(f->fp64, 160); // 30 + 10 + 2 x 60
    EXPECT_DOUBLE_EQ(f->fp32, 10);  // 2 x 5
    EXPECT_EQ(f->precision, "fp64");
    EXPECT_DOUBLE_EQ(f->gflops, 17);          // 170 FLOPs / 10 ns
    EXPECT_DOUBLE_EQ(*f->ai.l1, 170.0 / 640); // Eq. 2
    EXPECT_DOUBLE_EQ(*f->ai.l2, 170.0 / 320);
    EXPECT_DOUBLE_EQ(*f->ai.hbm, 170.0 / 160);
    EXPECT_DOUBLE_EQ(*f->fma_mix_ceiling_gflops, 6240); // 0.8 x 7800
    EXPECT_FALSE(f->hmma_gips_ceiling.has_value());
    EXPECT_TRUE(missing.empty());
}

TEST(ModelFlops, TensorKernelHmmaCeilingFromMeasuredFlopsPerInstruction) {
    Counters c = test::zero_counters();
    c["time_ns"] = 1000;
    c["inst_tensor"] = 100;
    c["tensor_ops_fp16"] = 51200; // 512 FLOPs per tensor instruction
    std::vector<std::string> missing;
    const auto f = flop_roofline(c, test::v100(), missing);
    ASSERT_TRUE(f.has_value());
    EXPECT_DOUBLE_EQ(f->tensor, 51200);
    EXPECT_DOUBLE_EQ(f->gflops, 51.2);
    EXPECT_DOUBLE_EQ(*f->hmma_gips_ceiling, 125000.0 / 512);
}

TEST(ModelFlops, MissingFpCountersMakeFlopsAbsent) {
    Counters c = test::zero_counters();
    c.erase("thread_hfma");
    std::vector<std::string> missing;
    EXPECT_FALSE(flop_roofline(c, test::v100(), missing).has_value());
    EXPECT_EQ(missing.at(0), "flops: counters absent: thread_hfma");
}

// Issue 53 item 6: nvprof's flop_count_sp alone (the public Kepler exports hold only it) gives
// the FP32 FLOPs; the precisions not collected count as 0 with a reason. 2,886,580,620 FLOPs in
// 1e6 ns = 2,886.58062 GFLOP/s; 2,886,580,620 / (4,199,909 x 32 B) = 21.478 FLOP/B at L1.
TEST(ModelFlops, AFilesFlopTotalGivesThePrecisionsRoofline) {
    Counters c;
    c["time_ns"] = 1e6;
    c["flops_fp32"] = 2886580620;
    c["sectors_global_ld"] = 0;
    c["sectors_global_st"] = 4199909;
    std::vector<std::string> missing;
    const auto f = flop_roofline(c, test::v100(), missing);
    ASSERT_TRUE(f.has_value());
    EXPECT_DOUBLE_EQ(f->fp32, 2886580620);
    EXPECT_DOUBLE_EQ(f->fp64, 0);
    EXPECT_EQ(f->precision, "fp32");
    EXPECT_DOUBLE_EQ(f->gflops, 2886.58062);
    EXPECT_EQ(missing.at(0), "flops.fp64: not collected (counted as 0): thread_dadd, thread_dmul, "
                             "thread_dfma or flops_fp64");
    EXPECT_EQ(flops_by_precision(c).at("fp32"), 2886580620);
    // The split wins over a total where both are there: 10 + 20 + 2 x 30 = 90.
    c["thread_fadd"] = 10;
    c["thread_fmul"] = 20;
    c["thread_ffma"] = 30;
    EXPECT_DOUBLE_EQ(flop_roofline(c, test::v100(), missing)->fp32, 90);
}

// IRM Fig. 6 by SASS class (issue #18 item 6): of 100 thread instructions, integer = 30 + 6 + 4
// (integer, bit, uniform) = 0.40; fp32 0.20; fp16 = 5 + 5 (fp16, fp8) = 0.10; ldst 0.15;
// control 0.05; other = 4 + 3 + 3 (conversion, misc, comm) = 0.10; fp64 0.
TEST(ModelMix, SharesBySassClassSumToOne) {
    Counters c;
    c["thread_class_integer"] = 30;
    c["thread_class_bit"] = 6;
    c["thread_class_uniform"] = 4;
    c["thread_class_fp32"] = 20;
    c["thread_class_fp16"] = 5;
    c["thread_class_fp8"] = 5;
    c["thread_class_memory"] = 15;
    c["thread_class_control"] = 5;
    c["thread_class_conversion"] = 4;
    c["thread_class_misc"] = 3;
    c["thread_class_comm"] = 3;
    std::vector<std::string> missing;
    const auto mix = instruction_mix(c, missing);
    EXPECT_DOUBLE_EQ(mix.at("integer"), 0.4);
    EXPECT_DOUBLE_EQ(mix.at("fp32"), 0.2);
    EXPECT_DOUBLE_EQ(mix.at("fp16"), 0.1);
    EXPECT_DOUBLE_EQ(mix.at("ldst"), 0.15);
    EXPECT_DOUBLE_EQ(mix.at("control"), 0.05);
    EXPECT_DOUBLE_EQ(mix.at("other"), 0.1);
    EXPECT_DOUBLE_EQ(mix.at("fp64"), 0);
    const double sum = std::accumulate(mix.begin(), mix.end(), 0.0,
                                       [](double s, const auto& kv) { return s + kv.second; });
    EXPECT_DOUBLE_EQ(sum, 1);
    EXPECT_TRUE(missing.empty());
}

// The pipe counters count an FP16x2 instruction in the fma and fma_type_fp16 pipes on GA10x and
// later: they no longer make a mix; without SASS classes the mix is absent.
TEST(ModelMix, PipeCountersAloneGiveNoMix) {
    Counters c;
    c["inst_pipe_alu"] = 40;
    c["inst_pipe_fma"] = 30;
    std::vector<std::string> missing;
    EXPECT_TRUE(instruction_mix(c, missing).empty());
    EXPECT_EQ(missing.at(0), "mix: SASS instruction classes (thread_class_*) not collected");
    c["thread_class_integer"] = 0;
    EXPECT_TRUE(instruction_mix(c, missing).empty());
    EXPECT_EQ(missing.at(1), "mix: no instruction in any SASS class");
}

TEST(ModelKernelCeilings, TransferTimesAndHarmonicBandwidths) {
    // Eq. 4: 8e7 B / 828 GB/s = 96618.36 ns
    EXPECT_DOUBLE_EQ(*transfer_time_ns(8e7, 828.0), 8e7 / 828);
    EXPECT_FALSE(transfer_time_ns(1, std::nullopt).has_value());
    EXPECT_DOUBLE_EQ(*transfer_time_ns(0, std::nullopt), 0); // no bytes, no bandwidth needed
    // Eq. 5: 10 wavefronts x 128 B / 14000 GB/s
    EXPECT_DOUBLE_EQ(*shared_time_ns(10, 14000.0), 1280.0 / 14000);
    // Eq. 3: half the threads active -> half of Perf_mix
    EXPECT_DOUBLE_EQ(perf_ceil(0.5, 6240), 3120);
    // L1 hits 1000 B, shared 1280 B, L2 hits 640 B, HBM 320 B
    const LevelBytes bytes{1000, 1280, 640, 320};
    const Bandwidths bw{1000.0, 640.0, 320.0, 160.0};
    const BandwidthCeilings c = bandwidth_ceilings(bytes, bw);
    EXPECT_DOUBLE_EQ(*c.gbs.hbm, 160);                       // Eq. 8: 320 / 2
    EXPECT_DOUBLE_EQ(*c.gbs.l2, (640.0 + 320) / (2 + 2));    // Eq. 7: 960 / 4 = 240
    EXPECT_DOUBLE_EQ(*c.gbs.l1, (3240.0) / (1 + 2 + 2 + 2)); // Eq. 6: 3240 / 7
    EXPECT_DOUBLE_EQ(*c.bytes.l1, 3240);
}

TEST(ModelKernelCeilings, LevelBytesFromCounters) {
    Counters c = test::kernel_counters(0, 0, {100, 60, 10});
    c["wavefronts_shared_ld"] = 3;
    const auto b = level_bytes(c);
    ASSERT_TRUE(b.has_value());
    EXPECT_DOUBLE_EQ(b->l1, 40 * 32);     // (100 - 60) sectors hit in L1
    EXPECT_DOUBLE_EQ(b->shared, 3 * 128); // 128-byte wavefronts
    EXPECT_DOUBLE_EQ(b->l2, 50 * 32);     // (60 - 10) sectors hit in L2
    EXPECT_DOUBLE_EQ(b->hbm, 10 * 32);
}

// L2 atomics and reductions are L2 traffic too (docs/model.md, L2 sectors = read + write + atom
// + red): L1 3e6 sectors; L2 1e6 read + 5e5 atom + 5e5 red = 2e6; DRAM 1e6. L1 hits (3e6 - 2e6)
// x 32 = 3.2e7 B, L2 hits (2e6 - 1e6) x 32 = 3.2e7 B (read alone would say 6.4e7 and 0).
TEST(ModelKernelCeilings, LevelBytesCountL2AtomicsAndReductions) {
    Counters c = test::kernel_counters(0, 0, {3e6, 1e6, 1e6});
    c["l2_sectors_atom"] = 5e5;
    c["l2_sectors_red"] = 5e5;
    const auto b = level_bytes(c);
    ASSERT_TRUE(b.has_value());
    EXPECT_DOUBLE_EQ(b->l1, 3.2e7);
    EXPECT_DOUBLE_EQ(b->l2, 3.2e7);
    EXPECT_DOUBLE_EQ(b->hbm, 3.2e7);
}

} // namespace
} // namespace test_flop_roofline
} // namespace irf::model

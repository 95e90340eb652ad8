// SPDX-License-Identifier: Apache-2.0
// Ceilings derived from a detected GPU's properties (no shipped entry): the rates per SM of
// docs/ceilings.md times SMs and clock, against hand-computed values.
#include <gtest/gtest.h>

#include "config/ceilings_yaml.hpp"
#include "config/gpu_database.hpp"

namespace irf::config {
namespace test_derive_ceilings {
namespace {

TEST(GpuDatabase, DeriveFromDeviceProperties) {
    const auto c = derive_ceilings("Some Hopper", "GH100", "9.0", 132, 1980, 50u << 20);
    EXPECT_EQ(c.source, "derived");
    // 132 x 4 x 1980 / 1e3 = 1045.44 warp GIPS.
    EXPECT_DOUBLE_EQ(c.warp_gips.value, 1045.44);
    EXPECT_EQ(c.warp_gips.provenance, Provenance::derived);
    EXPECT_NE(c.warp_gips.method.find("132 SMs x 4"), std::string::npos) << c.warp_gips.method;
    // FP64 FMA: 132 x 64 lanes x 2 flop x 1980 / 1e3 = 33454.08 GFLOP/s.
    EXPECT_DOUBLE_EQ(c.gflops.at("fp64_fma").value, 33454.08);
    // FP32 pipe: 132 x (128 / 32) x 1980 / 1e3 = 1045.44 warp GIPS.
    EXPECT_DOUBLE_EQ(c.pipe_gips.at("fp32").value, 1045.44);
    // LD/ST pipe: 132 x (32 units / 32) x 1980 / 1e3 = 261.36 warp GIPS.
    EXPECT_DOUBLE_EQ(c.pipe_gips.at("lsu").value, 261.36);
    // Dense FP16 tensor at the given clock: 132 x 4096 x 1980 / 1e6 = 1070.53 TFLOP/s.
    EXPECT_NEAR(c.tensor_tflops.at("fp16").value, 1070.530560, 1e-6);
    // L1: 132 x 128 B x 1980 / 1e3 = 33454.08 GB/s.
    EXPECT_DOUBLE_EQ(c.l1_gbs->value, 33454.08);
    EXPECT_FALSE(c.hbm_gbs.has_value());
    EXPECT_FALSE(c.l2_gbs.has_value());
    EXPECT_EQ(c.gpu.l2_bytes, 50u << 20);
    // cc 8.9: L1 loads at 64 B/clk/SM: 58 x 64 x 2040 / 1e3 = 7572.48 GB/s.
    const auto l4 = derive_ceilings("L4-like", "AD104", "8.9", 58, 2040, 0);
    EXPECT_DOUBLE_EQ(l4.l1_gbs->value, 7572.48);
    // ... and 16 LD/ST units per SM: 58 x (16 / 32) x 2040 / 1e3 = 59.16 warp GIPS.
    EXPECT_DOUBLE_EQ(l4.pipe_gips.at("lsu").value, 59.16);
    // SM limits from the compute capability, so waves are counted for a detected GPU:
    // cc 9.0 = 2048 threads (64 warps), 32 blocks, 228 KB shared per SM, 227 KB per block.
    ASSERT_TRUE(c.gpu.sm_limits.has_value());
    EXPECT_EQ(c.gpu.sm_limits->max_warps_per_sm, 64);
    EXPECT_EQ(c.gpu.sm_limits->max_blocks_per_sm, 32);
    EXPECT_EQ(c.gpu.sm_limits->shared_bytes_per_sm, 228 * 1024);
    EXPECT_EQ(c.gpu.sm_limits->shared_bytes_per_block, 227 * 1024);
    // cc 8.9: 1536 threads = 48 warps, 24 blocks
    const auto ada = derive_ceilings("L4-like", "AD104", "8.9", 58, 2040, 0).gpu.sm_limits;
    ASSERT_TRUE(ada.has_value());
    EXPECT_EQ(ada->max_warps_per_sm, 48);
    EXPECT_EQ(ada->max_blocks_per_sm, 24);
}

TEST(GpuDatabase, DeriveUnknownArchKeepsOnlyIssueRate) {
    const auto c = derive_ceilings("Future", "GX999", "13.0", 100, 2000, 0);
    EXPECT_DOUBLE_EQ(c.warp_gips.value, 800.0); // 100 x 4 x 2000 / 1e3
    EXPECT_TRUE(c.gflops.empty());
    EXPECT_FALSE(c.l1_gbs.has_value());
    EXPECT_FALSE(c.gpu.sm_limits.has_value()); // no row for cc 13.0: waves are not counted
}

TEST(GpuDatabase, DeriveBlackwellRowsFromTheToolkit) {
    // cc 12.0 (GB20x): 1536 threads = 48 warps, 24 blocks, 100 KB shared an SM, 99 KB a block
    // (1 KB reserved); cc 10.3 (B300) as cc 10.0. Both rows name the toolkit's files.
    const auto gb20x = derive_ceilings("RTX-like", "GB202", "12.0", 170, 2407, 0).gpu.sm_limits;
    ASSERT_TRUE(gb20x.has_value());
    EXPECT_EQ(gb20x->max_warps_per_sm, 48);
    EXPECT_EQ(gb20x->max_blocks_per_sm, 24);
    EXPECT_EQ(gb20x->shared_bytes_per_sm, 100 * 1024);
    EXPECT_EQ(gb20x->shared_bytes_per_block, 99 * 1024);
    EXPECT_NE(gb20x->source.find("cuda_occupancy.h"), std::string::npos);
    const auto b300 = derive_ceilings("B300-like", "GB110", "10.3", 160, 1910, 0).gpu.sm_limits;
    ASSERT_TRUE(b300.has_value());
    EXPECT_EQ(b300->max_warps_per_sm, 64);
    EXPECT_EQ(b300->max_blocks_per_sm, 32);
    EXPECT_EQ(b300->shared_bytes_per_block, 227 * 1024);
}

TEST(GpuDatabase, DeriveRejectsUnknownClock) {
    // A clock of 0 (unknown) gives no issue rate at all: an error, not a zero ceiling.
    EXPECT_THROW((void)derive_ceilings("X", "GH100", "9.0", 132, 0, 0), CeilingsError);
    EXPECT_THROW((void)derive_ceilings("X", "GH100", "9.0", 0, 1980, 0), CeilingsError);
}
} // namespace
} // namespace test_derive_ceilings
} // namespace irf::config

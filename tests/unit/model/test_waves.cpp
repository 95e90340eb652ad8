// SPDX-License-Identifier: Apache-2.0
// Blocks per SM from the launch and the SM limits, full and tail waves, and the per-SM ratio of a
// kernel whose waves do not change (docs/model.md, "Waves"), worked by hand.
#include <gtest/gtest.h>

#include <string>

#include "model/analyze.hpp"
#include "model/profile/analysis_json.hpp"
#include "model/projection/waves.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_waves {
namespace {

using test::cc70;
using test::cc90;

LaunchConfig launch(std::uint32_t blocks, std::uint32_t threads, std::uint32_t regs,
                    std::uint32_t smem) {
    LaunchConfig c;
    c.grid = {blocks, 1, 1};
    c.block = {threads, 1, 1};
    c.regs = regs;
    c.smem_bytes = smem;
    return c;
}

TEST(ModelWaves, WarpsLimit) {
    // 256 threads = 8 warps: 64 / 8 = 8 blocks. Registers: 32 x 32 = 1024 per warp, 16384 per
    // sub-partition / 1024 = 16 warps x 4 = 64 / 8 = 8 (a tie: the warp cap is named).
    // Shared: 0 + 1 KB reserve = 1024 B: 233472 / 1024 = 228.
    const Occupancy o = occupancy(launch(1, 256, 32, 0), cc90(), 4);
    EXPECT_EQ(o.blocks_per_sm, 8);
    EXPECT_EQ(o.limiter, "warps");
}

TEST(ModelWaves, RegistersRoundUpToTheAllocationUnit) {
    // 33 registers x 32 = 1056 -> 1280 per warp (5 x 256); 16384 / 1280 = 12 warps per
    // sub-partition x 4 = 48 warps / 4 warps per block = 12 blocks (without the rounding:
    // 16384 / 1056 = 15 -> 60 / 4 = 15). Warps alone allow 64 / 4 = 16.
    const Occupancy o = occupancy(launch(1, 128, 33, 0), cc90(), 4);
    EXPECT_EQ(o.blocks_per_sm, 12);
    EXPECT_EQ(o.limiter, "registers");
    // 256 registers exceed the 255 per thread: the block cannot run.
    EXPECT_EQ(occupancy(launch(1, 128, 256, 0), cc90(), 4).blocks_per_sm, 0);
}

// Registers are split over the 4 sub-partitions before warps are counted (docs/model.md,
// "Waves"). 40 registers x 32 = 1280 per warp (5 x 256, no rounding); 65536 / 4 = 16384 per
// sub-partition / 1280 = 12.8 -> 12 warps x 4 = 48 warps / 3 warps per block (96 threads) = 16
// blocks. The whole SM unsplit would hold 65536 / 1280 = 51 warps / 3 = 17 blocks. Warps allow
// 64 / 3 = 21, the block cap 32, shared (1 KB reserve) 228: registers bind.
TEST(ModelWaves, RegistersAreSplitOverTheSubPartitions) {
    const Occupancy o = occupancy(launch(1, 96, 40, 0), cc90(), 4);
    EXPECT_EQ(o.blocks_per_sm, 16);
    EXPECT_EQ(o.limiter, "registers");
}

TEST(ModelWaves, SharedMemoryWithReserveAndUnit) {
    // 48 KB + 1 KB reserve = 50176 B (a multiple of 128): 233472 / 50176 = 4.65 -> 4 blocks
    const Occupancy o = occupancy(launch(1, 256, 0, 48 * 1024), cc90(), 4);
    EXPECT_EQ(o.blocks_per_sm, 4);
    EXPECT_EQ(o.limiter, "shared");
    // cc 7.0, 40,000 B -> 40,192 (157 x 256): 98304 / 40192 = 2.4 -> 2
    EXPECT_EQ(occupancy(launch(1, 256, 0, 40000), cc70(), 4).blocks_per_sm, 2);
    // 228 KB in one block exceeds 227 KB + 1 KB: does not fit
    const Occupancy big = occupancy(launch(1, 256, 0, 228 * 1024), cc90(), 4);
    EXPECT_EQ(big.blocks_per_sm, 0);
    EXPECT_EQ(big.limiter, "shared");
}

TEST(ModelWaves, BlockSizeAndBlockCap) {
    EXPECT_EQ(occupancy(launch(1, 2048, 0, 0), cc90(), 4).limiter, "block size");
    // 32 threads = 1 warp: 64 warps allow 64, the 32-block cap binds
    const Occupancy o = occupancy(launch(1, 32, 0, 0), cc90(), 4);
    EXPECT_EQ(o.blocks_per_sm, 32);
    EXPECT_EQ(o.limiter, "blocks");
}

config::GpuIdentity gpu(int sms) {
    config::GpuIdentity g;
    g.key = "g" + std::to_string(sms);
    g.sms = sms;
    g.sm_limits = cc90();
    return g;
}

// 160 KB of shared memory per block: 163840 + 1024 = 164864 B, 233472 / 164864 -> 1 per SM.
constexpr std::uint32_t k_one_per_sm = 160 * 1024;

TEST(ModelWaves, FullAndTailWaves) {
    std::string why;
    // 216 blocks on 108 SMs: 2 full waves, no tail, busiest SM runs 2, fill 216 / 216 = 1
    const auto a = wave_count(launch(216, 256, 0, k_one_per_sm), gpu(108), why);
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(a->blocks_per_sm, 1);
    EXPECT_EQ(a->full_waves, 2u);
    EXPECT_EQ(a->tail_blocks, 0u);
    EXPECT_EQ(a->waves, 2u);
    EXPECT_DOUBLE_EQ(a->fill, 1.0);
    // On 132 SMs: 1 full wave + 84 tail blocks = 2 waves; busiest 1 + ceil(84/132) = 2;
    // fill = 216 / (132 x 2) = 0.8182
    const auto h = wave_count(launch(216, 256, 0, k_one_per_sm), gpu(132), why);
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(h->full_waves, 1u);
    EXPECT_EQ(h->tail_blocks, 84u);
    EXPECT_EQ(h->waves, 2u);
    EXPECT_EQ(h->blocks_per_busiest_sm, 2u);
    EXPECT_DOUBLE_EQ(h->fill, 216.0 / 264.0);
    // A grid under one wave spreads over the SMs: 50 blocks x 4 per SM on 132 SMs: busiest 1,
    // fill 50 / 132
    const auto small = wave_count(launch(50, 256, 0, 48 * 1024), gpu(132), why);
    ASSERT_TRUE(small.has_value());
    EXPECT_EQ(small->waves, 1u);
    EXPECT_EQ(small->full_waves, 0u);
    EXPECT_EQ(small->blocks_per_busiest_sm, 1u);
    EXPECT_DOUBLE_EQ(small->fill, 50.0 / 132.0);
}

TEST(ModelWaves, NoLimitsNoWaves) {
    config::GpuIdentity g = gpu(132);
    g.sm_limits.reset();
    std::string why;
    EXPECT_FALSE(wave_count(launch(216, 256, 0, 0), g, why).has_value());
    EXPECT_EQ(why, "no SM limits for g132");
}

// The test V100 with `sms` SMs (warp GIPS = SMs x 4 x 1.53) and cc 9.0 limits.
config::Ceilings ceilings(int sms) {
    config::Ceilings c = test::v100();
    c.gpu.key = "sm" + std::to_string(sms);
    c.gpu.sms = sms;
    c.gpu.sm_limits = cc90();
    return c;
}

// An issue-bound kernel of `blocks` one-per-SM blocks: 1e9 warp instructions over 1e7 ns.
Projection issue_bound(std::uint32_t blocks) {
    KernelRecord k = test::kernel_record(1e7, blocks);
    k.launch = launch(blocks, 256, 0, k_one_per_sm);
    k.counters["inst_warp"] = 1e9;
    k.counters["sectors_global_ld"] = 1000;
    k.counters["l2_sectors_read"] = 1000;
    k.counters["dram_sectors_read"] = 1000;
    const KernelAnalysis a = analyze_kernel(k, ceilings(108), {ceilings(132)});
    EXPECT_EQ(a.projection.size(), 1u);
    return a.projection.empty() ? Projection{} : a.projection.front();
}

TEST(ModelWaves, SameWaveCountGetsThePerSmRatio) {
    // 216 blocks: 2 waves on 108 SMs (fill 1) and on 132 SMs (fill 216/264). Issue time:
    // source 1e9 / (108 x 4 x 1.53) / 1 = 1,512,901 ns; target 1e9 / (132 x 4 x 1.53) / (216/264)
    // = 1,512,901 ns. t = 1e7 x 1 = 1e7: the per-SM ratio (same clock and rate), not 108/132.
    const Projection p = issue_bound(216);
    EXPECT_EQ(p.bound_source, "issue");
    ASSERT_TRUE(p.waves_source.has_value() && p.waves_target.has_value());
    EXPECT_EQ(p.waves_source->waves, p.waves_target->waves);
    EXPECT_NEAR(p.time_point_ns, 1e7, 1e-3);
    EXPECT_NEAR(p.speedup_point, 1.0, 1e-12);
    // 300 blocks: 2 full + 84 tail on 108 SMs (busiest 3), 2 full + 36 tail on 132 (busiest 3):
    // both 3 waves, fills 300/324 and 300/396; t = 1e7 x (108/132) x (300/324) / (300/396) = 1e7
    EXPECT_NEAR(issue_bound(300).time_point_ns, 1e7, 1e-3);
}

// A grid of one wave on either GPU, in waves of another shape on the other, is projected with
// low confidence: its time follows the blocks' latencies and the tail more than the ceilings.
TEST(ModelWaves, OneWaveOfAnotherShapeIsLowConfidence) {
    // 100 blocks: one wave on 108 SMs (fill 100/108) and on 132 (fill 100/132).
    const Projection both = issue_bound(100);
    EXPECT_EQ(both.confidence, "low");
    EXPECT_TRUE(test::has_note(both, "one wave on the source and the target"));
    // 120 blocks: 2 waves on 108 SMs (1 full + 12 tail), one on 132.
    const Projection target = issue_bound(120);
    EXPECT_EQ(target.waves_source->waves, 2u);
    EXPECT_TRUE(test::has_note(target, "one wave on the target: its time follows latencies"));
    EXPECT_EQ(target.confidence, "low");
    // 216 blocks: 2 waves on both; no such note.
    EXPECT_FALSE(test::has_note(issue_bound(216), "one wave on the"));
    // 100 blocks onto another 108-SM GPU: one wave of one shape on both, no such note.
    KernelRecord k = test::kernel_record(1e7, 100);
    k.launch = launch(100, 256, 0, k_one_per_sm);
    k.counters["inst_warp"] = 1e9;
    const KernelAnalysis same = analyze_kernel(k, ceilings(108), {ceilings(108)});
    ASSERT_EQ(same.projection.size(), 1u);
    EXPECT_FALSE(test::has_note(same.projection.front(), "one wave on the"));
}

TEST(ModelWaves, ManyWavesGetTheSmCountRatio) {
    // 142,560 = 10 x 108 x 132 blocks: 1320 and 1080 full waves, fill 1 on both:
    // t = 1e7 x 108 / 132 = 8,181,818 ns (1.222x faster)
    const Projection p = issue_bound(142560);
    EXPECT_NEAR(p.time_point_ns, 1e7 * 108.0 / 132.0, 1e-3);
}

TEST(ModelWaves, FewerWavesOnTheTarget) {
    // 240 blocks: 2 full + 24 tail = 3 waves on 108 SMs (busiest 3, fill 240/324); 1 full + 108
    // tail = 2 waves on 132 SMs (busiest 2, fill 240/264).
    // t = 1e7 x (108/132) x (240/324) / (240/264) = 1e7 x 2/3 = 6,666,667 ns (1.5x faster)
    const Projection p = issue_bound(240);
    EXPECT_EQ(p.waves_source->waves, 3u);
    EXPECT_EQ(p.waves_target->waves, 2u);
    EXPECT_NEAR(p.time_point_ns, 1e7 * 2.0 / 3.0, 1e-3);
}

// Only the SM-side times (issue, FLOPs, L1) are divided by the fill; L2 and HBM are shared by all
// SMs and keep theirs (docs/model.md, "Waves").
TEST(ModelWaves, L2AndHbmTimesAreNotDividedByTheFill) {
    // 216 one-per-SM blocks: fill 1 on 108 SMs, 216 / 264 on 132.
    KernelRecord k = test::kernel_record(1e7, 216);
    k.launch = launch(216, 256, 0, k_one_per_sm);
    k.counters["inst_warp"] = 1e9;
    k.counters["sectors_global_ld"] = 1e6;
    k.counters["l2_sectors_read"] = 1e6;   // 3.2e7 B
    k.counters["dram_sectors_read"] = 1e5; // 3.2e6 B
    const KernelAnalysis a = analyze_kernel(k, ceilings(108), {ceilings(132)});
    ASSERT_EQ(a.projection.size(), 1u);
    const Projection& p = a.projection.front();
    ASSERT_TRUE(p.waves_target.has_value());
    ASSERT_NEAR(p.waves_target->fill, 216.0 / 264, 1e-12);
    // L2 3.2e7 B / 2996 GB/s = 10,680.9 ns and HBM 3.2e6 B / 828 GB/s = 3,864.7 ns on both GPUs
    // (the same rates), whatever the fill.
    EXPECT_NEAR(p.resource_ns_target.at("l2"), 3.2e7 / 2996, 1e-6);
    EXPECT_NEAR(p.resource_ns_target.at("hbm"), 3.2e6 / 828, 1e-6);
    EXPECT_NEAR(p.resource_ns_source.at("l2"), 3.2e7 / 2996, 1e-6);
    // Issue: 1e9 / (132 x 4 x 1.53) / (216 / 264) = 1,512,901 ns; L1 3.2e7 B / 14,000 GB/s /
    // (216 / 264) = 2,793.7 ns.
    EXPECT_NEAR(p.resource_ns_target.at("issue"), 1e9 / (132 * 4 * 1.53) / (216.0 / 264), 1e-3);
    EXPECT_NEAR(p.resource_ns_target.at("l1"), 3.2e7 / 14000 / (216.0 / 264), 1e-6);
}

TEST(ModelWaves, BlockThatDoesNotFitTheTargetIsLowConfidence) {
    KernelRecord k = test::kernel_record(1e7, 216);
    k.launch = launch(216, 256, 0, k_one_per_sm);
    k.counters["inst_warp"] = 1e9;
    config::Ceilings small = ceilings(132);
    small.gpu.sm_limits->shared_bytes_per_block = 99 * 1024; // a cc 8.9 block: 160 KB is too much
    small.gpu.sm_limits->shared_bytes_per_sm = 100 * 1024;
    const KernelAnalysis a = analyze_kernel(k, ceilings(108), {small});
    ASSERT_EQ(a.projection.size(), 1u);
    const Projection& p = a.projection.front();
    EXPECT_TRUE(p.waves_source.has_value());
    EXPECT_FALSE(p.waves_target.has_value());
    EXPECT_EQ(p.confidence, "low");
    bool said_why = false;
    for (const std::string& n : p.notes) {
        said_why =
            said_why || n == "waves not counted: a block does not fit on an SM of sm132 (shared)";
    }
    EXPECT_TRUE(said_why);
}

TEST(ModelWaves, WavesAndL2RoundTripThroughJson) {
    const Projection p = issue_bound(216);
    KernelAnalysis a;
    a.projection.push_back(p);
    const nlohmann::json j = analysis_to_json(a);
    const nlohmann::json& w = j["projection"][0]["waves"];
    EXPECT_EQ(w["target"]["blocks_per_sm"], 1);
    EXPECT_EQ(w["target"]["full_waves"], 1);
    EXPECT_EQ(w["target"]["tail_blocks"], 84);
    EXPECT_EQ(w["target"]["waves"], 2);
    EXPECT_EQ(w["target"]["limiter"], "shared");
    const KernelAnalysis back = analysis_from_json(JsonNode(j, "analysis"));
    const Projection& q = back.projection.at(0);
    ASSERT_TRUE(q.waves_target.has_value() && q.l2.has_value());
    EXPECT_EQ(q.waves_target->tail_blocks, 84u);
    EXPECT_DOUBLE_EQ(q.waves_target->fill, p.waves_target->fill);
    EXPECT_EQ(q.l2->fits_source, p.l2->fits_source);
    EXPECT_DOUBLE_EQ(q.l2->working_set_bytes, p.l2->working_set_bytes);
}

} // namespace
} // namespace test_waves
} // namespace irf::model

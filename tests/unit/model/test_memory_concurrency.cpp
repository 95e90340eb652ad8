// SPDX-License-Identifier: Apache-2.0
// Memory concurrency (docs/model.md, "Memory concurrency"): a one-wave grid whose memory stream
// holds its binding level under half its ceiling over a launch of at least 20 DRAM latencies is
// projected by Little's law, its resident warps and the DRAM latencies (in ns where both chips
// have a cited figure, else equal cycles: the SM clocks' ratio), not by the bandwidth ratio.
// Values worked out on the seed papers' V100 (tests/unit/model/model_fixtures.hpp).
#include <gtest/gtest.h>

#include "model/analyze.hpp"
#include "model/projection/memory_concurrency.hpp"
#include "model/projection/projection.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_memory_concurrency {
namespace {

// 16 blocks of 256 threads (128 warps, one wave on 80 SMs) streaming 8e7 x `scale` B from DRAM
// (2.5e6 x `scale` L2 and DRAM read sectors, every L2 read a miss): HBM 8e7 / 828 = 96618.4 ns
// at scale 1, L1 1.6e8 B / 14000 / fill 0.2 = 57142.9 ns, issue 1e6 / 489.6 / 0.2 = 10212.5 ns.
// At `time_ns` = 3e5 the HBM is 32.2% of the launch.
KernelRecord small_stream(double time_ns, double scale = 1) {
    KernelRecord k = test::kernel_record(time_ns, 16);
    k.launch.block = {256, 1, 1};
    k.counters["inst_warp"] = 1e6 * scale;
    k.counters["sectors_global_ld"] = 5e6 * scale;
    k.counters["l2_sectors_read"] = 2.5e6 * scale;
    k.counters["dram_sectors_read"] = 2.5e6 * scale;
    return k;
}

config::Ceilings gpu(const char* key, const char* chip, double hbm_gbs, double clock_mhz) {
    config::Ceilings c = test::v100_with_limits(key, clock_mhz);
    c.gpu.chip = chip;
    c.hbm_gbs->value = hbm_gbs;
    return c;
}

Projection onto(const KernelRecord& k, const config::Ceilings& t) {
    const config::Ceilings s = gpu("v100", "GV100", 828, 1530);
    const KernelAnalysis a = analyze_kernel(k, s, {t});
    EXPECT_EQ(a.projection.size(), 1u);
    return a.projection.empty() ? Projection{} : a.projection.front();
}

TEST(ModelMemoryConcurrency, LittlesLawScalesByWarpsAndLatency) {
    // 3e5 ns x (128 / 64 warps) x (200 / 250 ns) = 480,000 ns.
    EXPECT_DOUBLE_EQ(concurrency_time_ns(3e5, 128, 64, 250, 200), 480000);
}

TEST(ModelMemoryConcurrency, CitedLatenciesByChip) {
    EXPECT_DOUBLE_EQ(*dram_latency_ns("GV100"), 316.6);
    EXPECT_DOUBLE_EQ(*dram_latency_ns("GH100"), 375.1);
    EXPECT_FALSE(dram_latency_ns("GA102").has_value());
    EXPECT_DOUBLE_EQ(dram_latency_upper_ns(), 407.5);
}

TEST(ModelMemoryConcurrency, BothChipsCitedTakeTheLatencyRatioNotTheBandwidthRatio) {
    // Onto a GA100 with twice the DRAM bandwidth: the bandwidth ratio said 2x faster; 128 warps
    // on both, DRAM latency 407.5 ns there, 316.6 ns here: 3e5 x 407.5 / 316.6 = 386,133.9 ns.
    const Projection p = onto(small_stream(3e5), gpu("a", "GA100", 1656, 2040));
    EXPECT_EQ(p.point_method, "memory-concurrency");
    EXPECT_NEAR(p.time_point_ns, 3e5 * 407.5 / 316.6, 1e-6);
    EXPECT_LE(p.time_low_ns, 3e5 * 0.5); // the bandwidth ratio's point stays inside
    EXPECT_TRUE(test::has_note(p, "the DRAM latencies 408 / 317 ns"));
}

TEST(ModelMemoryConcurrency, AnUncitedChipTakesEqualCycles) {
    // No figure for the target: the latency in equal cycles, 3e5 x 1530 / 2040 = 225,000 ns.
    const Projection p = onto(small_stream(3e5), gpu("x", "GX999", 1656, 2040));
    EXPECT_EQ(p.point_method, "memory-concurrency");
    EXPECT_NEAR(p.time_point_ns, 225000, 1e-6);
    EXPECT_TRUE(test::has_note(p, "memory concurrency: 128 resident warps"));
    EXPECT_TRUE(test::has_note(p, "equal cycles"));
}

TEST(ModelMemoryConcurrency, TheTargetsCeilingBoundsEveryLaunch) {
    // Onto a GV100 with 200 GB/s: the warps stream in 3e5 ns, the DRAM needs 8e7 / 200 =
    // 400,000 ns a launch at its ceiling.
    EXPECT_NEAR(onto(small_stream(3e5), gpu("s", "GV100", 200, 1530)).time_point_ns, 400000, 1e-6);
    // Ten launches timed at 3e5 ns each, the one under counters at 6e5 ns: the HBM share is of
    // the timed launch (32.2%), and the ceiling is paid on each of the ten: 4e6 ns (over the
    // counted launch's 6e5 ns it would read 2e6).
    KernelRecord k = small_stream(3e6);
    k.launches = 10;
    k.counters["time_ns"] = 6e5;
    const Projection p = onto(k, gpu("s", "GV100", 200, 1530));
    EXPECT_EQ(p.point_method, "memory-concurrency");
    EXPECT_NEAR(p.time_point_ns, 4e6, 1e-6);
}

TEST(ModelMemoryConcurrency, NearCeilingCachedManyWaveOrShortLaunchesKeepTheRatio) {
    const config::Ceilings t = gpu("a", "GA100", 1656, 2040);
    // HBM at 96618.4 / 1.5e5 = 64% of the launch: near its ceiling.
    EXPECT_EQ(onto(small_stream(1.5e5), t).point_method, "binding-resource");
    // Half the L2 reads hit (1.25e6 of 2.5e6 from DRAM): the L2 serves the stream, not DRAM
    // latency. (The L1, 57142.9 ns, now binds over the HBM's 48309.2 at 19% of the launch: the
    // SM-concurrency rule takes it, test_sm_concurrency.cpp.)
    KernelRecord cached = small_stream(3e5);
    cached.counters["dram_sectors_read"] = 1.25e6;
    EXPECT_EQ(onto(cached, t).point_method, "sm-concurrency");
    // 1000 blocks of 256 threads, 8 an SM: 2 waves on 80 SMs.
    KernelRecord waves = small_stream(3e5);
    waves.launch.grid = {1000, 1, 1};
    EXPECT_EQ(onto(waves, t).point_method, "binding-resource");
    // A 6,000 ns launch (HBM 966.2 ns, 16%) spans 6000 / 316.6 = 19 DRAM latencies, under 20:
    // the warps' requests are about one round trip, not a stream Little's law describes.
    EXPECT_EQ(onto(small_stream(6000, 0.01), t).point_method, "binding-resource");
    EXPECT_EQ(onto(small_stream(6400, 0.01), t).point_method, "memory-concurrency");
}

// The stream of small_stream in 1000 blocks with 40 KB of shared memory each: 2 blocks an SM
// (98304 / 40960), 160 resident blocks of 8 warps = 1280 warps, 25% of 80 x 64 slots; 7 waves
// (6 full + 40 blocks), the busiest SM runs 13, fill 1000 / 1040. HBM still binds (96618.4 ns).
KernelRecord occupancy_capped_stream(double time_ns) {
    KernelRecord k = small_stream(time_ns);
    k.launch.grid = {1000, 1, 1};
    k.launch.smem_bytes = 40960;
    return k;
}

TEST(ModelMemoryConcurrency, AnOccupancyCappedStreamOfManyWavesScalesByItsResidentWarps) {
    // HBM at 96618.4 / 3e5 = 32.2% of the launch; onto a clone at 2040 MHz with twice the DRAM
    // bandwidth (the ratio said 1.5e5 ns): the same 1280 warps, the latency in equal cycles,
    // 3e5 x 1530 / 2040 = 225,000 ns (its DRAM at its ceiling needs 8e7 / 1656 = 48,309 ns).
    const Projection p = onto(occupancy_capped_stream(3e5), gpu("x", "GX999", 1656, 2040));
    EXPECT_EQ(p.point_method, "memory-concurrency");
    EXPECT_NEAR(p.time_point_ns, 225000, 1e-6);
    EXPECT_TRUE(test::has_note(p, "1280 resident warps (2 blocks/SM by shared, 25% of the warp"));
    // Onto 108 SMs of a GA100 (cited latency): 1728 warps, 3e5 x 1280 / 1728 x 407.5 / 316.6 =
    // 286,025.1 ns.
    config::Ceilings a100 = gpu("a", "GA100", 1656, 2040);
    a100.gpu.sms = 108;
    EXPECT_NEAR(onto(occupancy_capped_stream(3e5), a100).time_point_ns,
                3e5 * 1280 / 1728 * 407.5 / 316.6, 1e-6);
}

TEST(ModelMemoryConcurrency, AManyWaveStreamNearItsCeilingOrWithFewerWarpsThereKeepsTheRatio) {
    const config::Ceilings t = gpu("x", "GX999", 1656, 2040);
    // HBM at 77.3% of a 1.25e5 ns launch: over 3/4, taken as bandwidth-bound.
    EXPECT_EQ(onto(occupancy_capped_stream(1.25e5), t).point_method, "binding-resource");
    // At 71.6% of 1.35e5 ns: 1.35e5 x 1530 / 2040 = 101,250 ns.
    EXPECT_NEAR(onto(occupancy_capped_stream(1.35e5), t).time_point_ns, 101250, 1e-6);
    // 40 SMs at the same clock: 640 warps would take 6e5 ns; the share alone does not say the
    // source was short of bytes in flight, so no cap is imposed.
    config::Ceilings half = gpu("h", "GX999", 828, 1530);
    half.gpu.sms = 40;
    EXPECT_EQ(onto(occupancy_capped_stream(3e5), half).point_method, "binding-resource");
    // The same grid with every warp slot filled (no shared memory: 8 blocks an SM): the ratio.
    KernelRecord full = occupancy_capped_stream(3e5);
    full.launch.smem_bytes = 0;
    EXPECT_EQ(onto(full, t).point_method, "binding-resource");
}

// One SM design (compute capability 7.0 on both): latencies are the same SM cycles on both, so
// Little's law holds for the stream whatever share of it the L2 serves, and a full SM's bytes
// in flight also limit the target.
config::Ceilings same_design(const char* key, double hbm_gbs, int sms) {
    config::Ceilings c = gpu(key, "GV100", hbm_gbs, 1530);
    c.gpu.cc = "7.0";
    c.gpu.sms = sms;
    return c;
}

Projection onto_same_design(const KernelRecord& k, const config::Ceilings& t) {
    config::Ceilings s = gpu("v100", "GV100", 828, 1530);
    s.gpu.cc = "7.0";
    const KernelAnalysis a = analyze_kernel(k, s, {t});
    EXPECT_EQ(a.projection.size(), 1u);
    return a.projection.empty() ? Projection{} : a.projection.front();
}

TEST(ModelMemoryConcurrency, OnOneSmDesignAFullSmsStreamIsNoFasterThanItsWarpsAllow) {
    // 1000 blocks of 8 warps, 8 an SM: every one of the 80 x 64 warp slots filled, 2 waves, HBM
    // at 32.2% of 3e5 ns. Twice the DRAM on the same 80 SMs: the ratio says 1.5e5 ns, but 5120
    // warps keep the same bytes in flight at the same latency: 3e5 x 5120 / 5120 = 300,000 ns.
    KernelRecord full = occupancy_capped_stream(3e5);
    full.launch.smem_bytes = 0;
    const Projection p = onto_same_design(full, same_design("t", 1656, 80));
    EXPECT_EQ(p.point_method, "memory-concurrency");
    EXPECT_NEAR(p.time_point_ns, 3e5, 1e-6);
    EXPECT_NEAR(p.time_low_ns, 1.5e5, 1e-6); // the ratio's point stays inside
    EXPECT_TRUE(test::has_note(p, "every warp slot filled, cc 7.0 on both"));
    // 100 SMs: 800 resident blocks, 6400 warps: 3e5 x 5120 / 6400 = 240,000 ns.
    EXPECT_NEAR(onto_same_design(full, same_design("t", 1656, 100)).time_point_ns, 240000, 1e-6);
    // Half the DRAM: the ratio's 6e5 ns is the slower, and stays.
    const Projection slower = onto_same_design(full, same_design("t", 414, 80));
    EXPECT_EQ(slower.point_method, "binding-resource");
    EXPECT_NEAR(slower.time_point_ns, 6e5, 1e-6);
    // HBM at 64.4% of a 1.5e5 ns launch: over half, its queueing may be what the target's
    // bandwidth shortens, so no limit is imposed.
    KernelRecord near = occupancy_capped_stream(1.5e5);
    near.launch.smem_bytes = 0;
    EXPECT_EQ(onto_same_design(near, same_design("t", 1656, 80)).point_method, "binding-resource");
    // Another design (cc 8.0): bytes in flight per warp and latencies differ; the ratio.
    config::Ceilings other = same_design("t", 1656, 80);
    other.gpu.cc = "8.0";
    EXPECT_EQ(onto_same_design(full, other).point_method, "binding-resource");
}

TEST(ModelMemoryConcurrency, OnOneSmDesignAnOccupancyCappedStreamIsNoFasterThanItsWarpsAllow) {
    // occupancy_capped_stream: 1280 warps on 80 SMs (2 blocks an SM by shared memory), HBM at
    // 32.2% of 3e5 ns. Onto 40 SMs with twice the DRAM: the ratio says 3e5 x 828 / 1656 =
    // 150,000 ns, but 640 warps keep half the bytes in flight: 3e5 x 1280 / 640 = 600,000 ns.
    // Across designs the same grid keeps the ratio (AManyWaveStream... above).
    const Projection p = onto_same_design(occupancy_capped_stream(3e5), same_design("t", 1656, 40));
    EXPECT_EQ(p.point_method, "memory-concurrency");
    EXPECT_NEAR(p.time_point_ns, 600000, 1e-6);
}

TEST(ModelMemoryConcurrency, OnOneSmDesignAStreamTheL2PartServesStillFollowsItsWarps) {
    // small_stream with half its L2 reads hitting, one wave: across designs the L2 serves it
    // (NearCeilingCached... above); on one design its hits and misses take the same cycles on
    // both, so onto twice the DRAM on the same SMs it takes 3e5 x 128 / 128 = 300,000 ns.
    KernelRecord cached = small_stream(3e5);
    cached.counters["dram_sectors_read"] = 1.25e6;
    const Projection p = onto_same_design(cached, same_design("t", 1656, 80));
    EXPECT_EQ(p.point_method, "memory-concurrency");
    EXPECT_NEAR(p.time_point_ns, 3e5, 1e-6);
}

} // namespace
} // namespace test_memory_concurrency
} // namespace irf::model

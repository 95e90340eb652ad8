// SPDX-License-Identifier: Apache-2.0
// Projection with what was collected (issue 54 item 1; docs/model.md, "Projection", "Absent
// counters"): a kernel missing a counter group is still projected, on the known resources, with
// low confidence, a note, and an interval holding what the absent resource could do. Every value
// worked out here on the seed papers' V100 (tests/unit/model/model_fixtures.hpp).
#include <algorithm>

#include <gtest/gtest.h>

#include "model/analyze.hpp"
#include "model/projection/projection.hpp"
#include "model/projection/projection_bounds.hpp"
#include "model/projection/projection_partial.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_projection_partial {
namespace {

// An HBM-bound kernel on the V100: 1e6 warp instructions (issue 1e6 / 489.6 = 2042.5 ns),
// 2.5e6 L2 and DRAM sectors (8e7 B: HBM 8e7 / 828 = 96618.4 ns, L2 hits 0), 100 us.
KernelRecord hbm_kernel() {
    KernelRecord k = test::kernel_record(1e5, 1000);
    k.counters["inst_warp"] = 1e6;
    k.counters["sectors_global_ld"] = 5e6;
    k.counters["l2_sectors_read"] = 2.5e6;
    k.counters["dram_sectors_read"] = 2.5e6;
    return k;
}

// The V100 with twice the DRAM bandwidth, L1 at 20,000 GB/s and FP32 at 31,400 GFLOP/s.
config::Ceilings faster_v100() {
    config::Ceilings t = test::v100();
    t.gpu.key = "v100-fast";
    t.hbm_gbs->value = 1656;
    t.l1_gbs->value = 20000;
    t.gflops["fp32_fma"].value = 31400;
    return t;
}

const Projection& the_projection(const KernelAnalysis& a) {
    EXPECT_EQ(a.projection.size(), 1u);
    return a.projection.at(0);
}

TEST(ModelProjectionPartial, AbsentL1SectorsStillProjectOnTheKnownResources) {
    KernelRecord k = hbm_kernel();
    k.counters.erase("sectors_global_ld");
    k.counters.erase("sectors_global_st");
    const KernelAnalysis a = analyze_kernel(k, test::v100(), {faster_v100()});
    const Projection& p = the_projection(a);
    // HBM binds among the known resources on both: 1e5 x (8e7/1656) / (8e7/828) = 5e4.
    EXPECT_EQ(p.point_method, "known-resources");
    EXPECT_EQ(p.bound_source, "hbm");
    EXPECT_NEAR(p.time_point_ns, 5e4, 1e-6);
    // Eq. 9 at L2 and HBM: 5e4 both (no L2 hits); L1 cannot be timed. If L1 bound on both GPUs:
    // 1e5 x 14000 / 20000 = 7e4, so the interval is 5e4 - 7e4.
    EXPECT_NEAR(p.time_eq9_low_ns, 5e4, 1e-6);
    EXPECT_NEAR(p.time_low_ns, 5e4, 1e-6);
    EXPECT_NEAR(p.time_high_ns, 7e4, 1e-6);
    EXPECT_EQ(p.confidence, "low");
    EXPECT_TRUE(test::has_note(p, "counters absent: sectors_global_ld/st (l1)")) << p.notes[0];
    EXPECT_TRUE(test::has_note(p, "l1 7e+04 ns"));
}

TEST(ModelProjectionPartial, AbsentFpCountersWidenByTheFpPeakRatio) {
    KernelRecord k = hbm_kernel();
    for (const char* c : {"thread_dadd", "thread_dmul", "thread_dfma", "thread_fadd", "thread_fmul",
                          "thread_ffma", "thread_hadd", "thread_hmul", "thread_hfma"}) {
        k.counters.erase(c);
    }
    config::Ceilings t = test::v100();
    t.gpu.key = "v100-fp32x2";
    t.gflops["fp32_fma"].value = 31400;
    const KernelAnalysis a = analyze_kernel(k, test::v100(), {t});
    const Projection& p = the_projection(a);
    // HBM binds on both, same bandwidth: 1e5. No mix: FP32 assumed; if the FMA pipe bound on
    // both: 1e5 x 15700 / 31400 = 5e4.
    EXPECT_NEAR(p.time_point_ns, 1e5, 1e-6);
    EXPECT_NEAR(p.time_low_ns, 5e4, 1e-6);
    EXPECT_NEAR(p.time_high_ns, 1e5, 1e-6);
    EXPECT_EQ(p.confidence, "low");
    EXPECT_TRUE(test::has_note(p, "thread_{d,f,h}{add,mul,fma} (flops)"));
}

TEST(ModelProjectionPartial, AMixWithoutFpInstructionsLacksNothing) {
    KernelRecord k = hbm_kernel();
    for (const char* c : {"thread_dadd", "thread_dmul", "thread_dfma", "thread_fadd", "thread_fmul",
                          "thread_ffma", "thread_hadd", "thread_hmul", "thread_hfma"}) {
        k.counters.erase(c);
    }
    k.counters["thread_class_integer"] = 1e7; // an integer-only kernel: no FP work to miss
    k.counters["thread_class_memory"] = 1e7;
    const KernelAnalysis a = analyze_kernel(k, test::v100(), {faster_v100()});
    const Projection& p = the_projection(a);
    EXPECT_EQ(p.point_method, "binding-resource");
    EXPECT_EQ(p.confidence, "high");
    EXPECT_NEAR(p.time_point_ns, 5e4, 1e-6);
}

TEST(ModelProjectionPartial, NoMemoryCountersAtAllStillProjectTheIssueSide) {
    KernelRecord k = hbm_kernel();
    for (const char* c :
         {"sectors_global_ld", "sectors_global_st", "wavefronts_shared_ld", "wavefronts_shared_st",
          "l2_sectors_read", "l2_sectors_write", "dram_sectors_read", "dram_sectors_write"}) {
        k.counters.erase(c);
    }
    const KernelAnalysis a = analyze_kernel(k, test::v100(), {faster_v100()});
    const Projection& p = the_projection(a);
    // Issue binds among the known (same issue rate): 1e5. The interval holds L1 (7e4), shared
    // (1e5: same rate), L2 (1e5) and HBM (1e5 x 828 / 1656 = 5e4).
    EXPECT_EQ(p.bound_source, "issue");
    EXPECT_NEAR(p.time_point_ns, 1e5, 1e-6);
    EXPECT_NEAR(p.time_low_ns, 5e4, 1e-6);
    EXPECT_NEAR(p.time_high_ns, 1e5, 1e-6);
    EXPECT_TRUE(test::has_note(p, "(l1, l2, hbm)"));
    EXPECT_TRUE(test::has_note(p, "no memory level could be projected"));
}

// Only a kernel without a time or instructions is not projected, and its verdicts say which
// (the text summary's "Verdicts left out"; never folded into "counters absent for").
TEST(ModelProjectionPartial, AKernelThatCannotBeProjectedSaysWhy) {
    KernelRecord no_time = hbm_kernel();
    no_time.counters.erase("time_ns");
    const KernelAnalysis a = analyze_kernel(no_time, test::v100(), {faster_v100(), test::v100()});
    EXPECT_TRUE(a.projection.empty());
    const auto has = [](const KernelAnalysis& x, const std::string& line) {
        return std::find(x.missing.begin(), x.missing.end(), line) != x.missing.end();
    };
    EXPECT_TRUE(has(a, "projection[v100-fast]: kernel time is 0 ns or absent"));
    EXPECT_TRUE(has(a, "projection[v100]: kernel time is 0 ns or absent"));
    KernelRecord no_inst = hbm_kernel();
    no_inst.counters.erase("inst_warp");
    const KernelAnalysis b = analyze_kernel(no_inst, test::v100(), {faster_v100()});
    EXPECT_TRUE(b.projection.empty());
    EXPECT_TRUE(has(b, "projection[v100-fast]: no instructions (inst_warp absent or 0)"));
}

TEST(ModelProjectionPartial, PartialLevelBytesSaysWhichLevelsAreComplete) {
    Counters c = test::kernel_counters(1, 1, {10, 4, 1});
    c.erase("wavefronts_shared_ld");
    const PartialLevelBytes b = partial_level_bytes(c);
    EXPECT_FALSE(b.complete[0]); // L1 needs shared wavefronts too
    EXPECT_TRUE(b.complete[1]);
    EXPECT_TRUE(b.complete[2]);
    EXPECT_DOUBLE_EQ(b.bytes.l1, (10 - 4) * 32.0);
    EXPECT_DOUBLE_EQ(b.bytes.l2, (4 - 1) * 32.0);
    EXPECT_DOUBLE_EQ(b.bytes.hbm, 32.0);
}

// Issue 54 (the H100 -> H200 training step's reduce kernels): HBM binds on the H100; on the H200
// at 4800 GB/s the issue time binds, but at its latency-bound 2756 GB/s HBM would again.
TEST(ModelProjectionPartial, AResourceThatBindsAtItsLowestFigureWidensTheInterval) {
    CeilingPair pair;
    pair.target.hbm_gbs = test::qty(4800, "GB/s");
    pair.target_spread["hbm_gbs"] = {2756, 4800};
    Projection p;
    p.bound_target = "issue";
    p.time_point_ns = p.time_low_ns = p.time_high_ns = 1000;
    p.confidence = "high";
    p.resource_ns_target = {{"issue", 1000}, {"hbm", 700}};
    Projection close = p;
    widen_by_spread(pair, close);
    // 700 x 4800 / 2756 = 1219.2 ns > 1000: high = 1000 x 1.2192; within 1.25, confidence stays.
    EXPECT_NEAR(close.time_high_ns, 700 * 4800 / 2756.0, 1e-9);
    EXPECT_EQ(close.confidence, "high");
    p.resource_ns_target["hbm"] = 800; // 800 x 4800 / 2756 = 1393.3: x1.39
    widen_by_spread(pair, p);
    EXPECT_NEAR(p.time_high_ns, 800 * 4800 / 2756.0, 1e-9);
    EXPECT_EQ(p.confidence, "low");
    EXPECT_TRUE(test::has_note(p, "hbm_gbs: at the target's lowest figure (2756) hbm would bind "
                                  "instead of issue"));
    Projection slack = p;
    slack.resource_ns_target["hbm"] = 500; // 870.9 < 1000: nothing
    slack.time_high_ns = 1000;
    slack.confidence = "high";
    widen_by_spread(pair, slack);
    EXPECT_DOUBLE_EQ(slack.time_high_ns, 1000);
    EXPECT_EQ(slack.confidence, "high");
}

// Item 8: a latency-bound kernel takes the ratio of the two GPUs' launch floors, here the
// shipped H100 and H200 figures from this project's recordings (0.7389 / 0.8964 us).
TEST(ModelProjectionPartial, ALatencyBoundKernelTakesTheLaunchFloorRatio) {
    KernelRecord k = test::kernel_record(1164, 1000);
    k.counters["inst_warp"] = 10; // busiest resource far under a tenth of 1164 ns
    config::Ceilings s = test::v100();
    config::Ceilings t = test::v100();
    t.gpu.key = "v100-floor";
    s.latency["launch_floor"] = test::qty(0.8964, "us");
    t.latency["launch_floor"] = test::qty(0.7389, "us");
    const KernelAnalysis a = analyze_kernel(k, s, {t});
    const Projection& p = the_projection(a);
    EXPECT_EQ(p.point_method, "latency-floor");
    EXPECT_NEAR(p.time_point_ns, 1164 * 0.7389 / 0.8964, 1e-9); // 959.5 ns
    EXPECT_NEAR(p.time_high_ns, 1164, 1e-9);                    // the resource ratio's 1.0
    EXPECT_EQ(p.confidence, "low");
    EXPECT_TRUE(test::has_note(p, "latency floor: t = t_s x the target's launch floor"));
    config::Ceilings no_floor = test::v100();
    no_floor.gpu.key = "v100-nofloor";
    const KernelAnalysis b = analyze_kernel(k, s, {no_floor});
    // One floor unknown, and no SM limits to count waves with: the resource ratio stays.
    EXPECT_EQ(the_projection(b).point_method, "binding-resource");
}

// A latency-bound launch of `blocks` blocks of 1024 threads (2 a cc 7.0 SM by warps), 10 ms with
// almost no work, from the V100 onto `t`, both with cc 7.0 SM limits and launch floors.
Projection latency_bound_onto(std::uint32_t blocks, config::Ceilings t) {
    KernelRecord k = test::kernel_record(1e7, blocks);
    k.launch.block = {1024, 1, 1};
    k.counters["inst_warp"] = 1000;
    config::Ceilings s = test::v100();
    s.gpu.sm_limits = test::cc70();
    t.gpu.sm_limits = test::cc70();
    s.latency["launch_floor"] = test::qty(0.8964, "us");
    t.latency["launch_floor"] = test::qty(0.7389, "us");
    const KernelAnalysis a = analyze_kernel(k, s, {t});
    EXPECT_EQ(a.projection.size(), 1u);
    return a.projection.empty() ? Projection{} : a.projection.front();
}

TEST(ModelProjectionPartial, ALongLatencyBoundLaunchTakesTheWavesAndSmClockRatio) {
    // 16 blocks: one wave on both, far over 4 launch floors (4 x 0.8964 us), so a chain of
    // dependent latencies at the SM clock: 1e7 x 1 / 1 x 1530 / 2040 = 7.5e6 ns.
    config::Ceilings t = test::v100();
    t.gpu.key = "v100-2040";
    t.clocks["sustained"] = test::qty(2040, "MHz");
    const Projection p = latency_bound_onto(16, t);
    EXPECT_EQ(p.point_method, "latency-clock");
    EXPECT_NEAR(p.time_point_ns, 7.5e6, 1e-6);
    EXPECT_EQ(p.confidence, "low");
    EXPECT_TRUE(test::has_note(p, "(1 / 1 x 1530 / 2040 MHz)"));
    // 1000 blocks, 2 an SM: 7 waves on 80 SMs (6 x 160 + 40), 13 on 40 (12 x 80 + 40):
    // 1e7 x 13 / 7 x 1530 / 1530 = 18,571,428.6 ns.
    config::Ceilings half = test::v100();
    half.gpu.key = "v100-half";
    half.gpu.sms = 40;
    const Projection q = latency_bound_onto(1000, half);
    EXPECT_EQ(q.point_method, "latency-clock");
    EXPECT_NEAR(q.time_point_ns, 1e7 * 13.0 / 7.0, 1e-3);
}

// "Launch floor + work": the floor's part scales by the floors' ratio, the rest by the resources'.
TEST(ModelProjectionPartial, FloorPlusWorkScalesOnlyTheWorkByTheResourceRatio) {
    // 5000 ns on a 2054 ns floor onto a 1953 ns one, the rest 6.2x faster:
    // 1953 + (5000 - 2054) / 6.2 = 1953 + 475.16 = 2428.16 ns.
    EXPECT_NEAR(floor_plus_work_ns(5000, 2054, 1953, 1 / 6.2), 2428.16, 0.01);
    // Shorter than the source's floor: the floors' ratio alone, 1500 x 1000 / 2000.
    EXPECT_DOUBLE_EQ(floor_plus_work_ns(1500, 2000, 1000, 0.2), 750);
}

TEST(ModelProjectionPartial, AKernelOnTwoLaunchFloorsTakesFloorPlusWork) {
    // The HBM-bound 100 us kernel onto the V100 with twice the DRAM: resource ratio 0.5 (point
    // 5e4 ns). With floors of 2 and 1.5 us: 2000 x 1.5 / 2 + (1e5 - 2000) x 0.5 = 50,500 ns.
    config::Ceilings s = test::v100();
    config::Ceilings t = faster_v100();
    s.latency["launch_floor"] = test::qty(2.0, "us");
    t.latency["launch_floor"] = test::qty(1.5, "us");
    const KernelAnalysis a = analyze_kernel(hbm_kernel(), s, {t});
    const Projection& p = the_projection(a);
    EXPECT_NEAR(p.time_point_ns, 50500, 1e-6);
    EXPECT_LE(p.time_low_ns, 5e4); // the resource ratio's point stays inside
    EXPECT_TRUE(test::has_note(p, "launch floor + work"));
}

// Only a point that scales the source's time is split into floor + work: one that is already a
// time of the target's own (its ceiling, its latencies) keeps its value.
TEST(ModelProjectionPartial, FloorPlusWorkLeavesATimeOfTheTargetsOwn) {
    config::Ceilings s = test::v100();
    config::Ceilings t = faster_v100();
    s.latency["launch_floor"] = test::qty(2.0, "us");
    t.latency["launch_floor"] = test::qty(1.5, "us");
    Projection p;
    p.time_low_ns = p.time_high_ns = 6e4;
    move_point(p, 6e4, 1e5, "saturated-target", PointBasis::target_own);
    apply_floor_plus_work(s, t, 1e5, 1e5, p);
    EXPECT_DOUBLE_EQ(p.time_point_ns, 6e4);
    EXPECT_EQ(p.point_method, "saturated-target");
    // The same point as the source's time x 0.6: 2000 x 1.5 / 2 + (1e5 - 2000) x 0.6 = 60,300.
    move_point(p, 6e4, 1e5, "warm-l2", PointBasis::scaled_source);
    apply_floor_plus_work(s, t, 1e5, 1e5, p);
    EXPECT_NEAR(p.time_point_ns, 60300, 1e-6);
    EXPECT_EQ(p.point_method, "warm-l2");
    EXPECT_TRUE(test::has_note(p, "launch floor + work"));
}

} // namespace
} // namespace test_projection_partial
} // namespace irf::model

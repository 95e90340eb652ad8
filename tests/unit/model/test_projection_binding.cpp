// SPDX-License-Identifier: Apache-2.0
// Projection on the resource that binds (issue, FLOPs per precision, L1, L2, HBM), worked by hand
// on the seed papers' V100 (test_model_fixtures.hpp), docs/model.md: HRM Eq. 2-4 per
// precision, PROJ Eq. 2-3 (Perf_ceil) and Eq. 9 in time form.
#include <gtest/gtest.h>

#include <string>

#include "model/analyze.hpp"
#include "model/projection/projection.hpp"
#include "model/projection/resource_times.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_projection_binding {
namespace {

KernelRecord kernel() {
    KernelRecord k = test::kernel_record(1e5, 1000);
    k.counters["inst_warp"] = 1e6; // issue: 1e6 / 489.6 = 2042.5 ns on the V100
    return k;
}

Projection project_onto(const KernelRecord& k, const config::Ceilings& target) {
    const KernelAnalysis a = analyze_kernel(k, test::v100(), {target});
    EXPECT_EQ(a.projection.size(), 1u);
    return a.projection.empty() ? Projection{} : a.projection.front();
}

bool has_note(const Projection& p, const std::string& text) {
    for (const std::string& n : p.notes) {
        if (n.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

// Issue 40 item 5: the FP64 and FMA pipes run at once (HRM Eq. 2-3: one roofline per precision),
// so the FLOP time is the longer pipe, not the sum.
TEST(ModelResourceTimes, ComputeTimeIsTheLongestPipe) {
    KernelRecord k = kernel();
    k.counters["thread_dfma"] = 2e8; // 4e8 FP64 FLOPs
    k.counters["thread_ffma"] = 3e8; // 6e8 FP32 FLOPs
    const ResourceTimes r = resource_times(k.counters, test::v100(), 1.0);
    // FP64 pipe 4e8 / 7800 = 51282.05 ns; FMA pipe 6e8 / 15700 = 38216.56 ns; max = 51282.05
    EXPECT_NEAR(*r.ns.at("flops"), 51282.05, 0.01);
    EXPECT_NEAR(r.flops_ns.at("fp32"), 38216.56, 0.01);
    EXPECT_EQ(binding_resource(r), "flops");
}

// docs/model.md, "Resource times": the binding resource is the one with the longest time and
// `issue` wins ties. Issue, FLOPs, L2 and HBM all at 1000 ns (L1 at 500): issue. HBM 1 ns longer
// (1001 > 1000): HBM.
TEST(ModelResourceTimes, IssueWinsATieForTheBindingResource) {
    ResourceTimes r;
    r.ns = {{"issue", 1000.0}, {"flops", 1000.0}, {"l1", 500.0}, {"l2", 1000.0}, {"hbm", 1000.0}};
    EXPECT_EQ(binding_resource(r), "issue");
    r.ns["hbm"] = 1001.0;
    EXPECT_EQ(binding_resource(r), "hbm");
    r.ns["hbm"] = 999.0; // issue ties FLOPs and L2 alone
    EXPECT_EQ(binding_resource(r), "issue");
}

TEST(ModelResourceTimes, Fp32AndFp16AddOnTheFmaPipe) {
    KernelRecord k = kernel();
    k.counters["thread_ffma"] = 3e8; // 6e8 FP32 FLOPs / 15700 = 38216.56 ns
    k.counters["thread_hfma"] = 6e8; // 1.2e9 FP16 FLOPs / 31400 = 38216.56 ns
    k.counters["thread_dfma"] = 2e8; // 4e8 FP64 FLOPs / 7800 = 51282.05 ns, its own pipe
    const ResourceTimes r = resource_times(k.counters, test::v100(), 1.0);
    // FMA pipe 38216.56 + 38216.56 = 76433.12 ns > FP64 pipe 51282.05 ns
    EXPECT_NEAR(*r.ns.at("flops"), 76433.12, 0.01);
    EXPECT_EQ(flop_pipe("fp16"), "fma");
    EXPECT_EQ(flop_pipe("tensor_bf16"), "tensor");
}

TEST(ModelProjectionBinding, Fp64AndFp32ProjectPerPrecision) {
    KernelRecord k = kernel();
    k.counters["thread_dfma"] = 2e8;
    k.counters["thread_ffma"] = 3e8;
    config::Ceilings target = test::v100();
    target.gpu.key = "weak-fp64";
    target.gflops["fp64_fma"].value = 780; // FP64 at 1/10: an L40S-like FP64 unit
    const Projection p = project_onto(k, target);
    EXPECT_EQ(p.bound_source, "flops");
    EXPECT_EQ(p.basis, "flops");
    // Source: max(4e8 / 7800, 6e8 / 15700) = 51282.05 ns; target: max(4e8 / 780, 38216.6) =
    // 512820.5 ns; t = 1e5 x 512820.5 / 51282.05 = 1e6 ns (10x slower: the FP64 pipe alone).
    // The dominant precision (FP32, equal on both GPUs) alone would have said 1.0x.
    EXPECT_NEAR(p.time_point_ns, 1e6, 1e-3);
    EXPECT_EQ(p.point_method, "binding-resource");
}

TEST(ModelProjectionBinding, IssueBoundKernelIgnoresATrickleOfFp64) {
    KernelRecord k = kernel();
    k.counters["inst_warp"] = 4.896e7; // issue: 4.896e7 / 489.6 = 1e5 ns, the whole run
    k.counters["thread_dfma"] = 1e5;   // 2e5 FLOPs: 2e5 / 7800 = 25.6 ns
    config::Ceilings target = test::v100();
    target.gpu.key = "more-sms-weak-fp64";
    target.gpu.sms = 160;                 // issue 979.2 GIPS: 5e4 ns
    target.gflops["fp64_fma"].value = 78; // FP64 at 1/100: 2e5 / 78 = 2564 ns, still < 5e4
    const Projection p = project_onto(k, target);
    EXPECT_EQ(p.bound_source, "issue");
    EXPECT_EQ(p.bound_target, "issue");
    EXPECT_EQ(p.basis, "instructions");
    // t = 1e5 x 5e4 / 1e5 = 5e4 (2x faster), not 1e5 x 7800 / 78 = 1e7 (100x slower)
    EXPECT_NEAR(p.time_point_ns, 5e4, 1e-6);
    EXPECT_NEAR(p.speedup_point, 2, 1e-9);
}

TEST(ModelProjectionBinding, BindingLevelIsNotTheIntervalMinimum) {
    KernelRecord k = kernel();
    k.counters["sectors_global_ld"] = 1e6; // L1: 3.2e7 B / 14000 = 2285.7 ns
    k.counters["l2_sectors_read"] = 1e6;   // L2: 3.2e7 B / 2996 = 10680.9 ns (binds)
    k.counters["dram_sectors_read"] = 1e5; // HBM: 3.2e6 B / 828 = 3864.7 ns
    config::Ceilings target = test::v100();
    target.gpu.key = "v100-hbm2x";
    target.hbm_gbs->value = 1656; // HBM 1932.4 ns; L2 unchanged, so L2 still binds
    const Projection p = project_onto(k, target);
    EXPECT_EQ(p.bound_source, "l2");
    EXPECT_EQ(p.bound_target, "l2");
    // Point: t = 1e5 x 10680.9 / 10680.9 = 1e5 (the L2 is the same)
    EXPECT_NEAR(p.time_point_ns, 1e5, 1e-6);
    // Eq. 9 at HBM: 1e5 x max(1932.4, issue 2042.5) / max(3864.7, 2042.5) = 52849.3
    const double hbm = 1e5 * (1e6 / 489.6) / (3.2e6 / 828);
    EXPECT_NEAR(p.time_eq9_low_ns, hbm, 1e-6);
    EXPECT_NEAR(p.time_eq9_low_ns, 52849.3, 0.1);
    EXPECT_NEAR(p.time_low_ns, 52849.3, 0.1);
    // Eq. 9 at L2 (Eq. 7, 2.88e7 B of L2 hits): 1e5 x (2.88e7/2996 + 3.2e6/1656) /
    // (2.88e7/2996 + 3.2e6/828) = 1e5 x 11545.2 / 13477.5 = 85662.7; L1 has no hits: the same.
    const double l2 = 1e5 * (2.88e7 / 2996 + 3.2e6 / 1656) / (2.88e7 / 2996 + 3.2e6 / 828);
    EXPECT_NEAR(p.time_eq9_high_ns, l2, 1e-6);
    // The point (1e5) lies above PROJ's Eq. 9 interval [52849.3, 85662.7]: the reported interval
    // is widened to [52849.3, 1e5] so that low <= point <= high; the mean stays PROJ's
    // 2 / (1/52849.3 + 1/85662.7) = 65369.1
    EXPECT_NEAR(p.time_high_ns, 1e5, 1e-6);
    EXPECT_NEAR(p.time_mean_ns, 2 / (1 / hbm + 1 / l2), 1e-6);
    EXPECT_NEAR(p.time_mean_ns, 65369.1, 0.1);
    EXPECT_GT(p.time_point_ns, p.time_low_ns);
    EXPECT_LE(p.time_point_ns, p.time_high_ns);
    EXPECT_TRUE(has_note(p, "outside the Eq. 9 interval"));
}

TEST(ModelProjectionBinding, PointInsideTheIntervalAboveItsLowEnd) {
    KernelRecord k = kernel();
    k.counters["sectors_global_ld"] = 1e6; // L1: 3.2e7 B / 14000 = 2285.7 ns
    k.counters["l2_sectors_read"] = 1e6;   // L2: 3.2e7 B / 2996 = 10680.9 ns (binds)
    k.counters["dram_sectors_read"] = 1e5; // HBM: 3.2e6 B / 828 = 3864.7 ns
    config::Ceilings target = test::v100();
    target.gpu.key = "v100-l2-2x-hbm-4x";
    target.l2_gbs->value = 5992;  // L2: 3.2e7 / 5992 = 5340.5 ns (still binds)
    target.hbm_gbs->value = 3312; // HBM: 3.2e6 / 3312 = 966.2 ns
    const Projection p = project_onto(k, target);
    EXPECT_EQ(p.bound_source, "l2");
    EXPECT_EQ(p.bound_target, "l2");
    // Point: 1e5 x 5340.5 / 10680.9 = 5e4
    EXPECT_NEAR(p.time_point_ns, 5e4, 1e-6);
    // Eq. 9 at HBM: 1e5 x max(966.2, issue 2042.5) / max(3864.7, 2042.5) = 1e5 x 2042.5 / 3864.7
    // = 52849.3 (the issue time, unchanged, floors it)
    const double hbm = 1e5 * (1e6 / 489.6) / (3.2e6 / 828);
    // Eq. 9 at L2 (Eq. 7): 1e5 x (2.88e7/5992 + 3.2e6/3312) / (2.88e7/2996 + 3.2e6/828)
    // = 1e5 x (4806.4 + 966.2) / (9612.8 + 3864.7) = 1e5 x 5772.6 / 13477.5 = 42831.2
    const double l2 = 1e5 * (2.88e7 / 5992 + 3.2e6 / 3312) / (2.88e7 / 2996 + 3.2e6 / 828);
    EXPECT_NEAR(l2, 42831.2, 0.1);
    EXPECT_NEAR(p.time_low_ns, l2, 1e-6);
    EXPECT_NEAR(p.time_high_ns, hbm, 1e-6);
    // The point is neither end: low 42831.2 < 5e4 < high 52849.3, and the interval is PROJ's
    EXPECT_GT(p.time_point_ns, p.time_low_ns);
    EXPECT_LT(p.time_point_ns, p.time_high_ns);
    EXPECT_NEAR(p.time_eq9_low_ns, p.time_low_ns, 1e-9);
    EXPECT_NEAR(p.time_eq9_high_ns, p.time_high_ns, 1e-9);
    EXPECT_FALSE(has_note(p, "outside the Eq. 9 interval"));
}

TEST(ModelProjectionBinding, PointBelowTheIntervalWidensItsLowEnd) {
    KernelRecord k = kernel();
    k.counters["sectors_global_ld"] = 1e6; // L1: 3.2e7 B / 14000 = 2285.7 ns
    k.counters["l2_sectors_read"] = 1e6;   // L2: 3.2e7 B / 2996 = 10680.9 ns (binds)
    k.counters["dram_sectors_read"] = 1e5; // HBM: 3.2e6 B / 828 = 3864.7 ns
    config::Ceilings target = test::v100();
    target.gpu.key = "v100-l2-4x";
    target.l2_gbs->value = 11984; // L2: 3.2e7 / 11984 = 2670.2 ns; HBM 3864.7 now binds
    const Projection p = project_onto(k, target);
    EXPECT_EQ(p.bound_source, "l2");
    EXPECT_EQ(p.bound_target, "hbm");
    // Point: 1e5 x 3864.73 / 10680.91 = 36183.6 (3.2e6/828 over 3.2e7/2996 = 0.361836)
    const double point = 1e5 * (3.2e6 / 828) / (3.2e7 / 2996);
    EXPECT_NEAR(p.time_point_ns, point, 1e-6);
    EXPECT_NEAR(p.time_point_ns, 36183.6, 0.1);
    // Eq. 9 at L2 (Eq. 7): 1e5 x (2.88e7/11984 + 3864.7) / 13477.5 = 1e5 x 6267.9 / 13477.5
    // = 46506.6; at HBM: 1e5 x 3864.7 / 3864.7 = 1e5. The point lies below both.
    const double l2 = 1e5 * (2.88e7 / 11984 + 3.2e6 / 828) / (2.88e7 / 2996 + 3.2e6 / 828);
    EXPECT_NEAR(l2, 46506.6, 0.1);
    EXPECT_NEAR(p.time_eq9_low_ns, l2, 1e-6);
    EXPECT_NEAR(p.time_eq9_high_ns, 1e5, 1e-6);
    EXPECT_NEAR(p.time_low_ns, point, 1e-6);
    EXPECT_NEAR(p.time_high_ns, 1e5, 1e-6);
    EXPECT_TRUE(has_note(p, "outside the Eq. 9 interval"));
}

TEST(ModelProjectionBinding, UndecidedBoundUsesTheIntervalMean) {
    KernelRecord k = kernel();
    k.counters["sectors_global_ld"] = 1e6;
    k.counters["l2_sectors_read"] = 1e6;
    k.counters["dram_sectors_read"] = 1e5;
    // The source's L2 might bind: unknown, so its bound is undecided. (A target without an L2
    // figure gets an estimated one instead: unit.ModelTargetEstimate.)
    config::Ceilings source = test::v100();
    source.l2_gbs.reset();
    const KernelAnalysis a = analyze_kernel(k, source, {test::v100()});
    ASSERT_EQ(a.projection.size(), 1u);
    const Projection& p = a.projection[0];
    EXPECT_EQ(p.bound_source, "");
    EXPECT_EQ(p.point_method, "interval-mean");
    EXPECT_EQ(p.confidence, "low");
    // Only the HBM level projects (Eq. 7 needs the L2): 1e5 x max(3864.7, 2042.5) / 3864.7 = 1e5
    EXPECT_NEAR(p.time_low_ns, 1e5, 1e-6);
    EXPECT_NEAR(p.time_high_ns, 1e5, 1e-6);
    EXPECT_NEAR(p.time_point_ns, 1e5, 1e-6);
    EXPECT_TRUE(has_note(p, "l2: counters or ceiling unknown"));
}

TEST(ModelProjectionBinding, IntervalMeanIsHarmonicInTime) {
    // Performance interval [W/200, W/100]; its mean W x (1/100 + 1/200) / 2 in time is
    // 2 / (1/100 + 1/200) = 133.33 ns (the arithmetic mean of times would be 150)
    EXPECT_NEAR(interval_mean_ns(100, 200), 400.0 / 3.0, 1e-9);
}

TEST(ModelProjectionBinding, L1BoundKernelFollowsTheL1) {
    KernelRecord k = kernel();
    k.counters["wavefronts_shared_ld"] = 1e6; // 4e6 L1 transactions: 1.28e8 B / 14000 = 9142.9 ns
    k.counters["sectors_global_ld"] = 1e4;
    k.counters["l2_sectors_read"] = 1e4;   // 3.2e5 B / 2996 = 106.8 ns
    k.counters["dram_sectors_read"] = 1e4; // 3.2e5 B / 828 = 386.5 ns
    config::Ceilings target = test::v100();
    target.gpu.key = "l1-2x";
    target.l1_gbs->value = 28000;
    target.shared_gbs->value = 28000;
    const Projection p = project_onto(k, target);
    EXPECT_EQ(p.bound_source, "l1");
    EXPECT_EQ(p.bound_target, "l1");
    // Target L1: (1.28e8 + 3.2e5) B / 28000 = 4582.9 ns > issue 2042.5;
    // t = 1e5 x 4582.9 / 9165.7 = 5e4
    EXPECT_NEAR(p.time_point_ns, 5e4, 1e-6);
    EXPECT_NEAR(p.speedup_point, 2, 1e-9);
}

TEST(ModelProjectionBinding, TensorDominantKernelUsesTensorPeakPerType) {
    KernelRecord k = kernel();
    k.counters["tensor_ops_fp16"] = 1e10; // 1e10 / 125e3 GFLOP/s = 8e4 ns
    k.counters["inst_tensor"] = 1e5;
    k.counters["thread_ffma"] = 1e6; // 2e6 FP32 FLOPs / 15700 = 127.39 ns
    config::Ceilings target = test::v100();
    target.gpu.key = "tensor-2x";
    target.tensor_tflops["fp16"].value = 250; // 4e4 ns
    const Projection p = project_onto(k, target);
    EXPECT_EQ(p.bound_source, "flops");
    EXPECT_EQ(p.basis, "flops");
    // The tensor and FMA pipes run at once: t = 1e5 x max(4e4, 127.39) / max(8e4, 127.39) = 5e4
    // (summing them said 50079.5)
    EXPECT_NEAR(p.time_point_ns, 5e4, 1e-6);
}

TEST(ModelProjectionBinding, FlopsPerPrecisionInTheAnalysis) {
    KernelRecord k = kernel();
    k.counters["thread_dfma"] = 2e8; // 4e8 FLOPs over 1e5 ns = 4000 GFLOP/s
    k.counters["thread_ffma"] = 3e8; // 6e8 FLOPs = 6000 GFLOP/s
    k.counters["sectors_global_ld"] = 1e6;
    k.counters["l2_sectors_read"] = 1e6;
    k.counters["dram_sectors_read"] = 1e5;
    const KernelAnalysis a = analyze_kernel(k, test::v100(), {});
    ASSERT_TRUE(a.flops.has_value());
    const PrecisionFlops& fp64 = a.flops->by_precision.at("fp64");
    EXPECT_NEAR(fp64.gflops, 4000, 1e-9);
    // AI at HBM: 4e8 / (1e5 x 32 B) = 125 FLOP/B (hierarchical Eq. 2 for FP64 alone)
    EXPECT_NEAR(*fp64.ai.hbm, 125, 1e-9);
    EXPECT_NEAR(*fp64.ceiling_gflops, 7800, 1e-9); // all FMA: Perf_mix = Perf_FMA (Eq. 2)
    EXPECT_NEAR(a.flops->by_precision.at("fp32").gflops, 6000, 1e-9);
}

} // namespace
} // namespace test_projection_binding
} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// L2 working set from L2 and DRAM traffic, the fits-one-L2-only flag and the DRAM re-estimate
// (docs/model.md, "L2 capacity"; projection-upcoming-gpus section 5.5, LULESH), worked by hand.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "model/analyze.hpp"
#include "model/projection/l2_capacity.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_l2_capacity {
namespace {

TEST(ModelL2Capacity, WorkingSetFromL2AndDramTraffic) {
    // Fits (4 MB of DRAM on a 6 MB L2): compulsory misses only, W = 4 MB
    EXPECT_DOUBLE_EQ(working_set_bytes(100e6, 4e6, 6e6), 4e6);
    // Spills: W = T x C / (T + C - D) = 100 x 6 / (100 + 6 - 60) = 600 / 46 = 13.043 MB
    EXPECT_NEAR(working_set_bytes(100e6, 60e6, 6e6), 600e6 / 46, 1e-6);
    // No hits at all (D = T): every byte is unique, W = T
    EXPECT_DOUBLE_EQ(working_set_bytes(20e6, 20e6, 6e6), 20e6);
}

TEST(ModelL2Capacity, DramTrafficIsTheInverse) {
    const double w = 600e6 / 46;
    // 13.043 + (100 - 13.043) x (1 - 6 / 13.043) = 13.043 + 86.957 x 0.54 = 60 MB
    EXPECT_NEAR(dram_traffic_bytes(w, 100e6, 6e6), 60e6, 1e-6);
    // On a 40 MB L2 the 13 MB working set fits: compulsory misses only
    EXPECT_DOUBLE_EQ(dram_traffic_bytes(w, 100e6, 40e6), w);
}

// The test V100 with an L2 of `l2` bytes.
config::Ceilings with_l2(double l2, const char* key) {
    config::Ceilings c = test::v100();
    c.gpu.key = key;
    c.gpu.l2_bytes = static_cast<std::uint64_t>(l2);
    return c;
}

// Per launch (2 launches): 100 MB through L2 (3.125e6 sectors), `dram` bytes from DRAM.
KernelRecord lulesh_like(double dram) {
    KernelRecord k = test::kernel_record(2e5, 1000);
    k.profiled_launches = 2;
    k.counters["inst_warp"] = 1000;
    k.counters["sectors_global_ld"] = 2 * 3.125e6;
    k.counters["l2_sectors_read"] = 2 * 3.125e6;
    k.counters["dram_sectors_read"] = 2 * dram / 32;
    return k;
}

Projection project(const KernelRecord& k, const config::Ceilings& s, const config::Ceilings& t) {
    const KernelAnalysis a = analyze_kernel(k, s, {t});
    EXPECT_EQ(a.projection.size(), 1u);
    return a.projection.empty() ? Projection{} : a.projection.front();
}

TEST(ModelL2Capacity, SpillsTheSourceFitsTheTargetLulesh) {
    // 6 MB L2 source, 60 MB of DRAM per launch: W = 13.043 MB (above), fits a 40 MB target,
    // where DRAM traffic falls to the compulsory 13.043 MB.
    const Projection p = project(lulesh_like(60e6), with_l2(6e6, "small"), with_l2(40e6, "big"));
    ASSERT_TRUE(p.l2.has_value());
    EXPECT_NEAR(p.l2->l2_traffic_bytes, 100e6, 1e-3);
    EXPECT_NEAR(p.l2->dram_source_bytes, 60e6, 1e-3);
    EXPECT_FALSE(p.l2->fits_source);
    EXPECT_TRUE(p.l2->fits_target);
    EXPECT_TRUE(p.l2->re_estimated);
    EXPECT_NEAR(p.l2->dram_target_bytes, 600e6 / 46, 1e-3);
    EXPECT_EQ(p.confidence, "low");
    // Source: HBM 2 x 60e6 / 828 = 144,928 ns binds (L2 2 x 100e6 / 2996 = 66,756 ns).
    // Target: HBM 2 x 13.043e6 / 828 = 31,506 ns, so L2 binds at 66,756 ns.
    // t = 2e5 x 66,756 / 144,928 = 92,124 ns (the measured DRAM traffic would have kept 2e5)
    EXPECT_EQ(p.bound_source, "hbm");
    EXPECT_EQ(p.bound_target, "l2");
    EXPECT_NEAR(p.time_point_ns, 2e5 * (2 * 100e6 / 2996) / (2 * 60e6 / 828), 1e-6);
    EXPECT_NEAR(p.resource_ns_target.at("hbm"), 2 * (600e6 / 46) / 828, 1e-6);
}

TEST(ModelL2Capacity, FitsTheSourceSpillsTheTarget) {
    // The reverse: 13.043 MB of DRAM on a 40 MB L2 fits (W = 13.043 MB); on a 6 MB L2 the model
    // re-estimates 60 MB per launch (the inverse above). A smaller target L2 keeps the measured
    // traffic in the point (reuse in tiles is short-range): L2 binds on both, 2 x 100e6 / 2996 =
    // 66,756 ns, so t = 2e5; the interval holds HBM at the re-estimate, 2 x 60e6 / 828 =
    // 144,928 ns: 2e5 x 144,928 / 66,756 = 434,204 ns.
    const Projection p =
        project(lulesh_like(600e6 / 46), with_l2(40e6, "big"), with_l2(6e6, "small"));
    ASSERT_TRUE(p.l2.has_value());
    EXPECT_TRUE(p.l2->fits_source);
    EXPECT_FALSE(p.l2->fits_target);
    EXPECT_NEAR(p.l2->dram_target_bytes, 60e6, 1e-3);
    EXPECT_EQ(p.bound_target, "l2");
    EXPECT_NEAR(p.time_point_ns, 2e5, 1e-6);
    EXPECT_NEAR(p.time_high_ns, 2e5 * (2 * 60e6 / 828) / (2 * 100e6 / 2996), 1e-6);
    EXPECT_EQ(p.confidence, "low");
    EXPECT_TRUE(test::has_note(p, "fits the source's L2 only"));
    EXPECT_TRUE(test::has_note(p, "the point keeps the measured DRAM traffic"));
    EXPECT_TRUE(test::has_note(p, "the target's smaller L2 may keep less of the reuse"));
}

TEST(ModelL2Capacity, AWorkingSetThatFitsNeitherL2KeepsTheMeasuredTrafficInThePoint) {
    // W = 300 / 23 = 13.043 MB fits neither a 6 MB nor a 10 MB L2. The re-estimate on 10 MB:
    // 13.043 + 86.957 x (1 - 10 / 13.043) = 300/23 + 2000/23 x 7/30 = 33.333 MB (100 / 3), but
    // the point keeps the measured 60 MB (the source's hits are short-range reuse): HBM binds on
    // both at 144,928 ns, t = 2e5. The interval holds HBM at the re-estimate:
    // 2e5 x 33.333 / 60 = 111,111.1 ns.
    const Projection p = project(lulesh_like(60e6), with_l2(6e6, "small"), with_l2(10e6, "mid"));
    ASSERT_TRUE(p.l2.has_value());
    EXPECT_FALSE(p.l2->fits_source);
    EXPECT_FALSE(p.l2->fits_target);
    EXPECT_NEAR(p.l2->dram_target_bytes, 100e6 / 3, 1e-3);
    EXPECT_NEAR(p.time_point_ns, 2e5, 1e-6);
    EXPECT_NEAR(p.time_low_ns, 2e5 / 1.8, 1e-3);
    EXPECT_EQ(p.confidence, "low");
    EXPECT_TRUE(test::has_note(p, "fits neither L2"));
    EXPECT_TRUE(test::has_note(p, "the point keeps the measured DRAM traffic"));
    EXPECT_TRUE(test::has_note(p, "the target's larger L2 may keep more of the reuse"));
}

// Streaming, no reuse: 20 MB through L2 and 20 MB from DRAM per launch, so W = 20 MB fits a
// 40 MB L2 but not a 6 MB one; yet the target moves the same 20 MB (W + 0 reuse), so nothing
// is re-estimated and the projection keeps its confidence.
TEST(ModelL2Capacity, StreamingKernelKeepsItsTrafficAndConfidence) {
    KernelRecord k = lulesh_like(20e6);
    k.counters["sectors_global_ld"] = 2 * 20e6 / 32;
    k.counters["l2_sectors_read"] = 2 * 20e6 / 32;
    const Projection p = project(k, with_l2(40e6, "big"), with_l2(6e6, "small"));
    ASSERT_TRUE(p.l2.has_value());
    EXPECT_TRUE(p.l2->fits_source);
    EXPECT_FALSE(p.l2->fits_target);
    EXPECT_FALSE(p.l2->re_estimated);
    EXPECT_DOUBLE_EQ(p.l2->dram_target_bytes, 20e6);
    EXPECT_EQ(p.confidence, "high");
    EXPECT_TRUE(test::has_note(p, "no reuse in L2, so the same DRAM traffic on the target"));
}

// Issue 40 item 3: the target's DRAM traffic is the formula at its capacity whenever the L2
// sizes differ, so a working set near a capacity moves the answer a little, never by a jump.
std::optional<L2Fit> fit(double l2_traffic, double dram, double c_s, double c_t) {
    LevelBytes bytes;
    bytes.l2 = l2_traffic - dram; // L2 hits
    bytes.hbm = dram;
    config::GpuIdentity s, t;
    s.l2_bytes = static_cast<std::uint64_t>(c_s);
    t.l2_bytes = static_cast<std::uint64_t>(c_t);
    std::string why;
    return l2_fit(bytes, 1, s, t, why);
}

TEST(ModelL2Capacity, AWorkingSetAcrossTheTargetCapacityMovesLittle) {
    // 200 MB through a 40 MB source L2 onto a 50 MB target L2.
    // W = 49.5 MB: D_s = 49.5 + 150.5 x (1 - 40/49.5) = 49.5 + 28.884 = 78.384 MB; fits the
    // target: 49.5 MB.
    const auto below = fit(200e6, 49.5e6 + 150.5e6 * (1 - 40 / 49.5), 40e6, 50e6);
    // W = 50.5 MB: D_s = 50.5 + 149.5 x (1 - 40/50.5) = 81.584 MB; on the target
    // 50.5 + 149.5 x (1 - 50/50.5) = 50.5 + 1.480 = 51.980 MB (the old rule kept 81.584 MB)
    const auto above = fit(200e6, 50.5e6 + 149.5e6 * (1 - 40 / 50.5), 40e6, 50e6);
    ASSERT_TRUE(below && above);
    EXPECT_NEAR(below->working_set_bytes, 49.5e6, 1);
    EXPECT_NEAR(below->dram_target_bytes, 49.5e6, 1);
    EXPECT_NEAR(above->working_set_bytes, 50.5e6, 1);
    EXPECT_FALSE(above->fits_target);
    EXPECT_NEAR(above->dram_target_bytes, 51.980e6, 1e3);
    EXPECT_TRUE(above->re_estimated);
}

TEST(ModelL2Capacity, AWorkingSetThatFitsNeitherL2StillFollowsTheCapacity) {
    // H100 -> B200-like: W = 200 MB, T = 400 MB, 50 MB source and 125 MB target L2.
    // D_s = 200 + 200 x (1 - 50/200) = 350 MB; D_t = 200 + 200 x (1 - 125/200) = 275 MB
    const auto f = fit(400e6, 350e6, 50e6, 125e6);
    ASSERT_TRUE(f);
    EXPECT_NEAR(f->working_set_bytes, 200e6, 1);
    EXPECT_FALSE(f->fits_source);
    EXPECT_FALSE(f->fits_target);
    EXPECT_NEAR(f->dram_target_bytes, 275e6, 1);
}

TEST(ModelL2Capacity, SameL2KeepsTheMeasuredTraffic) {
    const Projection p = project(lulesh_like(60e6), with_l2(6e6, "a"), with_l2(6e6, "b"));
    ASSERT_TRUE(p.l2.has_value());
    EXPECT_FALSE(p.l2->re_estimated);
    EXPECT_DOUBLE_EQ(p.l2->dram_target_bytes, p.l2->dram_source_bytes);
    EXPECT_EQ(p.confidence, "high");
}

TEST(ModelL2Capacity, UnknownL2SizeIsSaid) {
    const Projection p = project(lulesh_like(60e6), with_l2(6e6, "a"), with_l2(0, "b"));
    EXPECT_FALSE(p.l2.has_value());
    EXPECT_TRUE(test::has_note(p, "L2 capacity effects not checked (L2 size unknown)"));
}

} // namespace
} // namespace test_l2_capacity
} // namespace irf::model

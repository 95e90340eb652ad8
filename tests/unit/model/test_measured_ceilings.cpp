// SPDX-License-Identifier: Apache-2.0
// Measured maxima are preferred over peaks (docs/model.md: PROJ section 4.1), and the
// profile says which were used.
#include <gtest/gtest.h>

#include "model/analyze.hpp"
#include "model/projection/measured_ceilings.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_measured_ceilings {
namespace {

config::Quantity alternative(double value, config::Provenance p) {
    config::Quantity q = test::qty(value, "GB/s");
    q.provenance = p;
    return q;
}

TEST(ModelMeasuredCeilings, LargestMeasurementReplacesAPeak) {
    config::Ceilings c = test::v100();
    c.l2_gbs->provenance = config::Provenance::spec; // 2996 as if it were a peak
    c.l2_gbs->alternatives = {alternative(2460, config::Provenance::published),
                              alternative(2700, config::Provenance::measured),
                              alternative(3500, config::Provenance::spec)};
    const config::Ceilings m = prefer_measured(c);
    // The largest measured or published alternative: max(2460, 2700) = 2700; spec 3500 ignored
    EXPECT_DOUBLE_EQ(m.l2_gbs->value, 2700);
    EXPECT_EQ(ceiling_provenance(m).at("l2_gbs"), "measured");
    EXPECT_EQ(ceiling_provenance(c).at("l2_gbs"), "spec");
}

TEST(ModelMeasuredCeilings, AMeasuredValueIsKept) {
    config::Ceilings c = test::v100();
    c.hbm_gbs->provenance = config::Provenance::published; // 828, ERT
    c.hbm_gbs->alternatives = {alternative(900, config::Provenance::measured)};
    EXPECT_DOUBLE_EQ(prefer_measured(c).hbm_gbs->value, 828);
}

config::Quantity measured(double value, const char* method) {
    config::Quantity q = alternative(value, config::Provenance::published);
    q.method = method;
    return q;
}

TEST(ModelMeasuredCeilings, KindIsTheBenchmarkAndItsPattern) {
    EXPECT_EQ(measurement_kind(measured(1, "gpu-stream write-only (init); the card ran at")),
              "gpu-stream write-only");
    EXPECT_EQ(measurement_kind(measured(1, "gpu-stream triad")), "gpu-stream triad");
    EXPECT_TRUE(is_write_only_kind("gpu-stream write-only"));
    EXPECT_FALSE(is_write_only_kind("gpu-stream triad"));
}

// An HBM-bound kernel on the test V100 (828 GB/s peak): 8e7 B, 1e5 ns.
Profile hbm_bound(const char* dram_counter) {
    Profile p;
    KernelRecord k = test::kernel_record(1e5, 1000);
    k.counters["inst_warp"] = 1e6;
    k.counters["sectors_global_ld"] = 2.5e6;
    k.counters["l2_sectors_read"] = 2.5e6;
    k.counters[dram_counter] = 2.5e6; // 8e7 B / 828 GB/s = 96618 ns
    p.kernels.push_back(k);
    return p;
}

// A target at twice the V100's HBM peak (1656 GB/s) with the given measurements.
config::Ceilings fast_target(std::vector<config::Quantity> hbm_measurements) {
    config::Ceilings t = test::v100();
    t.gpu.key = "hbm-2x";
    t.hbm_gbs->value = 1656;
    t.hbm_gbs->alternatives = std::move(hbm_measurements);
    return t;
}

Projection project_hbm(const config::Ceilings& source, const config::Ceilings& target,
                       const char* dram_counter = "dram_sectors_read") {
    Profile p = hbm_bound(dram_counter);
    analyze(p, source, {target});
    return p.kernels[0].analysis->projection.at(0);
}

// Issue 40 item 1: a target's measurement is never set against a source's peak.
TEST(ModelMeasuredCeilings, ATargetMeasurementAloneLeavesBothPeaks) {
    const Projection p =
        project_hbm(test::v100(), fast_target({measured(1000, "gpu-stream triad")}));
    // Peaks on both: t = 1e5 x (8e7 / 1656) / (8e7 / 828) = 5e4 (mixing gave 1e5 x 828/1000)
    EXPECT_NEAR(p.time_point_ns, 5e4, 1e-6);
    EXPECT_TRUE(test::has_note(p, "ceilings like with like (PROJ 4.1): the files' values on both"));
}

TEST(ModelMeasuredCeilings, BothTakeTheKindTheyShareClosestToTheirPeaks) {
    config::Ceilings s = test::v100();
    s.hbm_gbs->alternatives = {measured(700, "gpu-stream triad"),
                               measured(600, "gpu-stream read-only")};
    const config::Ceilings t =
        fast_target({measured(1400, "gpu-stream triad"), measured(1500, "gpu-stream read-only")});
    // triad: min(700/828, 1400/1656) = 0.845; read-only: min(600/828, 1500/1656) = 0.725
    // -> triad on both: t = 1e5 x (8e7 / 1400) / (8e7 / 700) = 5e4
    const Projection p = project_hbm(s, t);
    EXPECT_NEAR(p.time_point_ns, 5e4, 1e-6);
    EXPECT_TRUE(test::has_note(p, "hbm_gbs: gpu-stream triad on both"));
}

TEST(ModelMeasuredCeilings, TheSourceRatioScalesTheTargetPeak) {
    config::Ceilings s = test::v100();
    s.hbm_gbs->alternatives = {measured(662.4, "gpu-stream triad")}; // 0.8 x 828
    const CeilingPair pair = like_for_like(s, fast_target({}));
    // Source 662.4; target 1656 x 662.4 / 828 = 1656 x 0.8 = 1324.8 (derived)
    EXPECT_NEAR(pair.source.hbm_gbs->value, 662.4, 1e-9);
    EXPECT_NEAR(pair.target.hbm_gbs->value, 1324.8, 1e-9);
    EXPECT_EQ(ceiling_provenance(pair.target).at("hbm_gbs"), "derived");
    // The source alone (its roofline) takes its measurement too
    EXPECT_NEAR(prefer_measured(s).hbm_gbs->value, 662.4, 1e-9);
}

// PROJ section 5.2: the write-only stream figure is for write-only kernels (Hydro1D's init).
TEST(ModelMeasuredCeilings, AWriteOnlyStreamServesWriteOnlyKernelsOnly) {
    config::Ceilings s = test::v100();
    s.hbm_gbs->alternatives = {measured(800, "gpu-stream write-only (init)")};
    const config::Ceilings t = fast_target({measured(1200, "gpu-stream write-only (init)")});
    // A reading kernel: peaks, t = 1e5 x 828 / 1656 = 5e4
    EXPECT_NEAR(project_hbm(s, t).time_point_ns, 5e4, 1e-6);
    // A write-only kernel: the write-only figures, t = 1e5 x 800 / 1200 = 66666.67
    EXPECT_NEAR(project_hbm(s, t, "dram_sectors_write").time_point_ns, 1e5 * 800 / 1200, 1e-6);
}

} // namespace
} // namespace test_measured_ceilings
} // namespace irf::model

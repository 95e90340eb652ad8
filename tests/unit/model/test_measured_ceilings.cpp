// SPDX-License-Identifier: Apache-2.0
// Measured maxima are preferred over peaks (docs/model.md: PROJ section 4.1), and the
// profile says which were used.
#include <gtest/gtest.h>

#include "model/analyze.hpp"
#include "model/measured_ceilings.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
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

TEST(ModelMeasuredCeilings, AnalyzeUsesAndRecordsThem) {
    Profile p;
    KernelRecord k = test::kernel_record(1e5, 1000);
    k.counters["inst_warp"] = 1e6;
    k.counters["sectors_global_ld"] = 2.5e6;
    k.counters["l2_sectors_read"] = 2.5e6;
    k.counters["dram_sectors_read"] = 2.5e6; // HBM-bound: 8e7 B / 828 GB/s = 96618 ns
    p.kernels.push_back(k);
    config::Ceilings target = test::v100();
    target.gpu.key = "v100-measured-hbm";
    target.hbm_gbs->provenance = config::Provenance::spec;
    target.hbm_gbs->alternatives = {alternative(1656, config::Provenance::published)};
    analyze(p, test::v100(), {target});
    const Projection& proj = p.kernels[0].analysis->projection.at(0);
    // The published 1656 GB/s, not the 828 peak: t = 1e5 x (8e7/1656) / (8e7/828) = 5e4
    EXPECT_NEAR(proj.time_point_ns, 5e4, 1e-6);
    bool said = false;
    for (const std::string& n : proj.notes) {
        said = said || n == "target ceilings measured (others are peaks): hbm_gbs";
    }
    EXPECT_TRUE(said);
    ASSERT_TRUE(p.ceilings.has_value());
    EXPECT_EQ(p.ceilings->provenance.at("hbm_gbs"), "spec"); // the fixture's provenance
}

} // namespace
} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Saturated target (docs/model.md, "Saturated target"): a memory stream whose source moved more
// than the target's ceiling allows runs there at that ceiling; the resource ratio would carry the
// source's shortfall from its own ceiling. Values worked out on the seed papers' V100
// (tests/unit/model/model_fixtures.hpp: 80 SMs, 828 GB/s, cc 7.0 limits).
#include <gtest/gtest.h>

#include "model/analyze.hpp"
#include "model/projection/projection.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_saturated_target {
namespace {

// 6400 blocks of 256 threads: 8 blocks (64 warps) an SM fill the V100's 80 SMs, 5120 resident
// warps, 10 waves. They read 8e8 B from DRAM (2.5e7 sectors, every L2 read a miss): 8e8 / 828 =
// 966,183.6 ns at the ceiling, 48.3% of the 2e6 ns launch. L2 8e8 B and L1 8e8 B bind less.
KernelRecord stream() {
    return test::dram_stream_kernel(2e6, 6400, 256, 1e6, 2.5e7);
}

// The same stream in `time_ns`.
KernelRecord stream_in(double time_ns) {
    KernelRecord k = stream();
    k.time_ns.total = time_ns;
    k.counters["time_ns"] = time_ns;
    return k;
}

// A V100 of `hbm_gbs` and `sms` SMs, on `cc` (no cited DRAM latency for its chip: equal cycles,
// and the same 1530 MHz, so the latency ratio is 1).
config::Ceilings gpu(double hbm_gbs, int sms, const char* cc) {
    config::Ceilings c = test::v100_with_limits("x", 1530);
    c.gpu.chip = "GX999";
    c.gpu.cc = cc;
    c.gpu.sms = sms;
    c.hbm_gbs->value = hbm_gbs;
    return c;
}

Projection onto(const config::Ceilings& t, const KernelRecord& k = stream()) {
    config::Ceilings s = test::v100_with_limits("v100", 1530);
    s.gpu.chip = "GV100";
    const KernelAnalysis a = analyze_kernel(k, s, {t});
    EXPECT_EQ(a.projection.size(), 1u);
    return a.projection.empty() ? Projection{} : a.projection.front();
}

TEST(ModelSaturatedTarget, ACeilingBelowTheSourcesRateBindsAtTheCeiling) {
    // Onto 100 GB/s: 8e8 / 100 = 8e6 ns a launch, longer than the source's 2e6 (it moved 400
    // GB/s); 5120 warps there too, so they keep the stream in 2e6 ns. The ratio said 2e6 x 828 /
    // 100 = 1.656e7 ns, the source's 48.3% of its ceiling carried over.
    const Projection p = onto(gpu(100, 80, "8.0"));
    EXPECT_EQ(p.point_method, "saturated-target");
    EXPECT_NEAR(p.time_point_ns, 8e6, 1e-3);
    EXPECT_GE(p.time_high_ns, 2e6 * 828 / 100 - 1e-3); // the ratio's point stays inside
    EXPECT_TRUE(test::has_note(p, "saturated target: the target's hbm at its ceiling takes 8e+06"));
}

TEST(ModelSaturatedTarget, ACeilingAboveTheSourcesRateKeepsTheRatio) {
    // Onto 160 SMs at 600 GB/s: 8e8 / 600 = 1.333e6 ns, under the source's 2e6, though its
    // 10240 warps would keep the stream in 2e6 x 5120 / 10240 = 1e6: a ceiling the source did
    // not reach may not be reached there either; t = 2e6 x 828 / 600.
    const Projection p = onto(gpu(600, 160, "8.0"));
    EXPECT_NE(p.point_method, "saturated-target");
    EXPECT_NEAR(p.time_point_ns, 2e6 * 828 / 600, 1e-3);
}

TEST(ModelSaturatedTarget, ASourceAtItsCeilingKeepsTheRatio) {
    // In 1.07e6 ns the HBM's 966,183.6 ns are 90.3% of the launch, at least 90%: what the source
    // lacked of its ceiling, the target's lacks too; t = 1.07e6 x 828 / 100 = 8,859,600 ns. In
    // 1.08e6 ns (89.5%) the target runs at its ceiling, 8e6.
    EXPECT_NEAR(onto(gpu(100, 80, "8.0"), stream_in(1.07e6)).time_point_ns, 1.07e6 * 8.28, 1e-3);
    const Projection p = onto(gpu(100, 80, "8.0"), stream_in(1.08e6));
    EXPECT_EQ(p.point_method, "saturated-target");
    EXPECT_NEAR(p.time_point_ns, 8e6, 1e-3);
}

TEST(ModelSaturatedTarget, TooFewWarpsToKeepTheStreamKeepTheRatio) {
    // Onto 8 SMs at 100 GB/s: 512 resident warps keep the stream in 2e6 x 5120 / 512 = 2e7 ns,
    // longer than the ceiling's 8e6: the warps, not the ceiling, would set it; the ratio stays.
    const Projection p = onto(gpu(100, 8, "8.0"));
    EXPECT_NE(p.point_method, "saturated-target");
    EXPECT_NEAR(p.time_point_ns, 2e6 * 828 / 100, 1e-3);
}

} // namespace
} // namespace test_saturated_target
} // namespace irf::model

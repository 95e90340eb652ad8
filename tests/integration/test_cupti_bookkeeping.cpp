// SPDX-License-Identifier: Apache-2.0
// The CUPTI backend's launch bookkeeping into a real collector (issue 51): graph nodes' own ids
// and the launches after them; kernel timing that stops and resumes.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "tests/integration/cupti_fake_platform.hpp"

namespace irf::intercept::cupti::test {
namespace {

config::Config timing_only() {
    config::Config c;
    c.samples = 0;
    c.callstack = 0;
    return c;
}

/// The CUPTI backend on the fake platform, delivering to a collector with the real bounds.
struct CollectorRig {
    FakeScript script;
    Collector collector{timing_only()};
    CuptiBackend backend{CuptiOptions{}};
    explicit CollectorRig(std::uint64_t timing_check = k_timing_check) {
        backend.set_sampling_seam_for_test(
            quiet_seam({std::make_unique<FakePlatform>(script), std::chrono::milliseconds(2000),
                        std::chrono::seconds(60), timing_check}));
        backend.attach_sink_for_test(collector);
    }
    [[nodiscard]] model::Profile profile() {
        model::Profile p;
        collector.fill_profile(p);
        return p;
    }
};

TEST(CuptiBookkeeping, LaunchesAfterAGraphReplayKeepTheirDurations) {
    // A graph replay (two kernel nodes, timed from their records), then 300,000 launches whose
    // records come a CUPTI buffer (19,418 records of 216 bytes in 4 MiB) behind them, so the
    // collector sweeps twice (every 2^17 launches) with that many launches waiting. Before: the
    // nodes' ids (from 2^32) became the newest timed mark and each sweep took every waiting
    // launch for a lost one, about 39,000 of them, and their records for unmatched ones.
    CollectorRig rig;
    const auto replay = [&rig](std::uint32_t graph_launch) {
        KernelActivity node = kernel_record(graph_launch, 10, 4010);
        node.graph_id = 1;
        node.name = "_Z4nodev";
        rig.backend.on_kernel_record(node);
        rig.backend.on_kernel_record(node);
    };
    replay(1);
    constexpr std::uint32_t k_launches = 300000;
    constexpr std::uint32_t k_lag = 19418;
    for (std::uint32_t id = 2; id < 2 + k_launches; ++id) {
        FakeLaunch(id, "_Z1kv").run(rig.backend);
        if (id >= 2 + k_lag) {
            const std::uint64_t timed = id - k_lag;
            rig.backend.on_kernel_record(kernel_record(timed, 100, 1100));
        }
    }
    for (std::uint32_t id = 2 + k_launches - k_lag; id < 2 + k_launches; ++id) {
        rig.backend.on_kernel_record(kernel_record(id, 100, 1100));
    }
    const CollectorStats s = rig.collector.stats();
    EXPECT_EQ(s.launches, k_launches + 2);
    EXPECT_EQ(s.lost_durations, 0u);
    EXPECT_EQ(s.unmatched_durations, 0u);
    const model::Profile p = rig.profile();
    ASSERT_EQ(p.kernels.size(), 2u);
    EXPECT_EQ(p.kernels.at(0).name, "k()");
    EXPECT_DOUBLE_EQ(p.kernels.at(0).time_ns.total, k_launches * 1000.0);
    EXPECT_DOUBLE_EQ(p.kernels.at(1).time_ns.total, 2 * 4000.0);
    EXPECT_EQ(p.coverage.lost_durations, 0u);
}

bool warned(const model::Profile& p, const std::string& text) {
    return std::any_of(p.warnings.begin(), p.warnings.end(),
                       [&text](const std::string& w) { return w.find(text) != std::string::npos; });
}

TEST(CuptiBookkeeping, TimingResumesWhenRecordsComeAgain) {
    // Checks every 1,024 launches: no record comes, so timing stops at the second silent check
    // (launch 2,048), and launches 2,048-3,000 are counted only. Then CUPTI hands over
    // every record (the other client let go, or it held its buffers that long) and launches go
    // on with their records. Before: "timing stopped" was final, and launches 3,001-4,000 were
    // counted, never timed.
    CollectorRig rig(1024);
    for (std::uint32_t id = 1; id <= 3000; ++id) {
        FakeLaunch(id, "_Z1kv").run(rig.backend);
    }
    for (std::uint32_t id = 1; id <= 3000; ++id) {
        rig.backend.on_kernel_record(kernel_record(id, 100, 1100));
    }
    for (std::uint32_t id = 3001; id <= 4000; ++id) {
        FakeLaunch(id, "_Z1kv").run(rig.backend);
        rig.backend.on_kernel_record(kernel_record(id, 100, 1100));
    }
    const CollectorStats s = rig.collector.stats();
    EXPECT_EQ(s.lost_durations, 0u);
    EXPECT_EQ(s.unmatched_durations, 0u);
    EXPECT_EQ(s.aggregate_durations, 3000u - 2047u); // the counted-only ones, in aggregate
    const model::Profile p = rig.profile();
    ASSERT_EQ(p.kernels.size(), 1u);
    EXPECT_EQ(p.kernels[0].launches, 4000u);
    EXPECT_DOUBLE_EQ(p.kernels[0].time_ns.total, (2047 + 1000) * 1000.0);
    EXPECT_TRUE(warned(p, "kernel timing stopped"));
    EXPECT_TRUE(warned(p, "kernel timing resumed"));
    EXPECT_TRUE(warned(p, "953 launches after kernel timing stopped were counted only"));
}

} // namespace
} // namespace irf::intercept::cupti::test

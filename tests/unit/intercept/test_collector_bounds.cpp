// SPDX-License-Identifier: Apache-2.0
// The collector's memory follows kernels, not launches (issue 34 item 2): pending launches
// retire as their durations arrive; one whose duration never comes retires after the bound and
// is counted ("durations lost: N" in the profile and the summary).
#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "model/profile/profile_json.hpp"
#include "model/summary/text_summary.hpp"

namespace irf::intercept {
namespace test_collector_bounds {
namespace {

config::Config timing_only() {
    config::Config c;
    c.samples = 0;
    c.callstack = 0;
    return c;
}

LaunchDecision launch(Collector& c, std::uint64_t id, std::uintptr_t fn = 1) {
    LaunchEvent e;
    e.function = reinterpret_cast<const void*>(fn);
    e.mangled = "_Z1kv";
    e.launch.grid = {1, 1, 1};
    e.correlation_id = id;
    return c.on_launch(e);
}

TEST(CollectorBounds, LaunchesRetireAsTheirDurationsArrive) {
    Collector c{timing_only(), 100};
    for (std::uint64_t id = 1; id <= 10000; ++id) {
        launch(c, id, 1 + id % 4); // four kernels
        c.on_duration({id, 0, 500});
    }
    const CollectorStats s = c.stats();
    EXPECT_EQ(s.launches, 10000u);
    EXPECT_EQ(s.pending, 0u);
    EXPECT_EQ(s.lost_durations, 0u);
}

TEST(CollectorBounds, ALaunchWhoseDurationNeverComesRetiresAfterTheBoundAndIsCounted) {
    Collector c{timing_only(), 100};
    std::uint64_t most_pending = 0;
    for (std::uint64_t id = 1; id <= 1000; ++id) {
        launch(c, id);
        if (id % 10 != 0) { // every tenth record is dropped
            c.on_duration({id, 0, 500});
        }
        most_pending = std::max(most_pending, c.stats().pending);
    }
    // Only dropped launches stay pending, one per 10 launches, for at most twice the bound of
    // 100 launches: 2 x 100 / 10 = 20.
    EXPECT_LE(most_pending, 20u);
    EXPECT_GT(c.stats().lost_durations, 0u) << "retired before exit, not kept until then";
    model::Profile p;
    c.fill_profile(p);
    // Those retired on the way and those still pending at exit: 1000 / 10 = 100.
    EXPECT_EQ(p.coverage.lost_durations, 100u);
    EXPECT_DOUBLE_EQ(p.kernels.at(0).time_ns.total, 900 * 500.0); // the 900 that came
    EXPECT_EQ(p.kernels.at(0).launches, 1000u);
}

TEST(CollectorBounds, ARecordThatComesAfterItsLaunchWasRetiredStillCounts) {
    // As on the H200 (a training step's tiny launches): the records of launches 1-50 come only
    // after launch 400's, more than the bound of 100 ids late. Their launches were retired as
    // lost; the late records still count for the kernel, and nothing is lost at exit.
    Collector c{timing_only(), 100};
    for (std::uint64_t id = 1; id <= 400; ++id) {
        launch(c, id);
        if (id > 50) {
            c.on_duration({id, 0, 500});
        }
    }
    EXPECT_GT(c.stats().lost_durations, 0u); // retired on the way
    for (std::uint64_t id = 1; id <= 50; ++id) {
        c.on_duration({id, 0, 700});
    }
    const CollectorStats s = c.stats();
    EXPECT_EQ(s.lost_durations, 0u);
    EXPECT_EQ(s.unmatched_durations, 0u);
    model::Profile p;
    c.fill_profile(p);
    EXPECT_EQ(p.coverage.lost_durations, 0u);
    // launch 1 is the first (700, out of min/mean/max), 49 more at 700, 350 at 500
    EXPECT_DOUBLE_EQ(p.kernels.at(0).time_ns.total, 50 * 700.0 + 350 * 500.0);
}

TEST(CollectorBounds, ADurationWithoutLaunchIsRetiredAndStillReported) {
    Collector c{timing_only(), 100};
    for (std::uint64_t id = 1; id <= 5; ++id) {
        c.on_duration({1000000 + id, 0, 500}); // no such launch, ever
    }
    for (std::uint64_t id = 1; id <= 300; ++id) {
        launch(c, id);
        c.on_duration({id, 0, 500});
    }
    EXPECT_EQ(c.stats().unmatched_durations, 5u);
    model::Profile p;
    c.fill_profile(p);
    EXPECT_EQ(p.coverage.lost_durations, 0u);
    EXPECT_DOUBLE_EQ(p.kernels.at(0).time_ns.total, 300 * 500.0);
}

TEST(CollectorBounds, ADurationBeforeItsLaunchIsAppliedWhenTheLaunchIsDrained) {
    Collector c{timing_only(), 100};
    for (std::uint64_t id = 1; id <= 4; ++id) {
        c.on_duration({id, 0, 100 * id}); // the record overtakes its launch's log entry
    }
    EXPECT_EQ(c.stats().unmatched_durations, 4u);
    for (std::uint64_t id = 1; id <= 4; ++id) {
        launch(c, id);
    }
    c.on_duration({5, 0, 1000}); // no launch 5: drains the logs, which match ids 1-4
    const CollectorStats s = c.stats();
    EXPECT_EQ(s.unmatched_durations, 1u); // only id 5 waits
    EXPECT_EQ(s.pending, 0u);
    model::Profile p;
    c.fill_profile(p);
    EXPECT_DOUBLE_EQ(p.kernels.at(0).time_ns.total, 100.0 + 200 + 300 + 400);
    EXPECT_EQ(p.coverage.lost_durations, 0u);
}

TEST(CollectorBounds, LostDurationsAreInTheProfileAndTheSummary) {
    Collector c{timing_only()};
    for (std::uint64_t id = 1; id <= 7; ++id) {
        launch(c, id); // no duration at all: the exit counts them lost
    }
    model::Profile p;
    c.fill_profile(p);
    EXPECT_EQ(p.coverage.lost_durations, 7u);
    const nlohmann::json j = model::profile_to_json(p);
    EXPECT_EQ(j.at("coverage").at("lost_durations"), 7);
    EXPECT_EQ(model::profile_from_json(j).coverage.lost_durations, 7u);
    EXPECT_NE(model::text_summary(p).find("durations lost: 7"), std::string::npos);
    EXPECT_NE(
        std::find_if(p.warnings.begin(), p.warnings.end(),
                     [](const std::string& w) { return w.rfind("7 launches never", 0) == 0; }),
        p.warnings.end());
    model::Profile clean;
    EXPECT_FALSE(model::profile_to_json(clean).at("coverage").contains("lost_durations"));
}

} // namespace
} // namespace test_collector_bounds
} // namespace irf::intercept

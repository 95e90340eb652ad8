// SPDX-License-Identifier: Apache-2.0
// The collector with samples that end without counters (issue 38 item 2): declined by the
// backend before any replay, discarded after one, and profiling switched off mid-run.
#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "tests/unit/intercept/collector_profile.hpp"

namespace irf::intercept {
namespace test_collector_samples {
namespace {

LaunchEvent event(std::uint64_t id) {
    LaunchEvent e;
    e.function = reinterpret_cast<const void*>(std::uintptr_t{0x40});
    e.mangled = "_Z1kv";
    e.correlation_id = id;
    return e;
}

using test::profile_of;

bool has_text(const std::vector<std::string>& lines, const std::string& text) {
    for (const std::string& line : lines) {
        if (line.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

TEST(CollectorSamples, DeclinedSampleIsTimedLikeAnOrdinaryLaunch) {
    config::Config cfg;
    cfg.samples = 2;
    Collector c(cfg);
    ASSERT_TRUE(test::sampled(c.on_launch(event(1)))); // cold, provisional
    c.on_counters({1, {{"inst_warp", 5}}, 1});
    ASSERT_TRUE(test::sampled(c.on_launch(event(2))));
    c.on_sample_declined(2, nullptr); // e.g. no profiler for the context: ran unreplayed
    ASSERT_TRUE(test::sampled(c.on_launch(event(3))));
    c.on_counters({3, {{"inst_warp", 5}}, 1});
    ASSERT_EQ(c.on_launch(event(4)), LaunchDecision::time_only);
    c.on_duration({1, 1000, 1000 + 9000}); // replayed, cold
    c.on_duration({2, 1000, 1000 + 100});  // an ordinary duration
    c.on_duration({3, 1000, 1000 + 5000}); // replayed
    c.on_duration({4, 1000, 1000 + 300});
    const model::Profile p = profile_of(c);
    ASSERT_EQ(p.kernels.size(), 1u);
    const model::KernelRecord& k = p.kernels[0];
    EXPECT_EQ(k.time_ns.min, 100) << "the declined launch's duration left min/mean/max";
    EXPECT_EQ(k.time_ns.max, 300);
    EXPECT_EQ(k.profiled_launches, 1u);
    EXPECT_EQ(k.counters.at("time_ns"), 5000);
    EXPECT_FALSE(has_text(p.warnings, "delivered no counters"));
    EXPECT_TRUE(p.coverage.discarded_samples.empty());
}

TEST(CollectorSamples, KernelWhoseOnlySampleWasDeclinedGetsNoReplayNote) {
    Collector c(config::Config{});
    ASSERT_TRUE(test::sampled(c.on_launch(event(1))));
    c.on_sample_declined(1, "lock_timeout");
    c.on_duration({1, 1000, 1700});
    const model::Profile p = profile_of(c);
    EXPECT_EQ(p.kernels[0].time_ns.total, 700);
    EXPECT_FALSE(has_text(p.kernels[0].notes, "kernel replay"));
    EXPECT_EQ(p.coverage.discarded_samples,
              (std::map<std::string, std::uint64_t>{{"lock_timeout", 1}}));
}

TEST(CollectorSamples, ProfilingOffStopsChoosingLaunches) {
    config::Config cfg;
    cfg.samples = 3;
    Collector c(cfg);
    ASSERT_TRUE(test::sampled(c.on_launch(event(1))));
    c.on_sample_declined(1, nullptr);
    c.on_profiling_off(); // counters not permitted: the commonest fallback
    for (std::uint64_t id = 2; id <= 6; ++id) {
        EXPECT_EQ(c.on_launch(event(id)), LaunchDecision::time_only) << id;
    }
    const CollectorStats s = c.stats();
    EXPECT_EQ(s.profile_decisions, 1u);
    EXPECT_EQ(s.declined, 1u);
    const model::Profile p = profile_of(c);
    EXPECT_FALSE(has_text(p.warnings, "delivered no counters"));
}

TEST(CollectorSamples, DeclineBeforeTheLaunchIsDrainedStillApplies) {
    config::Config cfg;
    cfg.samples = 1;
    Collector c(cfg);
    ASSERT_TRUE(test::sampled(c.on_launch(event(1))));
    c.on_sample_declined(1, nullptr); // the launch is still only in this thread's log
    c.on_duration({1, 1000, 1400});
    const model::Profile p = profile_of(c);
    EXPECT_EQ(p.kernels[0].time_ns.max, 400);
    EXPECT_FALSE(has_text(p.kernels[0].notes, "kernel replay"));
}

TEST(CollectorSamples, DiscardedSampleRetiresOnceTimed) {
    Collector c(config::Config{});
    ASSERT_TRUE(test::sampled(c.on_launch(event(1))));
    c.on_discarded_sample(1, "extra_ranges"); // replayed, but no counters will come
    c.on_duration({1, 1000, 1900});
    EXPECT_EQ(c.stats().pending, 0u) << "the discarded launch waits for counters forever";
}

TEST(CollectorSamples, RecordWithoutTimestampsRetiresItsLaunch) {
    config::Config cfg;
    cfg.samples = 0;
    Collector c(cfg);
    static_cast<void>(c.on_launch(event(1)));
    static_cast<void>(c.on_launch(event(2)));
    c.on_duration({1, 0, 0});       // CUPTI had no timestamps for it: its only record
    c.on_duration({2, 5000, 4000}); // reversed
    const CollectorStats s = c.stats();
    EXPECT_EQ(s.invalid_durations, 2u);
    EXPECT_EQ(s.pending, 0u) << "a launch without timestamps leaked its pending entry";
}

TEST(CollectorSamples, ReplayedLaunchWithoutTimestampsIsNoInvalidDuration) {
    // As on the H100: the range profiler's replayed launch gets a record with no timestamps;
    // its time comes from its counters' time_ns.
    Collector c(config::Config{});
    ASSERT_TRUE(test::sampled(c.on_launch(event(1))));
    c.on_counters({1, {{"inst_warp", 5}, {"time_ns", 800}}, 1});
    c.on_duration({1, 0, 0});
    const CollectorStats s = c.stats();
    EXPECT_EQ(s.invalid_durations, 0u);
    EXPECT_EQ(s.pending, 0u);
    const model::Profile p = profile_of(c);
    EXPECT_EQ(p.coverage.invalid_durations, 0u);
    EXPECT_DOUBLE_EQ(p.kernels.at(0).time_ns.total, 800) << "time from the counters";
}

TEST(CollectorSamples, LaunchesAfterTimingStoppedAreCountedNotKept) {
    config::Config cfg;
    cfg.samples = 0;
    Collector c(cfg);
    static_cast<void>(c.on_launch(event(1)));
    c.on_timing_stopped(); // kineto took the activity stream: no record will come
    for (std::uint64_t id = 2; id <= 1000; ++id) {
        static_cast<void>(c.on_launch(event(id)));
    }
    EXPECT_EQ(c.stats().pending, 1u) << "launches that will never be timed were kept";
    const model::Profile p = profile_of(c);
    ASSERT_EQ(p.kernels.size(), 1u);
    EXPECT_EQ(p.kernels[0].launches, 1000u);
    EXPECT_EQ(p.coverage.launches, 1000u);
    EXPECT_TRUE(has_text(p.warnings, "999 launches after kernel timing stopped"));
}

} // namespace
} // namespace test_collector_samples
} // namespace irf::intercept

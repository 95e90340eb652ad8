// SPDX-License-Identifier: Apache-2.0
// The collector under replay and CUPTI hazards: replayed durations, bad timestamps, discarded
// samples, and CUfunction handles reused after a module unload.
#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "model/profile/profile_json.hpp"
#include "tests/unit/intercept/collector_profile.hpp"

namespace irf::intercept {
namespace test_collector_hazards {
namespace {

LaunchEvent event(std::uint64_t id, const char* name, std::uint64_t epoch = 0) {
    LaunchEvent e;
    e.function = reinterpret_cast<const void*>(std::uintptr_t{0x40});
    e.mangled = name;
    e.correlation_id = id;
    e.module_epoch = epoch;
    return e;
}

using test::profile_of;

TEST(CollectorHazards, ReplayedDurationStaysOutOfTimeStats) {
    config::Config cfg;
    cfg.samples = 1;
    Collector c(cfg);
    // Launch 1 (cold) and 2 are profiled (provisional + one sample), 3 and 4 only timed.
    for (std::uint64_t id = 1; id <= 4; ++id) {
        const LaunchDecision d = c.on_launch(event(id, "_Z1kv"));
        EXPECT_EQ(test::sampled(d), id <= 2) << id;
        if (test::sampled(d)) {
            c.on_counters({id, {{"inst_warp", 5}}, 1});
        }
    }
    c.on_duration({1, 1000, 1000 + 5000}); // replayed, cold
    c.on_duration({2, 1000, 1000 + 4000}); // replayed
    c.on_duration({3, 1000, 1000 + 100});
    c.on_duration({4, 1000, 1000 + 300});
    const model::Profile p = profile_of(c);
    ASSERT_EQ(p.kernels.size(), 1u);
    const model::KernelRecord& k = p.kernels[0];
    // Min, mean and max of launches 3 and 4 only: 100, 200, 300; the 5000 and 4000 ns replays
    // are left out. The total counts launches 1 and 2 at that mean: 100 + 300 + 2 x 200 = 800.
    EXPECT_EQ(k.time_ns.total, 800);
    EXPECT_EQ(k.time_ns.min, 100);
    EXPECT_EQ(k.time_ns.max, 300);
    EXPECT_EQ(k.time_ns.mean, 200);
    EXPECT_EQ(k.counters.at("time_ns"), 4000); // the counters' time is the sample's duration
}

TEST(CollectorHazards, KernelTimedOnlyUnderReplayIsFlagged) {
    Collector c(config::Config{});
    ASSERT_TRUE(test::sampled(c.on_launch(event(1, "_Z1kv"))));
    c.on_counters({1, {{"inst_warp", 5}}, 1});
    c.on_duration({1, 1000, 1700});
    const model::Profile p = profile_of(c);
    EXPECT_EQ(p.kernels[0].time_ns.total, 700);
    bool flagged = false;
    for (const std::string& note : p.kernels[0].notes) {
        flagged = flagged || note.find("kernel replay") != std::string::npos;
    }
    EXPECT_TRUE(flagged);
}

TEST(CollectorHazards, ZeroAndReversedTimestampsAreDroppedAndCounted) {
    config::Config cfg;
    cfg.samples = 0;
    Collector c(cfg);
    for (std::uint64_t id = 1; id <= 4; ++id) {
        static_cast<void>(c.on_launch(event(id, "_Z1kv")));
    }
    c.on_duration({1, 0, 0});       // no timestamps
    c.on_duration({2, 5000, 4000}); // end before start
    c.on_duration({3, 7000, 0});    // end missing
    c.on_duration({4, 1000, 1250});
    const model::Profile p = profile_of(c);
    EXPECT_EQ(p.coverage.invalid_durations, 3u);
    EXPECT_EQ(p.kernels[0].time_ns.total, 250);
    EXPECT_EQ(p.kernels[0].time_ns.max, 250);
}

TEST(CollectorHazards, DiscardedSamplesAreCountedByReason) {
    Collector c(config::Config{});
    ASSERT_TRUE(test::sampled(c.on_launch(event(1, "_Z1kv"))));
    c.on_discarded_sample(1, "extra_ranges");
    ASSERT_TRUE(test::sampled(c.on_launch(event(2, "_Z1kv"))));
    c.on_discarded_sample(2, "extra_ranges");
    const model::Profile p = profile_of(c);
    EXPECT_EQ(p.coverage.discarded_samples,
              (std::map<std::string, std::uint64_t>{{"extra_ranges", 2}}));
    EXPECT_EQ(p.coverage.profiled_launches, 0u);
    for (const std::string& w : p.warnings) {
        EXPECT_EQ(w.find("delivered no counters"), std::string::npos) << w;
    }
}

TEST(CollectorHazards, CoverageFieldsRoundTripThroughJson) {
    model::Profile p;
    p.coverage.discarded_samples = {{"dropped_ranges", 3}, {"window_breached", 1}};
    p.coverage.invalid_durations = 7;
    const model::Profile back = model::profile_from_json(model::profile_to_json(p));
    EXPECT_EQ(back.coverage.discarded_samples, p.coverage.discarded_samples);
    EXPECT_EQ(back.coverage.invalid_durations, 7u);
    EXPECT_FALSE(
        model::profile_to_json(model::Profile{})["coverage"].contains("discarded_samples"));
}

TEST(CollectorHazards, ReusedHandleAfterModuleUnloadIsANewFunction) {
    config::Config cfg;
    cfg.exclude = "old_kernel";
    Collector c(cfg);
    EXPECT_EQ(c.on_launch(event(1, "old_kernel", 0)), LaunchDecision::time_only); // excluded
    // The module is unloaded; a new kernel is loaded at the same CUfunction address.
    EXPECT_TRUE(test::sampled(c.on_launch(event(2, "new_kernel", 1))));
    const model::Profile p = profile_of(c);
    ASSERT_EQ(p.kernels.size(), 2u);
    EXPECT_TRUE((p.kernels[0].name == "new_kernel") != (p.kernels[1].name == "new_kernel"));
}

} // namespace
} // namespace test_collector_hazards
} // namespace irf::intercept

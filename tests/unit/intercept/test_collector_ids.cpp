// SPDX-License-Identifier: Apache-2.0
// Which launches the collector gives up on (issue 51): the mark of the newest timed launch
// follows CUPTI's 32-bit ids across their wrap, and the graph nodes' own ids (from 2^32 up)
// never move it (A4); launches waiting for their records are bounded, past the bound counted
// only, and their records matched in aggregate (B).
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"

namespace irf::intercept::collector_ids_test {
namespace test_collector_ids {
namespace {

config::Config timing_only() {
    config::Config c;
    c.samples = 0;
    c.callstack = 0;
    return c;
}

void launch(Collector& c, std::uint64_t id, bool graph = false) {
    LaunchEvent e;
    e.function = reinterpret_cast<const void*>(graph ? 2 : 1);
    e.mangled = graph ? "_Z4nodev" : "_Z1kv";
    e.launch.grid = {1, 1, 1};
    e.correlation_id = id;
    e.graph = graph;
    static_cast<void>(c.on_launch(e));
}

/// Launches `ids` in turn, each launch's record coming `lag` launches later, 500 ns each.
void launch_with_lagging_records(Collector& c, const std::vector<std::uint64_t>& ids,
                                 std::size_t lag) {
    for (std::size_t i = 0; i < ids.size(); ++i) {
        launch(c, ids[i]);
        if (i >= lag) {
            c.on_duration({ids[i - lag], 1000, 1500});
        }
    }
    for (std::size_t i = ids.size() - lag; i < ids.size(); ++i) {
        c.on_duration({ids[i], 1000, 1500});
    }
}

TEST(CollectorIds, IdsThatWrapPastTwoToTheThirtyTwoAreNotTakenForLostOnes) {
    // 1,000 launches whose ids run 2^32 - 500 ... 2^32 - 1, 0, 1 ... 499, each record 50
    // launches behind its launch, with a bound of 100: none is overdue. Before: the mark stayed
    // near 2^32 after the wrap, and every sweep retired the new small ids as lost.
    Collector c{timing_only(), 100};
    std::vector<std::uint64_t> ids;
    for (std::uint64_t i = 0; i < 1000; ++i) {
        ids.push_back(((std::uint64_t{1} << 32) - 500 + i) & 0xffffffffu);
    }
    launch_with_lagging_records(c, ids, 50);
    const CollectorStats s = c.stats();
    EXPECT_EQ(s.lost_durations, 0u);
    EXPECT_EQ(s.unmatched_durations, 0u);
    EXPECT_EQ(s.pending, 0u);
    model::Profile p;
    c.fill_profile(p);
    EXPECT_DOUBLE_EQ(p.kernels.at(0).time_ns.total, 1000 * 500.0);
}

TEST(CollectorIds, OverdueLaunchesAreStillRetiredAcrossTheWrap) {
    // The other side: a launch whose record never comes is retired once ids moved on by the
    // bound, also when they moved on across the wrap.
    Collector c{timing_only(), 100};
    const std::uint64_t before_wrap = 0xffffffffu - 10;
    launch(c, before_wrap); // never timed
    std::vector<std::uint64_t> ids;
    for (std::uint64_t i = 0; i < 400; ++i) {
        ids.push_back(i);
    }
    launch_with_lagging_records(c, ids, 10);
    EXPECT_EQ(c.stats().lost_durations, 1u) << "retired on the way, not kept until exit";
}

TEST(CollectorIds, AGraphNodeIdIsNotTheNewestTimedLaunch) {
    // A graph node timed before 1,000 ordinary launches whose records lag 50 behind (bound
    // 100). Before: its id (2^32) became the mark and each sweep retired every launch still
    // waiting as lost; their records then counted as "had no intercepted launch".
    Collector c{timing_only(), 100};
    const std::uint64_t node = k_first_synthetic_id;
    launch(c, node, true);
    c.on_duration({node, 0, 700});
    std::vector<std::uint64_t> ids;
    for (std::uint64_t i = 1; i <= 1000; ++i) {
        ids.push_back(i);
    }
    launch_with_lagging_records(c, ids, 50);
    const CollectorStats s = c.stats();
    EXPECT_EQ(s.lost_durations, 0u);
    EXPECT_EQ(s.unmatched_durations, 0u);
    model::Profile p;
    c.fill_profile(p);
    ASSERT_EQ(p.kernels.size(), 2u);
    EXPECT_DOUBLE_EQ(p.kernels.at(0).time_ns.total, 1000 * 500.0);
    EXPECT_EQ(p.coverage.lost_durations, 0u);
}

/// `n` launches of three kernels, ids 1 to n.
void launch_three_kernels(Collector& c, std::uint64_t n) {
    for (std::uint64_t id = 1; id <= n; ++id) {
        LaunchEvent e;
        e.function = reinterpret_cast<const void*>(10 + id % 3);
        e.mangled = id % 3 == 0 ? "_Z1av" : id % 3 == 1 ? "_Z1bv" : "_Z1cv";
        e.launch.grid = {1, 1, 1};
        e.correlation_id = id;
        static_cast<void>(c.on_launch(e));
    }
}

bool has_warning(const model::Profile& p, const std::string& text) {
    return std::any_of(p.warnings.begin(), p.warnings.end(),
                       [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

TEST(CollectorMemory, LaunchesWhoseRecordsNeverComeAreCountedPastTheBound) {
    // Issue 51 B: records that never come (a tool holding the activity stream, a stuck buffer).
    // At most 100 launches wait; the other 12,188 are counts per kernel. The logs are drained
    // from the launch path (every 4,096 launches of a thread), so the bound's one line comes
    // while launching, before anything else drains them.
    Collector c{timing_only(), 100};
    testing::internal::CaptureStderr();
    launch_three_kernels(c, 12288);
    const std::string said = testing::internal::GetCapturedStderr();
    EXPECT_NE(said.find("100 launches are waiting for their kernel records"), std::string::npos)
        << said;
    const CollectorStats s = c.stats();
    EXPECT_EQ(s.launches, 12288u);
    EXPECT_EQ(s.pending, 100u);
    EXPECT_EQ(s.counted_only, 12188u);
    model::Profile p;
    c.fill_profile(p);
    ASSERT_EQ(p.kernels.size(), 3u);
    EXPECT_EQ(p.kernels[0].launches + p.kernels[1].launches + p.kernels[2].launches, 12288u);
    EXPECT_EQ(p.coverage.launches, 12288u);
    EXPECT_EQ(p.coverage.lost_durations, 12288u);
    EXPECT_TRUE(has_warning(p, "12188 launches past the bound of 100 waiting"));
    EXPECT_TRUE(has_warning(p, "0 durations of counted-only launches came (0.000 ms in all)"));
}

TEST(CollectorMemory, RecordsThatComeOnlyAtExitAreMatchedInAggregatePastTheBound) {
    // The records of all 10,000 launches come at the exit's flush. The launches that waited
    // (101 from the drains while launching, and as many again from the exit's drain once their
    // records freed the room) get theirs per kernel; the others' are summed in aggregate.
    Collector c{timing_only(), 101};
    launch_three_kernels(c, 10000);
    c.stop_recording();
    for (std::uint64_t id = 1; id <= 10000; ++id) {
        c.on_duration({id, 1000, 1500});
    }
    const CollectorStats s = c.stats();
    EXPECT_EQ(s.counted_only, 10000u - 2 * 101);
    EXPECT_EQ(s.aggregate_durations, s.counted_only);
    EXPECT_EQ(s.unmatched_durations, 0u);
    model::Profile p;
    c.fill_profile(p);
    double total = 0;
    for (const auto& k : p.kernels) {
        total += k.time_ns.total;
    }
    EXPECT_DOUBLE_EQ(total, 2 * 101 * 500.0);
    EXPECT_EQ(p.coverage.lost_durations, 0u);
    EXPECT_TRUE(has_warning(p, "9798 launches past the bound of 101 waiting"));
    // 9,798 x 500 ns = 4.899 ms.
    EXPECT_TRUE(has_warning(p, "9798 durations of counted-only launches came (4.899 ms in all)"));
}

TEST(CollectorMemory, RecordsThatComeAreMatchedAsBeforeWithinTheBound) {
    // Records a little behind their launches never reach the bound: nothing is counted only.
    Collector c{timing_only(), 100};
    std::vector<std::uint64_t> ids;
    for (std::uint64_t i = 1; i <= 5000; ++i) {
        ids.push_back(i);
    }
    launch_with_lagging_records(c, ids, 60);
    const CollectorStats s = c.stats();
    EXPECT_EQ(s.counted_only, 0u);
    EXPECT_EQ(s.lost_durations, 0u);
    model::Profile p;
    c.fill_profile(p);
    EXPECT_DOUBLE_EQ(p.kernels.at(0).time_ns.total, 5000 * 500.0);
}

} // namespace
} // namespace test_collector_ids
} // namespace irf::intercept::collector_ids_test

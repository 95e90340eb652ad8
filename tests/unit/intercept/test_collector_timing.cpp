// SPDX-License-Identifier: Apache-2.0
// IRF_TIMING=sampled in the collector (issue 55 item 5): the first K unprofiled launches of a
// configuration timed, then 1 in N; untimed launches counted, their records dropped on arrival,
// and the kernel's total estimated with its error.
#include <cmath>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "intercept/record_skips.hpp"
#include "tests/unit/intercept/collector_profile.hpp"

namespace irf::intercept {
namespace test_collector_timing {
namespace {

/// No samples (every launch is timed only), no call sites; `every` 0: IRF_TIMING=all.
config::Config timing_config(std::uint64_t first, std::uint64_t every) {
    config::Config c;
    c.callstack = 0;
    c.samples = 0;
    c.timing = every == 0 ? config::TimingMode::all : config::TimingMode::sampled;
    c.timing_first = first;
    c.timing_every = every;
    return c;
}

/// One launch of _Z4tinyv (id `id`) and then its record of `ns`.
void play_launch(Collector& c, std::uint64_t id, double ns) {
    LaunchEvent e;
    e.function = reinterpret_cast<const void*>(0x40);
    e.mangled = "_Z4tinyv";
    e.correlation_id = id;
    EXPECT_EQ(c.on_launch(e), LaunchDecision::time_only);
    c.on_duration({id, 1000, 1000 + static_cast<std::uint64_t>(ns)});
}

/// Ten launches: the first 5000 ns (module load), the others by position; with K = 2, N = 3 the
/// timed ones are launches 1, 2, 3, 6, 9 (unprofiled launch numbers 0, 1, 2, 5, 8 from 0).
void ten_launches(Collector& c) {
    const double ns[10] = {5000, 100, 200, 999, 999, 300, 999, 999, 200, 999};
    for (std::uint64_t i = 0; i < 10; ++i) {
        play_launch(c, i + 1, ns[i]);
    }
}

TEST(CollectorTiming, FirstKThenOneInNAreTimedAndTheRestEstimated) {
    Collector c{timing_config(2, 3)};
    ten_launches(c);
    EXPECT_EQ(c.stats().skipped_records, 5u); // the 999 ns records never count
    const model::Profile p = test::profile_of(c);
    ASSERT_EQ(p.kernels.size(), 1u);
    const model::KernelRecord& k = p.kernels[0];
    EXPECT_EQ(k.launches, 10u);
    EXPECT_EQ(p.coverage.launches, 10u);
    EXPECT_EQ(k.estimated_launches, 5u);
    // Timed after the first: 100, 200, 300, 200 -> mean 200, squared deviations 2 * 10^4,
    // s^2 = 2 * 10^4 / 3. Untimed 5 at 200 = 1000 ns; error sqrt(s^2 * 5 * (1 + 5 / 4)) =
    // sqrt(75000) = 273.861 ns. Total 5000 + 800 + 1000 = 6800 ns.
    EXPECT_DOUBLE_EQ(k.time_ns.total, 6800);
    ASSERT_TRUE(k.estimate_error_ns.has_value());
    EXPECT_NEAR(*k.estimate_error_ns, std::sqrt(75000.0), 1e-6);
    EXPECT_DOUBLE_EQ(k.time_ns.mean, 200); // over the timed launches only
    EXPECT_DOUBLE_EQ(k.time_ns.max, 300);
    EXPECT_EQ(p.coverage.lost_durations, 0u);
    for (const std::string& w : p.warnings) {
        EXPECT_EQ(w.find("no intercepted launch"), std::string::npos) << w;
    }
}

TEST(CollectorTiming, AllTimesEveryLaunchByDefault) {
    Collector c{timing_config(2, 0)};
    ten_launches(c);
    EXPECT_EQ(c.stats().skipped_records, 0u);
    const model::KernelRecord k = test::profile_of(c).kernels.at(0);
    EXPECT_EQ(k.launches, 10u);
    EXPECT_EQ(k.estimated_launches, 0u);
    EXPECT_FALSE(k.estimate_error_ns.has_value());
    EXPECT_DOUBLE_EQ(k.time_ns.total, 5000 + 800 + 5 * 999);
    // N = 1 is every launch as well.
    Collector every{timing_config(0, 1)};
    ten_launches(every);
    EXPECT_EQ(test::profile_of(every).kernels.at(0).estimated_launches, 0u);
}

TEST(CollectorTiming, TheFirstLaunchIsTimedEvenWithKZero) {
    // K = 0, N = 4: unprofiled launches 0, 4, 8 timed (launches 1, 5, 9), 7 untimed.
    Collector c{timing_config(0, 4)};
    const double ns[10] = {5000, 1, 1, 1, 100, 1, 1, 1, 300, 1};
    for (std::uint64_t i = 0; i < 10; ++i) {
        play_launch(c, i + 1, ns[i]);
    }
    const model::KernelRecord k = test::profile_of(c).kernels.at(0);
    EXPECT_EQ(k.estimated_launches, 7u);
    // Timed after the first: 100, 300 -> mean 200, m2 = 2 * 10^4, s^2 = 2 * 10^4;
    // error sqrt(2 * 10^4 * 7 * (1 + 7 / 2)) = sqrt(630000) = 793.725 ns.
    EXPECT_DOUBLE_EQ(k.time_ns.total, 5000 + 400 + 7 * 200);
    ASSERT_TRUE(k.estimate_error_ns.has_value());
    EXPECT_NEAR(*k.estimate_error_ns, std::sqrt(630000.0), 1e-6);
}

TEST(CollectorTiming, RecordSkipsDropAMarkedRecordOnceAndAReusedBitIsCleared) {
    RecordSkips skips;
    skips.mark(5, true);
    EXPECT_TRUE(skips.take(5));
    EXPECT_FALSE(skips.take(5));                // once
    skips.mark(7, true);                        // its record never comes
    skips.mark(7 + RecordSkips::k_bits, false); // a timed launch 2^20 later shares the bit
    EXPECT_FALSE(skips.take(7 + RecordSkips::k_bits));
    skips.mark(9, false);
    EXPECT_FALSE(skips.take(9));
}

TEST(DurationAccumulator, SpreadIsTheSumOfSquaredDeviations) {
    DurationAccumulator a;
    for (const double ns : {1e9 + 100, 1e9 + 200, 1e9 + 300}) { // large mean, small spread
        a.add(ns);
    }
    EXPECT_NEAR(a.m2, 2e4, 1e-3);
}

// IRF_GRAPH_TIMING=graphs (issue 55 item 4): a node of a replay timed whole comes as an untimed
// launch, counted and estimated as IRF_TIMING=sampled's untimed launches are.
TEST(CollectorTiming, GraphNodesOfReplaysTimedWholeAreEstimated) {
    Collector c{timing_config(0, 0)};
    std::uint64_t id = k_first_synthetic_id;
    LaunchEvent node;
    node.function = reinterpret_cast<const void*>(0x80);
    node.mangled = "_Z4nodev";
    node.graph = true;
    for (const double ns : {5000.0, 100.0, 300.0}) { // three replays traced by node
        node.correlation_id = id++;
        EXPECT_EQ(c.on_launch(node), LaunchDecision::time_only);
        c.on_duration({node.correlation_id, 1000, 1000 + static_cast<std::uint64_t>(ns)});
    }
    node.untimed = true;
    for (int replay = 0; replay < 2; ++replay) { // two replays timed whole
        node.correlation_id = id++;
        EXPECT_EQ(c.on_launch(node), LaunchDecision::time_only);
    }
    const model::Profile p = test::profile_of(c);
    ASSERT_EQ(p.kernels.size(), 1u);
    const model::KernelRecord& k = p.kernels[0];
    EXPECT_EQ(k.launches, 5u);
    EXPECT_EQ(k.estimated_launches, 2u);
    // After the first: 100 and 300, mean 200, s^2 = 20000 / 1. Two untimed at 200 = 400 ns;
    // error sqrt(20000 * 2 * (1 + 2 / 2)) = sqrt(80000) = 282.843 ns. Total 5400 + 400 ns.
    EXPECT_DOUBLE_EQ(k.time_ns.total, 5800);
    ASSERT_TRUE(k.estimate_error_ns.has_value());
    EXPECT_NEAR(*k.estimate_error_ns, 282.843, 1e-3);
}

} // namespace
} // namespace test_collector_timing
} // namespace irf::intercept

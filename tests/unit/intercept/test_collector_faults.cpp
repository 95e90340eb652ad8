// SPDX-License-Identifier: Apache-2.0
// Fault matrix, processes (unit): many host threads launching at once lose and double-count
// nothing; launches, counters and durations arriving while or after the profile is built are
// handled safely. The tsan build runs these under ThreadSanitizer.
#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "tests/unit/intercept/collector_profile.hpp"

namespace irf::intercept {
namespace test_collector_faults {
namespace {

constexpr int k_threads = 16;
constexpr int k_per_thread = 5000; // crosses the 4096-entry chunk of a launch log

/// One launch of kernel `fn` with a fresh correlation id from `next`; counters when profiled.
void launch(Collector& c, std::atomic<std::uint64_t>& next, std::uintptr_t fn, const char* name) {
    LaunchEvent e;
    e.function = reinterpret_cast<const void*>(fn);
    e.mangled = name;
    e.launch.grid = {1, 1, 1};
    e.correlation_id = next.fetch_add(1);
    if (test::sampled(c.on_launch(e))) {
        c.on_counters({e.correlation_id, {{"inst_warp", 3}}, 1});
    }
    c.on_duration({e.correlation_id, 100, 200}); // 100 ns each
}

/// No call stacks: libunwind's per-thread cache destructor crashes under ThreadSanitizer at
/// thread exit (an uninstrumented library locking after TSan retired the thread), which would
/// hide what these tests check.
config::Config without_call_stacks() {
    config::Config c;
    c.callstack = 0;
    return c;
}

TEST(FaultCollector, ManyThreadsLoseAndDoubleCountNothing) {
    Collector c{without_call_stacks()};
    std::atomic<std::uint64_t> next{1};
    std::vector<std::thread> threads;
    for (int t = 0; t < k_threads; ++t) {
        threads.emplace_back([&c, &next, t] {
            for (int i = 0; i < k_per_thread; ++i) {
                // Half the launches share one kernel, half go to a kernel of their own thread.
                launch(c, next, i % 2 == 0 ? 1 : 100 + t, i % 2 == 0 ? "_Z6sharedv" : "_Z3ownv");
            }
        });
    }
    for (std::thread& t : threads) {
        t.join();
    }
    model::Profile p;
    c.fill_profile(p);
    // 16 x 5000 = 80000 launches; the shared kernel has 16 x 2500 = 40000 of them.
    EXPECT_EQ(p.coverage.launches, 80000u);
    std::uint64_t launches = 0;
    double total_ns = 0;
    for (const model::KernelRecord& k : p.kernels) {
        launches += k.launches;
        total_ns += k.time_ns.total;
        if (k.mangled == "_Z6sharedv") {
            EXPECT_EQ(k.launches, 40000u);
            EXPECT_EQ(k.profiled_launches, 1u);
        }
    }
    EXPECT_EQ(launches, 80000u);
    const CollectorStats s = c.stats();
    // Every duration attributed exactly once; a profiled (replayed) launch counts at its kernel's
    // unprofiled mean (100 ns), so the totals are 80000 x 100 ns.
    EXPECT_GT(s.samples, 0u);
    EXPECT_DOUBLE_EQ(total_ns, 100.0 * 80000);
    EXPECT_EQ(s.dropped, 0u);
    EXPECT_EQ(s.unmatched_durations, 0u);
}

TEST(FaultCollector, LaunchesWhileAndAfterFinalizationAreSafe) {
    Collector c{without_call_stacks()};
    std::atomic<std::uint64_t> next{1};
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> launched{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            while (!stop.load()) {
                launch(c, next, 1 + static_cast<std::uintptr_t>(t), "_Z1kv");
                launched.fetch_add(1);
            }
        });
    }
    while (launched.load() < 2000) {
        std::this_thread::yield();
    }
    model::Profile during; // finalization begins while the threads still launch
    c.fill_profile(during);
    EXPECT_GE(during.coverage.launches, 1u);
    model::Profile again; // a second build (e.g. a signal during exit) is consistent too
    c.fill_profile(again);
    stop.store(true);
    for (std::thread& t : threads) {
        t.join();
    }
    // Late events for launches never seen, after everything: counted as unmatched, no crash.
    c.on_duration({next.load() + 10, 1, 2});
    c.on_counters({next.load() + 11, {{"inst_warp", 1}}, 1});
    c.on_warning("late warning");
    launch(c, next, 99, "_Z4latev");
    const CollectorStats s = c.stats();
    EXPECT_EQ(s.launches, launched.load() + 1);
    EXPECT_EQ(s.unmatched_durations, 1u);
    EXPECT_EQ(s.unmatched_samples, 1u);
    EXPECT_GE(again.coverage.launches, during.coverage.launches);
}

TEST(FaultCollector, StopRecordingLeavesWhatIsWrittenOutAlone) {
    // Finalization stops recording while threads still launch: their launches run unrecorded,
    // and the records of those launches arriving later are dropped after one last drain,
    // neither counted nor kept as "unmatched" (before, each one drained every log and retried
    // every early record: quadratic while six threads kept launching).
    Collector c{without_call_stacks()};
    std::atomic<std::uint64_t> next{1};
    for (int i = 0; i < 10; ++i) {
        launch(c, next, 1, "_Z1kv");
    }
    c.stop_recording();
    LaunchEvent late;
    late.function = reinterpret_cast<const void*>(std::uintptr_t{2});
    late.mangled = "_Z4latev";
    late.correlation_id = next.fetch_add(1);
    EXPECT_EQ(c.on_launch(late), LaunchDecision::time_only);
    for (int i = 0; i < 1000; ++i) {
        c.on_duration({late.correlation_id + static_cast<std::uint64_t>(i), 1, 2});
    }
    c.on_counters({late.correlation_id, {{"inst_warp", 1}}, 1});
    const CollectorStats s = c.stats();
    EXPECT_EQ(s.launches, 10u);
    EXPECT_EQ(s.unmatched_durations, 0u);
    EXPECT_EQ(s.unmatched_samples, 0u);
    model::Profile p;
    c.fill_profile(p);
    ASSERT_EQ(p.kernels.size(), 1u); // late() was never recorded
    EXPECT_EQ(p.kernels[0].launches, 10u);
    // 10 launches x 100 ns: the 2 profiled ones (the provisional first-launch sample and the
    // sample) count at the unprofiled mean of 100 ns; nothing of the late launch is added.
    EXPECT_EQ(p.kernels[0].time_ns.total, 10 * 100.0);
}

} // namespace
} // namespace test_collector_faults
} // namespace irf::intercept

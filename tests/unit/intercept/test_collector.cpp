// SPDX-License-Identifier: Apache-2.0
// The collector: per-kernel aggregation of durations and counters, first-launch handling,
// correlation in any order, many threads.
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "tests/unit/intercept/collector_profile.hpp"

namespace irf::intercept {
namespace test_collector {
namespace {

const void* handle(std::uintptr_t id) {
    return reinterpret_cast<const void*>(id);
}

/// The profile's warnings less those of NVTX misuse: its counters are process-wide, and the
/// NVTX tests that provoke them (test_nvtx_*.cpp) may run before these in the same process.
std::vector<std::string> own_warnings(const model::Profile& p) {
    std::vector<std::string> out;
    for (const std::string& w : p.warnings) {
        if (w.find("NVTX") == std::string::npos) {
            out.push_back(w);
        }
    }
    return out;
}

/// Drives a collector like a backend: launch, counters when asked, duration.
class Driver {
public:
    explicit Driver(const config::Config& c = config::Config{}) : m_collector(c) {}

    LaunchDecision launch(std::uintptr_t fn, const char* name, double ns, std::uint32_t grid = 1,
                          double inst = 10) {
        LaunchEvent e;
        e.function = handle(fn);
        e.mangled = name;
        e.launch.grid = {grid, 1, 1};
        e.correlation_id = ++m_next;
        const LaunchDecision d = m_collector.on_launch(e);
        if (test::sampled(d)) {
            m_collector.on_counters({e.correlation_id, {{"inst_warp", inst}}, 1});
        }
        m_collector.on_duration({e.correlation_id, 1000, 1000 + static_cast<std::uint64_t>(ns)});
        return d;
    }

    model::Profile profile() {
        model::Profile p;
        m_collector.fill_profile(p);
        return p;
    }

    Collector m_collector;
    std::uint64_t m_next = 0;
};

TEST(Collector, AggregatesDurationsPerKernelAndConfiguration) {
    config::Config timed_only; // profiled launches' durations stay out of time stats
    timed_only.samples = 0;
    Driver d(timed_only);
    d.launch(1, "_Z1kv", 95000); // cold
    d.launch(1, "_Z1kv", 100);
    d.launch(1, "_Z1kv", 300);
    d.launch(1, "_Z1kv", 200, /*grid=*/2); // another configuration: another kernel
    const model::Profile p = d.profile();
    ASSERT_EQ(p.kernels.size(), 2u);
    const model::KernelRecord& k = p.kernels[0]; // 95400 ns total, sorted first
    EXPECT_EQ(k.name, "k()");
    EXPECT_EQ(k.launches, 3u);
    // total includes the cold launch: 95000 + 100 + 300 = 95400; min/mean/max exclude it:
    // mean = (100 + 300) / 2 = 200.
    EXPECT_EQ(k.time_ns.total, 95400);
    EXPECT_EQ(k.time_ns.min, 100);
    EXPECT_EQ(k.time_ns.max, 300);
    EXPECT_EQ(k.time_ns.mean, 200);
    ASSERT_EQ(k.notes.size(), 1u);
    // The cold launch's time as every tool prints times (common/time_format.hpp).
    EXPECT_NE(k.notes[0].find("lazy module loading): 95.0 us"), std::string::npos) << k.notes[0];
    EXPECT_EQ(p.kernels[1].launch.grid[0], 2u);
    EXPECT_EQ(p.kernels[1].launches, 1u);
    EXPECT_EQ(p.coverage.launches, 4u);
    EXPECT_EQ(p.coverage.kernels, 2u);
}

TEST(Collector, CountersOfTheFirstLaunchAreReplacedByALaterSample) {
    Driver d;
    EXPECT_TRUE(test::sampled(d.launch(1, "_Z1kv", 900, 1, 7)));
    EXPECT_TRUE(test::sampled(d.launch(1, "_Z1kv", 100, 1, 10)));
    EXPECT_EQ(d.launch(1, "_Z1kv", 100, 1, 10), LaunchDecision::time_only);
    const model::Profile p = d.profile();
    const model::KernelRecord& k = p.kernels[0];
    EXPECT_EQ(k.profiled_launches, 1u);
    EXPECT_EQ(k.counters.at("inst_warp"), 10);
    EXPECT_EQ(k.counters.at("time_ns"), 100);    // from the activity duration of the sample
    EXPECT_EQ(p.coverage.profiled_launches, 2u); // both ran under a counter range
}

TEST(Collector, ASingleLaunchKeepsItsSampleWithANote) {
    Driver d;
    d.launch(1, "_Z1kv", 900, 1, 7);
    const model::KernelRecord k = d.profile().kernels[0];
    EXPECT_EQ(k.profiled_launches, 1u);
    EXPECT_EQ(k.counters.at("inst_warp"), 7);
    EXPECT_EQ(k.time_ns.mean, 900);
    EXPECT_EQ(k.notes.size(), 2u); // timed and profiled only at a first launch
}

TEST(Collector, SameNameFromTwoFunctionsIsOneKernel) {
    Driver d;
    d.launch(1, "_Z1kv", 100);
    d.launch(2, "_Z1kv", 100); // same kernel loaded in a second context
    d.launch(2, "_Z1kv", 100);
    const model::Profile p = d.profile();
    ASSERT_EQ(p.kernels.size(), 1u);
    EXPECT_EQ(p.kernels[0].launches, 3u);
}

TEST(Collector, DurationsAndCountersInAnyOrder) {
    Collector c{config::Config{}};
    LaunchEvent e;
    e.function = handle(1);
    e.mangled = "_Z1kv";
    e.correlation_id = 5;
    c.on_duration({5, 0, 50}); // before the launch is seen: kept and matched later
    ASSERT_TRUE(test::sampled(c.on_launch(e)));
    c.on_counters({5, {{"inst_warp", 3}}, 1});
    c.on_duration({99, 0, 1}); // never launched
    model::Profile p;
    c.fill_profile(p);
    EXPECT_EQ(p.kernels[0].time_ns.total, 50);
    EXPECT_EQ(p.kernels[0].counters.at("inst_warp"), 3);
    const std::vector<std::string> warnings = own_warnings(p);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("1 kernel durations had no intercepted launch"), std::string::npos);
}

TEST(Collector, FilteredAndGraphLaunchesAreTimedOnly) {
    config::Config cfg;
    cfg.kernels = "^keep";
    Driver d(cfg);
    EXPECT_EQ(d.launch(1, "drop_me", 10), LaunchDecision::time_only);
    EXPECT_TRUE(test::sampled(d.launch(2, "keep_me", 10)));
    LaunchEvent g;
    g.function = handle(3);
    g.mangled = "keep_graph";
    g.graph = true;
    g.correlation_id = 1000;
    EXPECT_EQ(d.m_collector.on_launch(g), LaunchDecision::time_only);
    EXPECT_EQ(d.profile().coverage.launches, 3u);
}

// IRF_CAPTURE_RANGE=cudaProfilerApi: profiled only between start and stop; timed always.
TEST(Collector, CaptureRangeGatesProfiling) {
    config::Config cfg;
    cfg.capture_profiler_api = true;
    Driver d(cfg);
    EXPECT_EQ(d.launch(1, "before", 10), LaunchDecision::time_only);
    d.m_collector.on_profiler_range(true);
    EXPECT_TRUE(test::sampled(d.launch(2, "inside", 10)));
    d.m_collector.on_profiler_range(false);
    EXPECT_EQ(d.launch(3, "after", 10), LaunchDecision::time_only);
    d.m_collector.on_profiler_range(true); // a second range opens again
    EXPECT_TRUE(test::sampled(d.launch(4, "again", 10)));
    EXPECT_EQ(d.profile().coverage.launches, 4u);

    Driver plain; // without a capture range, start/stop change nothing
    plain.m_collector.on_profiler_range(false);
    EXPECT_TRUE(test::sampled(plain.launch(1, "any", 10)));
}

TEST(Collector, MissingCountersAreReported) {
    Collector c{config::Config{}};
    LaunchEvent e;
    e.function = handle(1);
    e.mangled = "_Z1kv";
    e.correlation_id = 1;
    ASSERT_TRUE(test::sampled(c.on_launch(e)));
    c.on_warning("counters refused");
    c.on_warning("counters refused"); // kept once, with its count
    c.on_warning("counters refused");
    model::Profile p;
    c.fill_profile(p);
    EXPECT_EQ(p.kernels[0].profiled_launches, 0u);
    const std::vector<std::string> warnings = own_warnings(p);
    ASSERT_EQ(warnings.size(), 3u);
    EXPECT_EQ(warnings[0], "counters refused (x3)");
    // Nor did its duration come before the profile was built (no flush delivered it).
    EXPECT_EQ(p.coverage.lost_durations, 1u);
    EXPECT_EQ(warnings[1].rfind("1 launches never received their duration", 0), 0u);
    EXPECT_NE(warnings[2].find("1 launches chosen for profiling delivered no counters"),
              std::string::npos);
}

TEST(Collector, ManyThreadsLoseNoLaunch) {
    config::Config cfg;
    cfg.samples = 0;   // timing only: no counters to deliver
    cfg.callstack = 0; // libunwind's thread-exit destructor crashes under ThreadSanitizer
    Collector c{cfg};
    constexpr int k_threads = 8;
    // Several log chunks per thread; 8 x 15000 = 120000 correlation ids stay below the stale
    // bound (Collector::k_lost_after, 2^17 = 131072), so no launch can be retired as lost while a
    // lagging thread's duration is still on its way, however the threads are scheduled.
    constexpr int k_launches = 15000;
    std::vector<std::thread> threads;
    for (int t = 0; t < k_threads; ++t) {
        threads.emplace_back([&c, t] {
            for (int i = 0; i < k_launches; ++i) {
                LaunchEvent e;
                e.function = handle(1 + static_cast<std::uintptr_t>(i % 3));
                e.mangled = i % 3 == 0 ? "_Z1av" : i % 3 == 1 ? "_Z1bv" : "_Z1cv";
                e.correlation_id = static_cast<std::uint64_t>(t) * k_launches + i + 1;
                (void)c.on_launch(e);
                if (i % 2 == 0) { // durations from a "buffer thread" racing the launches
                    c.on_duration({e.correlation_id, 0, 10});
                }
            }
        });
    }
    for (std::thread& t : threads) {
        t.join();
    }
    model::Profile p;
    c.fill_profile(p);
    EXPECT_EQ(p.coverage.launches, static_cast<std::uint64_t>(k_threads) * k_launches);
    EXPECT_EQ(p.coverage.kernels, 3u);
    double total = 0;
    for (const auto& k : p.kernels) {
        total += k.time_ns.total;
    }
    EXPECT_EQ(total, 10.0 * k_threads * k_launches / 2);
    // The odd launches never got a duration: 8 x 15000 / 2 = 60000, counted and said once.
    EXPECT_EQ(p.coverage.lost_durations, 60000u);
    const std::vector<std::string> warnings = own_warnings(p);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].rfind("60000 launches never received their duration", 0), 0u);
}

TEST(Collector, CallSiteIsCapturedOnceAndCanBeOff) {
    Driver on;
    on.launch(1, "_Z1kv", 1);
    EXPECT_FALSE(on.profile().kernels[0].call_site.empty());
    config::Config cfg;
    cfg.callstack = 0;
    Driver off(cfg);
    off.launch(1, "_Z1kv", 1);
    EXPECT_TRUE(off.profile().kernels[0].call_site.empty());
}

} // namespace
} // namespace test_collector
} // namespace irf::intercept

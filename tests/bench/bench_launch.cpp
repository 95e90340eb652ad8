// SPDX-License-Identifier: Apache-2.0
// Host cost of intercepting a launch that is not profiled: Collector::on_launch for a kernel that
// already has its samples (the common case), as the CUPTI callback calls it. Target < 100 ns.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include <benchmark/benchmark.h>

#include "intercept/collector.hpp"

namespace irf::intercept {
namespace bench_launch {
namespace {

constexpr std::uint64_t k_batch = 1u << 16;

/// Names of `n` distinct kernels (kept alive: LaunchEvent holds pointers).
const std::vector<std::string>& kernel_names(std::size_t n) {
    static std::vector<std::string> s_names;
    static std::mutex s_mutex;
    const std::lock_guard<std::mutex> lock(s_mutex);
    while (s_names.size() < n) {
        s_names.push_back("_Z6kernelILi" + std::to_string(s_names.size()) + "EEvPf");
    }
    return s_names;
}

/// Delivers the durations of launches [first, last) like the activity thread would, so the
/// per-thread logs and the pending map stay bounded; run with the timer paused.
void deliver_durations(Collector& c, std::uint64_t first, std::uint64_t last) {
    for (std::uint64_t id = first; id < last; ++id) {
        c.on_duration({id, 0, 1000});
    }
}

/// Every measured launch is past its samples (or excluded): one that was profiled would make
/// the benchmark measure something else, so the run fails instead of reporting a time.
[[noreturn]] void fail_profiled() {
    std::fputs("bench_launch: a launch past its samples (or excluded) was profiled\n", stderr);
    std::exit(1);
}

/// Launches `functions` distinct kernels in turn, each already past its samples.
void run_launches(benchmark::State& state, Collector& collector, std::size_t functions,
                  std::uint64_t id_base) {
    const std::vector<std::string>& names = kernel_names(functions);
    std::vector<LaunchEvent> events(functions);
    for (std::size_t f = 0; f < functions; ++f) {
        events[f].function = names[f].data(); // any stable address will do as a handle
        events[f].mangled = names[f].c_str();
        events[f].launch.grid = {256, 1, 1};
        events[f].launch.block = {128, 1, 1};
    }
    std::uint64_t id = id_base;
    std::uint64_t delivered = id;
    for (std::size_t f = 0; f < functions; ++f) { // warm up: first launches and the samples
        for (int i = 0; i < 3; ++i) {
            events[f].correlation_id = ++id;
            (void)collector.on_launch(events[f]);
        }
    }
    std::size_t f = 0;
    for (auto _ : state) {
        LaunchEvent& e = events[f];
        f = f + 1 == functions ? 0 : f + 1;
        e.correlation_id = ++id;
        const LaunchDecision decision = collector.on_launch(e);
        benchmark::DoNotOptimize(decision);
        if (decision != LaunchDecision::time_only) {
            fail_profiled();
        }
        if (id - delivered >= k_batch) {
            state.PauseTiming();
            deliver_durations(collector, delivered + 1, id + 1);
            delivered = id;
            state.ResumeTiming();
        }
    }
    state.SetItemsProcessed(state.iterations());
}

void BM_launch_not_profiled(benchmark::State& state) {
    Collector collector{config::Config{}};
    run_launches(state, collector, static_cast<std::size_t>(state.range(0)), 0);
}
BENCHMARK(BM_launch_not_profiled)->Arg(1)->Arg(64)->Arg(4096);

void BM_launch_excluded(benchmark::State& state) {
    config::Config cfg;
    cfg.exclude = "kernel"; // every launch is filtered out: timed only
    Collector collector{cfg};
    run_launches(state, collector, 1, 0);
}
BENCHMARK(BM_launch_excluded);

/// Several application threads launching into one collector (each has its own log).
void BM_launch_threads(benchmark::State& state) {
    static Collector s_collector{config::Config{}}; // shared by all threads (thread-safe init)
    // Distinct correlation id ranges per thread and per run (the collector outlives the runs
    // of 1, 2 and 4 threads, and an id used twice never finds its launch again); durations are
    // delivered per thread batch.
    static std::atomic<std::uint64_t> s_next_range{0};
    run_launches(state, s_collector, 64, s_next_range.fetch_add(1) << 40);
}
BENCHMARK(BM_launch_threads)->Threads(1)->Threads(2)->Threads(4);

/// A duration whose launch never comes (a record of a launch made before irf subscribed, or
/// whose log entry was lost) while 2^16 such records already wait: it must cost about as much as
/// one that matches, not a scan of every waiting record (which made this quadratic).
void BM_duration_unmatched(benchmark::State& state) {
    Collector collector{config::Config{}};
    std::uint64_t id = std::uint64_t{1} << 50; // no launch has these ids
    for (std::uint64_t i = 0; i < k_batch; ++i) {
        collector.on_duration({++id, 0, 1000});
    }
    for (auto _ : state) {
        collector.on_duration({++id, 0, 1000});
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_duration_unmatched);

} // namespace
} // namespace bench_launch
} // namespace irf::intercept

BENCHMARK_MAIN();

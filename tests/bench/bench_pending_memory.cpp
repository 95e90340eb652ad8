// SPDX-License-Identifier: Apache-2.0
// Memory when kernel records do not come back (issue 51 B): N launches of 200 kernels from one
// thread into the collector, with every record delivered only at exit (after stop_recording, as
// libirf's finalization flushes) or with none at all. Reports the heap in use and the RSS above
// the start, at their peak, per N; fails a run whose RSS grows by 32 MiB or more. Flat from
// 1,000 to 50,000,000 launches (docs/performance.md, "Records that never come"):
//   bench_pending_memory --benchmark_filter='BM_PendingMemory/.*'
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "intercept/collector.hpp"

namespace irf::intercept {
namespace bench_pending_memory {
namespace {

constexpr int k_kernels = 200;
constexpr double k_mib = 1 << 20;
constexpr double k_growth_limit = 32 * k_mib;

double rss_bytes() {
    long pages_total = 0;
    long pages_resident = 0;
    std::ifstream statm("/proc/self/statm");
    statm >> pages_total >> pages_resident;
    return static_cast<double>(pages_resident) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

double heap_bytes() {
    return static_cast<double>(mallinfo2().uordblks);
}

/// Peak heap in use and RSS above where a run started.
struct Peak {
    double heap0 = heap_bytes();
    double rss0 = rss_bytes();
    double heap = 0;
    double rss = 0;
    void sample() {
        heap = std::max(heap, heap_bytes() - heap0);
        rss = std::max(rss, rss_bytes() - rss0);
    }
};

const std::vector<std::string>& names() {
    static const std::vector<std::string> s_names = [] {
        std::vector<std::string> v;
        for (int k = 0; k < k_kernels; ++k) {
            v.push_back("_Z6kernelILi" + std::to_string(k) + "EEvPf");
        }
        return v;
    }();
    return s_names;
}

/// The launches, then (records_at_exit) every record after recording stopped; the profile is
/// built as at exit.
Peak play(std::uint64_t launches, bool records_at_exit) {
    config::Config config;
    config.callstack = 0;
    config.samples = 0;
    malloc_trim(0);
    Peak peak;
    auto collector = std::make_unique<Collector>(config);
    LaunchEvent e;
    e.launch.grid = {64, 1, 1};
    e.launch.block = {256, 1, 1};
    for (std::uint64_t id = 1; id <= launches; ++id) {
        const auto k = static_cast<std::size_t>(id % k_kernels);
        e.function = reinterpret_cast<const void*>(0x1000 + k * 16);
        e.mangled = names()[k].c_str();
        e.correlation_id = id;
        benchmark::DoNotOptimize(collector->on_launch(e));
        if ((id & ((1u << 20) - 1)) == 0) {
            peak.sample();
        }
    }
    peak.sample();
    collector->stop_recording();
    if (records_at_exit) {
        for (std::uint64_t id = 1; id <= launches; ++id) {
            collector->on_duration({id, 1000, 3000});
            if ((id & ((1u << 20) - 1)) == 0) {
                peak.sample();
            }
        }
    }
    model::Profile profile;
    collector->fill_profile(profile);
    peak.sample();
    benchmark::DoNotOptimize(profile.coverage.launches);
    return peak;
}

void BM_PendingMemory(benchmark::State& state) {
    const auto launches = static_cast<std::uint64_t>(state.range(0));
    const bool records_at_exit = state.range(1) != 0;
    Peak peak;
    for (auto _ : state) {
        peak = play(launches, records_at_exit);
    }
    state.counters["heap_MiB"] = peak.heap / k_mib;
    state.counters["rss_MiB"] = peak.rss / k_mib;
    state.SetLabel(records_at_exit ? "records at exit" : "no records");
    if (peak.rss >= k_growth_limit) {
        state.SkipWithError("RSS grew by 32 MiB or more");
    }
}
BENCHMARK(BM_PendingMemory)
    ->ArgsProduct({{1000, 10000, 100000, 1000000, 10000000, 50000000}, {1, 0}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

} // namespace
} // namespace bench_pending_memory
} // namespace irf::intercept

BENCHMARK_MAIN();

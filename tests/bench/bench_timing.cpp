// SPDX-License-Identifier: Apache-2.0
// What IRF_TIMING=sampled saves on the host (issue 55 item 5; docs/configuration.md, "Sampled
// timing"): a recurring kernel's launch and its activity record through the collector, every
// launch timed against one in 100. CUPTI still writes every record (no per-launch switch), so
// this is the whole of the saving; a GPU run measures the rest.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <benchmark/benchmark.h>

#include "intercept/collector.hpp"

namespace irf::intercept {
namespace bench_timing {
namespace {

/// CUPTI's correlation ids are 32-bit serials: the ring of skipped records indexes them.
constexpr std::uint64_t k_id_wrap = std::uint64_t{1} << 32;

/// Launches one kernel past its samples, its record delivered right after (as a short kernel's
/// comes, within a buffer of the activity thread): launch path and record path together.
void run_launch_and_record(benchmark::State& state, const config::Config& cfg) {
    Collector collector{cfg};
    static const std::string s_name = "_Z4tinyPf";
    LaunchEvent e;
    e.function = s_name.data();
    e.mangled = s_name.c_str();
    e.launch.grid = {1, 1, 1};
    std::uint64_t id = 0;
    for (int i = 0; i < 3; ++i) { // first launch and sample
        e.correlation_id = ++id;
        (void)collector.on_launch(e);
        collector.on_duration({id, 1000, 3000});
    }
    for (auto _ : state) {
        e.correlation_id = ++id % k_id_wrap;
        if (profiles(collector.on_launch(e))) {
            std::fputs("bench_timing: a launch past its samples was profiled\n", stderr);
            std::exit(1);
        }
        collector.on_duration({e.correlation_id, 1000, 3000});
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["records_skipped"] = static_cast<double>(collector.stats().skipped_records) /
                                        static_cast<double>(state.iterations());
}

void BM_launch_and_record_timed(benchmark::State& state) {
    config::Config cfg;
    cfg.callstack = 0;
    run_launch_and_record(state, cfg);
}
BENCHMARK(BM_launch_and_record_timed);

void BM_launch_and_record_sampled(benchmark::State& state) {
    config::Config cfg;
    cfg.callstack = 0;
    cfg.timing = config::TimingMode::sampled;
    cfg.timing_first = 100;
    cfg.timing_every = 100;
    run_launch_and_record(state, cfg);
}
BENCHMARK(BM_launch_and_record_sampled);

} // namespace
} // namespace bench_timing
} // namespace irf::intercept

BENCHMARK_MAIN();

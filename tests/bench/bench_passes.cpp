// SPDX-License-Identifier: Apache-2.0
// What samples by launches (IRF_REPLAY, intercept/cupti/pass_samples.hpp) add to a launch that
// is not sampled: the PassSink in front of the collector, with no sample open (one relaxed load)
// and with samples of other kernels open (the same load and a hashed bit), and a launch of a
// kernel with an open sample whose pass is chosen (the sink's lock and look-up; the pass itself,
// a CUPTI Start/Stop, is not in it). The inner sink answers time_only at once, so the figures are
// the PassSink's own (docs/performance.md, "One pass per launch").
#include <atomic>
#include <memory>
#include <vector>

#include <benchmark/benchmark.h>

#include "intercept/cupti/pass_samples.hpp"

namespace irf::intercept::cupti {
namespace bench_passes {
namespace {

/// The collector's stand-in: every launch time_only.
class Quiet final : public LaunchSink {
public:
    LaunchDecision on_launch(const LaunchEvent&) noexcept override {
        return LaunchDecision::time_only;
    }
    void on_counters(const CounterSample&) noexcept override {}
    void on_duration(const DurationRecord&) noexcept override {}
    void on_warning(const std::string&) noexcept override {}
};

/// Arms passes without CUPTI (a sample never completes: it stays open).
class Armable final : public RangeProfiler {
public:
    ProfilerStatus setup(CUcontext, CUdevice, const std::string&, const std::vector<std::string>&,
                         std::vector<std::uint8_t>&) noexcept override {
        return {};
    }
    ProfilerStatus arm_pass(PassSample&) noexcept override { return {}; }
    ProfilerStatus start() noexcept override { return {}; }
    ProfilerStatus stop_and_evaluate(std::vector<double>&, RangeReport&) noexcept override {
        return {};
    }
    void teardown() noexcept override {}
    [[nodiscard]] int passes() const noexcept override { return 4; }
};

LaunchEvent launch_of(std::uintptr_t function, std::uint64_t id) {
    LaunchEvent e;
    e.function = reinterpret_cast<const void*>(function);
    e.correlation_id = id;
    return e;
}

/// A sink with `open` samples of functions 0x1000, 0x1010, ... open.
struct Rig {
    Quiet inner;
    std::atomic<std::uint64_t> launches{0};
    PassSink sink;
    Armable profiler;
    explicit Rig(int open) {
        sink.attach(&inner, &launches);
        for (int i = 0; i < open; ++i) {
            const LaunchEvent e = launch_of(0x1000 + 16 * static_cast<std::uintptr_t>(i), i + 1);
            // As the backend does: the collector's profile_launches comes through route(); here
            // a begin is armed directly by answering it from a second sink below.
            struct Begin final : LaunchSink {
                LaunchDecision on_launch(const LaunchEvent&) noexcept override {
                    return LaunchDecision::profile_launches;
                }
                void on_counters(const CounterSample&) noexcept override {}
                void on_duration(const DurationRecord&) noexcept override {}
                void on_warning(const std::string&) noexcept override {}
            } begin;
            sink.attach(&begin, &launches);
            static_cast<void>(sink.on_launch(e));
            static_cast<void>(sink.arm(profiler, e.correlation_id));
            CounterSample none;
            none.correlation_id = e.correlation_id;
            sink.on_counters(none); // the pass ends; the sample waits for its next launch
            sink.attach(&inner, &launches);
        }
    }
};

void BM_PassSinkNotSampled(benchmark::State& state) {
    Rig rig(static_cast<int>(state.range(0)));
    const LaunchEvent e = launch_of(0x9000, 1000);
    for (auto _ : state) {
        benchmark::DoNotOptimize(rig.sink.on_launch(e));
    }
    state.counters["open_samples"] = static_cast<double>(rig.sink.open_samples());
}
BENCHMARK(BM_PassSinkNotSampled)->Arg(0)->Arg(8)->Arg(64);

/// 1,024 kernels without a sample launched in turn while `range(0)` samples are open: the
/// launches whose hashed bit another kernel's sample set take the sink's lock and look-up.
void BM_PassSinkOtherKernels(benchmark::State& state) {
    Rig rig(static_cast<int>(state.range(0)));
    std::vector<LaunchEvent> events;
    for (std::uintptr_t i = 0; i < 1024; ++i) {
        events.push_back(launch_of(0x100000 + 64 * i, 5000 + i));
    }
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(rig.sink.on_launch(events[i]));
        i = (i + 1) & 1023;
    }
}
BENCHMARK(BM_PassSinkOtherKernels)->Arg(0)->Arg(8)->Arg(64);

void BM_PassSinkChoosesAPass(benchmark::State& state) {
    Rig rig(8);
    const LaunchEvent e = launch_of(0x1000, 2000); // the first open sample's kernel
    for (auto _ : state) {
        benchmark::DoNotOptimize(rig.sink.on_launch(e));
        rig.sink.on_sample_declined(e.correlation_id, nullptr); // frees it for the next round
    }
}
BENCHMARK(BM_PassSinkChoosesAPass);

} // namespace
} // namespace bench_passes
} // namespace irf::intercept::cupti

BENCHMARK_MAIN();

// SPDX-License-Identifier: Apache-2.0
// irf's own work on a launch that is not sampled, through the CUPTI backend's whole callback:
// the ENTER and EXIT of a cuLaunchKernel as CUPTI delivers them (recorded callback data, fake
// platform), the PassSink and the collector behind it, on 1 to 4 threads and 1 to 4,096 kernels
// (issue 55 item 2: <= 150 ns a launch, no lock, no driver or CUPTI call). CUPTI's own dispatch
// is not in it. The platform counts its calls: one on a warmed-up launch fails the benchmark
// (docs/performance.md, "Overhead against its goals"). BM_cupti_launch_hooked: the same through
// libirf_entry.so's hooks (IRF_FAST_INTERCEPT=1), whose one driver call is cuCtxGetCurrent.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "intercept/collector.hpp"
#include "tests/integration/cupti_fake_platform.hpp"

namespace irf::intercept::cupti {
namespace bench_cupti_launch {
namespace {

/// The fake platform, counting the calls that stand for CUPTI and driver queries.
class CountingPlatform final : public ProfilerPlatform {
public:
    CountingPlatform(test::FakeScript& script, std::atomic<std::uint64_t>& calls)
        : m_inner(script), m_calls(calls) {}
    ProfilerStatus initialize() noexcept override { return m_inner.initialize(); }
    std::string chip(CUdevice device) noexcept override { return m_inner.chip(device); }
    std::unique_ptr<RangeProfiler> make_profiler() override { return m_inner.make_profiler(); }
    bool is_capturing(CUstream stream, bool per_thread) noexcept override {
        m_calls.fetch_add(1, std::memory_order_relaxed);
        return m_inner.is_capturing(stream, per_thread);
    }
    bool stream_id(CUcontext context, CUstream stream, bool per_thread,
                   std::uint32_t& id) noexcept override {
        m_calls.fetch_add(1, std::memory_order_relaxed);
        return m_inner.stream_id(context, stream, per_thread, id);
    }
    std::uint32_t device_of(CUcontext context) noexcept override {
        m_calls.fetch_add(1, std::memory_order_relaxed);
        return m_inner.device_of(context);
    }
    bool subscription_alive(void* subscriber) noexcept override {
        return m_inner.subscription_alive(subscriber);
    }
    bool set_graph_trace(bool on, std::string& error) noexcept override {
        return m_inner.set_graph_trace(on, error);
    }
    bool register_entry_hooks(const IrfEntryHooks* hooks) noexcept override {
        return m_inner.register_entry_hooks(hooks);
    }
    bool set_hooked_callbacks(void* subscriber, bool on) noexcept override {
        return m_inner.set_hooked_callbacks(subscriber, on);
    }
    /// cuCtxGetCurrent (a thread-local read in the driver): counted apart, the hook's one call.
    CUcontext current_context() noexcept override {
        m_context_calls.fetch_add(1, std::memory_order_relaxed);
        return m_inner.current_context();
    }
    const char* function_name(CUfunction function) noexcept override {
        m_calls.fetch_add(1, std::memory_order_relaxed);
        return m_inner.function_name(function);
    }
    std::atomic<std::uint64_t> m_context_calls{0};

private:
    test::FakePlatform m_inner;
    std::atomic<std::uint64_t>& m_calls;
};

constexpr int k_max_kernels = 4096;

/// One process-wide backend and collector (a process has one), kernels named _Z1kILi<n>EEvv;
/// `hooked`: IRF_FAST_INTERCEPT=1 with libirf_entry.so's hooks registered.
struct Rig {
    test::FakeScript script;
    std::atomic<std::uint64_t> platform_calls{0};
    CountingPlatform* platform = nullptr;
    Collector collector{timing_only()};
    CuptiBackend backend;
    std::vector<std::string> names;
    explicit Rig(bool hooked = false) : backend(options(hooked)) {
        auto counting = std::make_unique<CountingPlatform>(script, platform_calls);
        platform = counting.get();
        script.entry_loaded = hooked;
        script.current = test::ctx(1);
        backend.set_sampling_seam_for_test(
            test::quiet_seam({std::move(counting), k_lock_wait, k_sample_budget, k_timing_check}));
        backend.attach_sink_for_test(collector);
        for (int k = 0; k < k_max_kernels; ++k) {
            names.push_back("_Z1kILi" + std::to_string(k) + "EEvv");
            script.function_names[function_of(static_cast<std::size_t>(k))] = names.back();
        }
        if (hooked) {
            backend.start_fast_intercept_for_test();
        }
    }
    static CuptiOptions options(bool hooked) {
        CuptiOptions o;
        o.fast_intercept = hooked;
        return o;
    }
    static CUfunction function_of(std::size_t k) {
        return reinterpret_cast<CUfunction>(0x1000 + 16 * k);
    }
    static config::Config timing_only() {
        config::Config cfg;
        cfg.samples = 0; // the launches of this benchmark are never sampled
        cfg.callstack = 0;
        return cfg;
    }
};

Rig& rig() {
    static Rig s_rig;
    return s_rig;
}

Rig& hooked_rig() {
    static Rig s_rig(true);
    return s_rig;
}

/// Runs `launch` on `launches` in turn (after one warm-up round), then reports the platform calls
/// a launch and exits 1 when a warmed-up launch on one thread made any (`what` names them).
template <class Launch, class Fn>
void measure(benchmark::State& state, Rig& r, std::vector<Launch>& launches, Fn&& launch,
             const char* what) {
    for (auto& one : launches) { // warm-up: first launches fill irf's caches
        launch(one);
    }
    const std::uint64_t calls_before = r.platform_calls.load();
    const std::uint64_t contexts_before = r.platform->m_context_calls.load();
    std::size_t next = 0;
    for (auto _ : state) {
        launch(launches[next]);
        next = next + 1 == launches.size() ? 0 : next + 1;
    }
    const auto calls = static_cast<double>(r.platform_calls.load() - calls_before);
    state.counters["platform_calls_per_launch"] =
        benchmark::Counter(calls, benchmark::Counter::kAvgIterations);
    state.counters["cuCtxGetCurrent_per_launch"] = benchmark::Counter(
        static_cast<double>(r.platform->m_context_calls.load() - contexts_before),
        benchmark::Counter::kAvgIterations);
    state.SetItemsProcessed(state.iterations());
    if (calls > 0 && state.threads() == 1) {
        std::fprintf(stderr,
                     "bench_cupti_launch: %.0f %s in %lld warmed-up launches (goal: none)\n", calls,
                     what, static_cast<long long>(state.iterations()));
        std::exit(1);
    }
}

/// ENTER and EXIT of launches cycling over range(0) kernels; each thread its own callback data
/// (a launch's ENTER and EXIT come on its launching thread).
void BM_cupti_launch_callback(benchmark::State& state) {
    Rig& r = rig();
    const auto kernels = static_cast<std::size_t>(state.range(0));
    std::vector<test::FakeLaunch> launches;
    launches.reserve(kernels);
    for (std::size_t k = 0; k < kernels; ++k) {
        launches.emplace_back(1, r.names[k].c_str(), test::ctx(1), 0x1000 + 16 * k);
    }
    const std::uint32_t thread_bits = static_cast<std::uint32_t>(state.thread_index()) << 28;
    std::uint32_t serial = 0;
    const auto launch = [&](test::FakeLaunch& one) {
        one.data.correlationId = thread_bits | (++serial & 0x0fffffffU);
        one.run(r.backend);
    };
    measure(state, r, launches, launch, "CUPTI/driver queries");
}
BENCHMARK(BM_cupti_launch_callback)->Arg(1)->Arg(64)->Arg(k_max_kernels);
BENCHMARK(BM_cupti_launch_callback)->Arg(64)->Threads(2);

/// The same launches seen by libirf_entry.so's hooks instead (IRF_FAST_INTERCEPT=1): `before`
/// and `after` through the struct libirf registered, CUPTI's callbacks off. Records never come
/// here, so the launches waiting for theirs fill the bound and the oldest are dropped: the cost
/// of that bookkeeping is in the figure (on a GPU, CUPTI's buffer thread carries most of it).
void BM_cupti_launch_hooked(benchmark::State& state) {
    Rig& r = hooked_rig();
    const IrfEntryHooks* hooks = r.script.entry_hooks;
    if (hooks == nullptr) {
        state.SkipWithError("the hooks were not registered");
        return;
    }
    const auto kernels = static_cast<std::size_t>(state.range(0));
    std::vector<IrfEntryLaunch> launches(kernels);
    for (std::size_t k = 0; k < kernels; ++k) {
        IrfEntryLaunch& one = launches[k];
        one.entry = IRF_ENTRY_LAUNCH_KERNEL;
        one.function = Rig::function_of(k);
        one.stream = reinterpret_cast<void*>(std::uintptr_t{7});
        one.grid[0] = 8;
        one.grid[1] = 2;
        one.grid[2] = 1;
        one.block[0] = 256;
        one.block[1] = 1;
        one.block[2] = 1;
    }
    const auto launch = [hooks](const IrfEntryLaunch& one) {
        hooks->after(&one, hooks->before(&one), CUDA_SUCCESS);
    };
    measure(state, r, launches, launch, "CUPTI/driver queries besides cuCtxGetCurrent");
}
BENCHMARK(BM_cupti_launch_hooked)->Arg(1)->Arg(64)->Arg(k_max_kernels);
BENCHMARK(BM_cupti_launch_hooked)->Arg(64)->Threads(2);

} // namespace
} // namespace bench_cupti_launch
} // namespace irf::intercept::cupti

BENCHMARK_MAIN();

// SPDX-License-Identifier: Apache-2.0
// Test doubles of the sampled path: a sink that records everything, a scripted range profiler
// and platform, and helpers that play one launch's ENTER/EXIT callbacks like CUPTI does.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <cupti_driver_cbid.h>

#include "intercept/cupti/cupti_backend_impl.hpp"
#include "tests/support/cuda_launch_abi.hpp"

namespace irf::intercept::cupti::test {

/// A fake context handle numbered `n` (the fake platform never dereferences it).
inline CUcontext ctx(std::uintptr_t n) {
    return reinterpret_cast<CUcontext>(n);
}

using irf::test::LaunchKernelParams;

/// Records every sink call; answers `profile` for symbols listed in `profiled`.
class RecordingSink final : public LaunchSink {
public:
    explicit RecordingSink(LaunchDecision answer = LaunchDecision::time_only) : m_answer(answer) {}
    LaunchDecision on_launch(const LaunchEvent& event) noexcept override {
        std::lock_guard<std::mutex> lock(mutex);
        launches.push_back(event);
        const std::string name = event.mangled != nullptr ? event.mangled : "";
        names.push_back(name);
        return profiled.count(name) != 0 ? LaunchDecision::profile : m_answer;
    }
    void on_counters(const CounterSample& sample) noexcept override {
        std::lock_guard<std::mutex> lock(mutex);
        samples.push_back(sample);
    }
    void on_duration(const DurationRecord& record) noexcept override {
        std::lock_guard<std::mutex> lock(mutex);
        durations.push_back(record);
    }
    void on_warning(const std::string& message) noexcept override {
        std::lock_guard<std::mutex> lock(mutex);
        warnings.push_back(message);
    }
    void on_discarded_sample(std::uint64_t /*id*/, const char* reason) noexcept override {
        std::lock_guard<std::mutex> lock(mutex);
        discards.emplace_back(reason);
    }
    void on_sample_declined(std::uint64_t /*id*/, const char* reason) noexcept override {
        std::lock_guard<std::mutex> lock(mutex);
        declines.emplace_back(reason != nullptr ? reason : "-");
    }
    void on_profiling_off() noexcept override {
        std::lock_guard<std::mutex> lock(mutex);
        ++profiling_off;
    }
    void on_timing_stopped() noexcept override {
        std::lock_guard<std::mutex> lock(mutex);
        ++timing_stopped;
    }
    void on_timing_resumed() noexcept override {
        std::lock_guard<std::mutex> lock(mutex);
        ++timing_resumed;
    }
    void on_profiler_range(bool started) noexcept override {
        std::lock_guard<std::mutex> lock(mutex);
        profiler_ranges.push_back(started);
    }
    /// True when some warning contains `text`.
    bool warned(const std::string& text) {
        std::lock_guard<std::mutex> lock(mutex);
        for (const auto& w : warnings) {
            if (w.find(text) != std::string::npos) {
                return true;
            }
        }
        return false;
    }
    std::mutex mutex;
    std::map<std::string, int> profiled;
    std::vector<LaunchEvent> launches;
    std::vector<std::string> names;
    std::vector<bool> profiler_ranges; ///< on_profiler_range calls: true = start
    std::vector<CounterSample> samples;
    std::vector<DurationRecord> durations;
    std::vector<std::string> warnings;
    std::vector<std::string> discards;
    std::vector<std::string> declines; ///< reasons of on_sample_declined ("-": none given)
    int profiling_off = 0;
    int timing_stopped = 0;
    int timing_resumed = 0;

private:
    LaunchDecision m_answer;
};

/// What the fake profilers did and will answer; shared by every profiler of one platform.
struct FakeScript {
    std::mutex mutex;
    std::vector<std::string>
        journal; ///< "setup <ctx>", "start <ctx>", "stop <ctx>", "teardown <ctx>"
    RangeReport report{1, 0};
    double value = 3; ///< every metric evaluates to this, but:
    double ctas = 16; ///< sm__ctas_launched.sum (a FakeLaunch's grid is 8 x 2 x 1 = 16 blocks)
    int passes = 2;
    std::vector<std::uint8_t> seen_availability; ///< what the last setup was handed
    std::function<void()> during_setup;          ///< runs inside setup (e.g. another thread's call)
    std::function<void()> during_stop;
    std::function<void()> during_teardown; ///< runs first in a teardown of an enabled profiler
    std::map<CUcontext, ProfilerStatus> setup_failures; ///< setup answers this for the context
    std::vector<std::vector<std::string>> setups;       ///< the metric names of each setup
    std::map<std::string, double> values;               ///< a metric's value instead of `value`
    /// Setup answers this when the metric list holds `failing_metric` (empty: never).
    std::string failing_metric;
    ProfilerStatus metric_failure{ProfilerFailure::other, "metric not available"};
    ProfilerStatus start_status; ///< every start answers this
    bool capturing = false;
    int capturing_queries = 0;             ///< is_capturing calls
    std::atomic<int> stream_id_queries{0}; ///< stream_id calls (the launching threads')
    bool refuse_graph_trace = false;       ///< set_graph_trace answers an error
    std::map<CUcontext, std::uint32_t> devices;
    std::vector<std::thread::id> teardown_threads; ///< the thread of each teardown
    // IRF_FAST_INTERCEPT=1: libirf_entry.so as if preloaded, when `entry_loaded`.
    bool entry_loaded = false;
    const IrfEntryHooks* entry_hooks = nullptr; ///< what the backend registered (null: none)
    bool refuse_hooked_callbacks = false;       ///< set_hooked_callbacks answers false
    CUcontext current = nullptr;                ///< current_context()'s answer
    std::map<CUfunction, std::string> function_names;
    void log(const std::string& what, CUcontext context) {
        std::lock_guard<std::mutex> lock(mutex);
        journal.push_back(what + " " + std::to_string(reinterpret_cast<std::uintptr_t>(context)));
    }
};

/// A RangeProfiler that follows a FakeScript.
class FakeProfiler final : public RangeProfiler {
public:
    explicit FakeProfiler(FakeScript& script) : m_script(script) {}
    ~FakeProfiler() override { teardown(); }
    ProfilerStatus setup(CUcontext context, CUdevice /*device*/, const std::string& /*chip*/,
                         const std::vector<std::string>& metrics,
                         std::vector<std::uint8_t>& availability) noexcept override {
        m_context = context;
        m_metrics = metrics;
        m_script.seen_availability = availability;
        if (availability.empty()) {
            availability = {7, 7, 7}; // read from the "device" once
        }
        m_script.log("setup", context);
        {
            std::lock_guard<std::mutex> lock(m_script.mutex);
            m_script.setups.push_back(metrics);
        }
        if (m_script.during_setup) {
            m_script.during_setup();
        }
        if (!m_script.failing_metric.empty() &&
            std::find(metrics.begin(), metrics.end(), m_script.failing_metric) != metrics.end()) {
            return m_script.metric_failure;
        }
        const auto failure = m_script.setup_failures.find(context);
        if (failure != m_script.setup_failures.end()) {
            return failure->second;
        }
        m_enabled = true;
        return {};
    }
    ProfilerStatus start() noexcept override {
        m_script.log("start", m_context);
        return m_script.start_status;
    }
    ProfilerStatus stop_and_evaluate(std::vector<double>& values,
                                     RangeReport& report) noexcept override {
        m_script.log("stop", m_context);
        if (m_script.during_stop) {
            m_script.during_stop();
        }
        values.assign(m_metrics.size(), m_script.value);
        for (std::size_t i = 0; i < m_metrics.size(); ++i) {
            const auto given = m_script.values.find(m_metrics[i]);
            if (m_metrics[i] == "sm__ctas_launched.sum") {
                values[i] = m_script.ctas;
            } else if (given != m_script.values.end()) {
                values[i] = given->second;
            }
        }
        report = m_script.report;
        return {};
    }
    void teardown() noexcept override {
        if (m_enabled) {
            if (m_script.during_teardown) {
                m_script.during_teardown(); // e.g. a Disable that waits for the context's work
            }
            m_script.log("teardown", m_context);
            std::lock_guard<std::mutex> lock(m_script.mutex);
            m_script.teardown_threads.push_back(std::this_thread::get_id());
            m_enabled = false;
        }
    }
    [[nodiscard]] int passes() const noexcept override { return m_script.passes; }

private:
    FakeScript& m_script;
    CUcontext m_context = nullptr;
    std::vector<std::string> m_metrics;
    bool m_enabled = false;
};

/// A small number per thread (the fake platform's per-thread default stream ids).
inline std::uint32_t thread_number() {
    static std::atomic<std::uint32_t> s_next{1};
    thread_local const std::uint32_t t_number = s_next++;
    return t_number;
}

/// A ProfilerPlatform that follows a FakeScript (chip GH100, so real metric bindings).
class FakePlatform final : public ProfilerPlatform {
public:
    explicit FakePlatform(FakeScript& script) : m_script(script) {}
    ProfilerStatus initialize() noexcept override { return {}; }
    std::string chip(CUdevice /*device*/) noexcept override { return "GH100"; }
    std::unique_ptr<RangeProfiler> make_profiler() override {
        return std::make_unique<FakeProfiler>(m_script);
    }
    bool is_capturing(CUstream /*stream*/, bool /*per_thread*/) noexcept override {
        ++m_script.capturing_queries;
        return m_script.capturing;
    }
    bool stream_id(CUcontext /*context*/, CUstream stream, bool per_thread,
                   std::uint32_t& id) noexcept override {
        ++m_script.stream_id_queries;
        // As CUPTI does: the per-thread default stream is each thread's own stream.
        const auto handle = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(stream));
        const bool own = per_thread && (stream == nullptr || stream == CU_STREAM_PER_THREAD);
        id = own ? 0x10000 + thread_number() : handle;
        return true;
    }
    std::uint32_t device_of(CUcontext context) noexcept override {
        const auto it = m_script.devices.find(context);
        return it != m_script.devices.end() ? it->second : 0;
    }
    bool subscription_alive(void* /*subscriber*/) noexcept override { return true; }
    bool set_graph_trace(bool on, std::string& error) noexcept override {
        if (m_script.refuse_graph_trace) {
            error = "CUPTI_ERROR_NOT_SUPPORTED";
            return false;
        }
        m_script.log(on ? "graph trace on" : "graph trace off", nullptr);
        return true;
    }
    bool register_entry_hooks(const IrfEntryHooks* hooks) noexcept override {
        if (!m_script.entry_loaded) {
            return false;
        }
        m_script.entry_hooks = hooks;
        return true;
    }
    bool set_hooked_callbacks(void* /*subscriber*/, bool on) noexcept override {
        m_script.log(on ? "hooked callbacks on" : "hooked callbacks off", nullptr);
        return !m_script.refuse_hooked_callbacks;
    }
    CUcontext current_context() noexcept override { return m_script.current; }
    const char* function_name(CUfunction function) noexcept override {
        const auto it = m_script.function_names.find(function);
        return it != m_script.function_names.end() ? it->second.c_str() : nullptr;
    }

private:
    FakeScript& m_script;
};

/// The callback data of one cuLaunchKernel; keep it alive from enter() to exit().
struct FakeLaunch {
    LaunchKernelParams params{};
    std::uint64_t scratch = 0;
    CUpti_CallbackData data{};

    FakeLaunch(std::uint32_t correlation_id, const char* symbol, CUcontext context = nullptr,
               std::uintptr_t function = 0x1000) {
        params = {reinterpret_cast<CUfunction>(function),
                  8,
                  2,
                  1,
                  256,
                  1,
                  1,
                  4096,
                  nullptr,
                  nullptr,
                  nullptr};
        std::memset(&data, 0, sizeof data);
        data.functionName = "cuLaunchKernel";
        data.functionParams = &params;
        data.symbolName = symbol;
        data.correlationData = &scratch;
        data.correlationId = correlation_id;
        data.context = context;
    }
    void enter(CuptiBackend& backend) {
        data.callbackSite = CUPTI_API_ENTER;
        backend.on_callback(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
                            &data);
    }
    void exit(CuptiBackend& backend) {
        data.callbackSite = CUPTI_API_EXIT;
        backend.on_callback(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
                            &data);
    }
    void run(CuptiBackend& backend) {
        enter(backend);
        exit(backend);
    }
};

/// The callback data of a driver call that is not a launch (a copy, a capture begin or end);
/// `result` is what its EXIT reports.
struct FakeCall {
    CUpti_CallbackId cbid;
    CUresult result = CUDA_SUCCESS;
    std::uint64_t scratch = 0;
    CUpti_CallbackData data{};

    explicit FakeCall(CUpti_CallbackId id, std::uint32_t correlation_id = 900,
                      CUcontext context = nullptr)
        : cbid(id) {
        std::memset(&data, 0, sizeof data);
        data.correlationData = &scratch;
        data.correlationId = correlation_id;
        data.context = context;
        data.functionReturnValue = &result;
    }
    void enter(CuptiBackend& backend) {
        data.callbackSite = CUPTI_API_ENTER;
        backend.on_callback(CUPTI_CB_DOMAIN_DRIVER_API, cbid, &data);
    }
    void exit(CuptiBackend& backend) {
        data.callbackSite = CUPTI_API_EXIT;
        backend.on_callback(CUPTI_CB_DOMAIN_DRIVER_API, cbid, &data);
    }
    void run(CuptiBackend& backend) {
        enter(backend);
        exit(backend);
    }
};

/// A kernel activity record of launch `correlation_id` that ran from `start_ns` to `end_ns`.
inline KernelActivity kernel_record(std::uint64_t correlation_id, std::uint64_t start_ns,
                                    std::uint64_t end_ns) {
    KernelActivity r;
    r.correlation_id = correlation_id;
    r.start_ns = start_ns;
    r.end_ns = end_ns;
    return r;
}

/// `seam` whose idle profilers are never released within a test (irf's release thread would
/// otherwise tear a profiler down in a slow run, sanitizers included), unless a test says so.
inline SamplingSeam quiet_seam(SamplingSeam seam) {
    seam.idle_release = std::chrono::hours(1);
    return seam;
}

/// A backend on the fake platform with short waits; `_Z1pv` is always chosen for profiling.
struct SeamRig {
    FakeScript script;
    RecordingSink sink;
    CuptiBackend backend{CuptiOptions{}};
    explicit SeamRig(std::chrono::milliseconds wait = std::chrono::milliseconds(2000),
                     std::chrono::milliseconds budget = std::chrono::seconds(60),
                     std::uint64_t timing_check = k_timing_check) {
        backend.set_sampling_seam_for_test(
            quiet_seam({std::make_unique<FakePlatform>(script), wait, budget, timing_check}));
        backend.attach_sink_for_test(sink);
        sink.profiled["_Z1pv"] = 1;
    }
    /// How many times the fake platform's journal holds `entry`.
    [[nodiscard]] long count(const std::string& entry) const {
        return std::count(script.journal.begin(), script.journal.end(), entry);
    }
};

} // namespace irf::intercept::cupti::test

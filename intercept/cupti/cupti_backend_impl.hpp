// SPDX-License-Identifier: Apache-2.0
// The CUPTI backend's class (internal to intercept/cupti): callbacks, profilers, activity.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <cuda.h>
#include <cupti.h>

#include "config/metric_sets.hpp"
#include "intercept/cupti/activity.hpp"
#include "intercept/cupti/cupti_backend.hpp"
#include "intercept/cupti/driver_api.hpp"
#include "intercept/cupti/launch_params.hpp"
#include "intercept/cupti/range_profiler.hpp"

namespace irf::intercept::cupti {

/// Per-context ids cached per thread (CUPTI getters are not free); invalidated by an epoch
/// bumped at every context destruction, since context addresses can be reused.
struct ContextIds {
    CUcontext context = nullptr;
    std::uint64_t epoch = 0;
    std::uint32_t context_id = 0;
    std::uint32_t device = 0;
};

/// Longest wait for the sample lock before a launch goes on without it.
constexpr std::chrono::seconds k_lock_wait{10};

/// Bits kept in CUpti_CallbackData::correlationData between a launch's ENTER and EXIT.
enum LaunchFlags : std::uint64_t {
    k_holds_shared = 1,    ///< this launch holds the sample lock shared
    k_holds_exclusive = 2, ///< this launch is being profiled (sample lock exclusive)
    k_started = 4,         ///< the range profiler was started at ENTER
};

/// One context's profiler and the metrics it collects.
struct ContextSession {
    std::unique_ptr<ContextProfiler> profiler;
    std::vector<config::MetricBinding> bindings;
    std::vector<std::string> metrics;
};

/// The Backend on CUPTI (see cupti_backend.hpp and docs/cupti-notes.md).
class CuptiBackend final : public Backend {
public:
    explicit CuptiBackend(const CuptiOptions& options) : m_options(options) {}
    CuptiBackend(const CuptiBackend&) = delete;
    CuptiBackend& operator=(const CuptiBackend&) = delete;
    ~CuptiBackend() override { stop(); }

    [[nodiscard]] bool start(LaunchSink& sink) noexcept override;
    void flush() noexcept override;
    void stop() noexcept override;
    [[nodiscard]] model::GpuInfo gpu_info() const noexcept override;
    [[nodiscard]] int passes() const noexcept override { return m_passes.load(); }
    [[nodiscard]] std::string name() const override { return "cupti"; }

    /// Test seam: attaches `sink` without subscribing, so tests can drive on_callback and
    /// on_kernel_record directly on a machine without a GPU.
    void attach_sink_for_test(LaunchSink& sink) noexcept {
        std::unique_lock<std::shared_mutex> lock(m_lifecycle);
        m_sink = &sink;
    }

    /// Entry point of every CUPTI callback (the C trampoline forwards here).
    void on_callback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) noexcept;
    /// Entry point of every decoded kernel activity record.
    void on_kernel_record(const KernelActivity& record) noexcept;

private:
    // cupti_backend.cpp: lifecycle, resources, warnings.
    bool subscribe() noexcept;
    bool enable_callbacks() noexcept;
    void on_resource(CUpti_CallbackId cbid, const CUpti_ResourceData& data) noexcept;
    void on_fatal(const CUpti_StateData& data) noexcept;
    void warn(const std::string& message) noexcept;
    void warn_once(const std::string& key, const std::string& message) noexcept;
    void disable_profiling(const std::string& reason) noexcept;
    template <class Fn> void with_sink(Fn&& fn) noexcept;

    // launch_callbacks.cpp: the launch path.
    void on_launch_enter(CUpti_CallbackId cbid, const CUpti_CallbackData& data) noexcept;
    void on_launch_exit(const CUpti_CallbackData& data) noexcept;
    void hold_shared(const CUpti_CallbackData& data) noexcept;
    bool begin_sample(const CUpti_CallbackData& data, std::uint32_t device) noexcept;
    void end_sample(const CUpti_CallbackData& data) noexcept;
    ContextIds context_ids(CUcontext context) noexcept;
    FunctionAttributes attributes(CUfunction function, CUdevice device) noexcept;
    ContextSession* session_for(CUcontext context, std::uint32_t device) noexcept;
    ProfilerStatus setup_session(ContextSession& session, CUcontext context, std::uint32_t device);
    bool first_duration(std::uint64_t correlation_id) noexcept;

    CuptiOptions m_options;

    // Sink access: shared by every sink call, exclusive in stop() which clears m_sink.
    mutable std::shared_mutex m_lifecycle;
    LaunchSink* m_sink = nullptr;
    CUpti_SubscriberHandle m_subscriber = nullptr;
    std::atomic<bool> m_running{false};
    std::atomic<bool> m_cupti_failed{false}; ///< fatal error: no CUPTI call any more

    // Sample exclusion: every launch holds it shared from ENTER to EXIT, a profiled launch
    // exclusive, so no other launch lands inside its Start/Stop window (cupti.md 3.3).
    std::shared_timed_mutex m_sample_lock;
    std::atomic<bool> m_profiling{true};

    mutable std::mutex m_state;                     // guards everything below
    std::map<CUcontext, ContextSession> m_sessions; ///< a null profiler: setup failed
    std::set<std::string> m_warned;
    model::GpuInfo m_gpu;
    bool m_have_gpu = false;
    std::unordered_set<std::uint64_t> m_profiled_ids; ///< correlation ids of profiled launches
    std::unordered_set<std::uint64_t> m_timed_profiled_ids;

    std::shared_mutex m_attribute_lock;
    std::unordered_map<CUfunction, FunctionAttributes> m_attributes;

    std::atomic<int> m_passes{0};
    std::atomic<std::uint64_t> m_context_epoch{1};
    std::atomic<std::uint64_t> m_graph_launches{0};
    std::atomic<std::uint64_t> m_next_graph_id{std::uint64_t{1} << 32}; ///< beyond 32-bit ids
};

template <class Fn> void CuptiBackend::with_sink(Fn&& fn) noexcept {
    std::shared_lock<std::shared_mutex> lock(m_lifecycle);
    if (m_sink != nullptr) {
        fn(*m_sink);
    }
}

} // namespace irf::intercept::cupti

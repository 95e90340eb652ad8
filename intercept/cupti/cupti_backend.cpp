// SPDX-License-Identifier: Apache-2.0
// CUPTI backend lifecycle: subscribe, enable callbacks and activity, resources, stop.
#include <cstring>
#include <new>

#include <cupti_driver_cbid.h>

#include "intercept/cupti/cupti_backend_impl.hpp"
#include "intercept/cupti/cupti_errors.hpp"

namespace irf::intercept {

std::unique_ptr<Backend> make_cupti_backend(const CuptiOptions& options) {
    return std::make_unique<cupti::CuptiBackend>(options);
}

namespace cupti {
namespace {

// CUPTI's C callback; nothing may escape it.
void CUPTIAPI cupti_callback(void* user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                             const void* data) noexcept {
    if (user != nullptr && data != nullptr) {
        static_cast<CuptiBackend*>(user)->on_callback(domain, cbid, data);
    }
}

void kernel_record(void* user, const KernelActivity& record) noexcept {
    static_cast<CuptiBackend*>(user)->on_kernel_record(record);
}

std::string refused_line(CUptiResult r, const char* holder) {
    if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
        std::string who = holder != nullptr && holder[0] != '\0' ? holder : "";
        return "another profiler owns CUPTI" + (who.empty() ? std::string() : " (" + who + ")") +
               " (e.g. Nsight Compute, Nsight Systems, a framework profiler); irf steps aside: "
               "no counters and no timing in this process";
    }
    const bool no_driver = r == CUPTI_ERROR_UNKNOWN || r == CUPTI_ERROR_NOT_INITIALIZED;
    return "CUPTI is unavailable (" + error_text(r) +
           (no_driver ? "; no usable NVIDIA driver? CUDA 13 needs R580 or newer" : "") +
           "); irf records nothing in this process";
}

} // namespace

void CuptiBackend::attach_sink(LaunchSink& sink) noexcept {
    // Before any callback is enabled (start) or delivered (tests): nothing holds it yet.
    const bool locked = m_lifecycle.lock_for(k_stop_wait);
    m_pass_sink.attach(&sink, &m_launches_seen);
    m_sink = &m_pass_sink;
    if (locked) {
        m_lifecycle.unlock();
    }
}

bool CuptiBackend::start(LaunchSink& sink) noexcept {
    try {
        attach_sink(sink);
        if (!subscribe() || !enable_callbacks()) {
            stop();
            return false;
        }
        std::string error;
        if (!activity_start(kernel_record, this, error)) {
            m_activity_failed = true;
            warn("kernel timing disabled: " + error);
        }
        m_running = true;
        start_fast_intercept();
        return true;
    } catch (...) {
        stop();
        return false;
    }
}

bool CuptiBackend::subscribe() noexcept {
    std::array<char, 2 * CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN> holder{};
    auto params = make_params<CUpti_SubscriberParams>(CUpti_SubscriberParams_STRUCT_SIZE);
    params.subscriberName = "irf";
    params.oldSubscriberName = holder.data();
    params.oldSubscriberSize = holder.size();
    const CUptiResult r = cuptiSubscribe_v2(&m_subscriber, cupti_callback, this, &params);
    if (r != CUPTI_SUCCESS) {
        m_subscriber = nullptr;
        holder.back() = '\0';
        warn(refused_line(r, holder.data()));
        return false;
    }
    return true;
}

bool CuptiBackend::enable_callbacks() noexcept {
    auto enable = [this](CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
        const CUptiResult r = cuptiEnableCallback(1, m_subscriber, domain, cbid);
        return r == CUPTI_SUCCESS ? std::string() : call_error("cuptiEnableCallback", r);
    };
    // cuLaunchKernel(Ex) and their _ptsz twins carry every runtime launch: without them irf
    // sees nothing. The legacy and cooperative ones are optional (docs/cupti-notes.md).
    for (const CUpti_CallbackId cbid : launch_cbids()) {
        const std::string error = enable(CUPTI_CB_DOMAIN_DRIVER_API, cbid);
        if (!error.empty() && is_required_launch_cbid(cbid)) {
            warn("CUPTI refused a launch callback (" + error + "); irf records nothing");
            return false;
        }
        if (!error.empty()) {
            warn_once("optional-cbid", "CUPTI refused an optional launch callback (" + error +
                                           "); launches through that API are not seen");
        }
    }
    // Without context callbacks a profiler could outlive its context: time only.
    std::string error;
    for (const CUpti_CallbackId cbid :
         {CUPTI_CBID_RESOURCE_CONTEXT_CREATED, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING}) {
        if (error.empty()) {
            error = enable(CUPTI_CB_DOMAIN_RESOURCE, cbid);
        }
    }
    if (!error.empty()) {
        disable_profiling("no context callbacks (" + error + ")");
    }
    // Best effort: activity flushes before teardown, and CUPTI's fatal-error notice.
    for (const CUpti_CallbackId cbid : teardown_cbids()) {
        static_cast<void>(enable(CUPTI_CB_DOMAIN_DRIVER_API, cbid));
    }
    static_cast<void>(enable(CUPTI_CB_DOMAIN_STATE, CUPTI_CBID_STATE_FATAL_ERROR));
    for (const auto& [domain, cbid] : profiler_range_cbids(m_options.profiler_api_callbacks)) {
        if (!enable(domain, cbid).empty()) {
            warn_once("profiler-api", "CUPTI refused the cudaProfilerStart/Stop callbacks; "
                                      "IRF_CAPTURE_RANGE=cudaProfilerApi profiles nothing");
        }
    }
    static_cast<void>(enable(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING));
    // Launches keep their streams' ids only while a destroyed stream's handle cannot keep one.
    m_stream_destroys_seen =
        enable(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING).empty();
    enable_guarded_callbacks();
    if (m_graph_replays) {
        // Best effort: without them a graph changed in place keeps its old nodes' estimate.
        for (const CUpti_CallbackId cbid : graph_exec_change_cbids()) {
            static_cast<void>(enable(CUPTI_CB_DOMAIN_DRIVER_API, cbid));
        }
    }
    return true;
}

void CuptiBackend::enable_guarded_callbacks() noexcept {
    // Without them a copy could land inside a sample's replay, or a sample inside a capture:
    // counters are then not worth the application's data (docs/cupti-notes.md).
    try {
        // Captures are tracked whatever the sampling (a captured launch is not a launch); copies,
        // sets and host functions only while a sample can start (issue 55 item 2).
        for (const CUpti_CallbackId cbid : guarded_cbids(m_options.samples)) {
            const CUptiResult r =
                cuptiEnableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid);
            if (r != CUPTI_SUCCESS) {
                disable_profiling("no callbacks for copies and stream captures (" +
                                  call_error("cuptiEnableCallback", r) + ")");
                return;
            }
        }
    } catch (...) {
        disable_profiling("out of memory enabling callbacks");
    }
}

void CuptiBackend::flush() noexcept {
    if (m_running && !m_cupti_failed) {
        activity_flush(true);
    }
    warn_unknown_graph_replays();
    const std::uint64_t dropped = activity_dropped();
    if (dropped > 0) {
        warn_once("dropped", std::to_string(dropped) +
                                 " kernel activity records were dropped (no buffer); durations "
                                 "are incomplete");
    }
    warn_lost_activity();
    warn_fast_intercept();
    with_sink([this](LaunchSink&) { m_pass_sink.close_all(); }); // no launch completes them now
    const std::uint64_t graphs = m_graph_launches.load();
    if (graphs > 0) {
        warn_once("graphs", std::to_string(graphs) +
                                " CUDA graph launches: kernels inside graphs are timed only");
    }
}

void CuptiBackend::seal() noexcept {
    m_stopping.store(true, std::memory_order_release); // no sink call begins from here
    try {
        // Bounded: a thread that a fatal signal stopped inside a sink call never leaves it, and
        // the finalizer that called this must not wait for it (docs/reliability.md, signals).
        if (m_lifecycle.lock_for(k_stop_wait)) {
            m_sink = nullptr;
            m_lifecycle.unlock();
        }
    } catch (...) {
    }
}

void CuptiBackend::stop() noexcept {
    m_stopping.store(true, std::memory_order_release); // no sink call begins from here
    stop_fast_intercept();                             // the hooks pass launches through from here
    stop_release_thread(); // first: it makes CUPTI calls, and none may follow the unsubscribe
    seal();
    const bool was_running = m_running.exchange(false);
    if (was_running && !m_cupti_failed) {
        activity_stop();
    }
    if (m_subscriber != nullptr && !m_cupti_failed) {
        // Profilers of live contexts are left to context destruction: at exit the driver may
        // already be gone, and cuptiFinalize at exit is known to crash (docs/cupti-notes.md F2).
        static_cast<void>(cuptiUnsubscribe(m_subscriber));
    }
    m_subscriber = nullptr;
}

model::GpuInfo CuptiBackend::gpu_info() const noexcept {
    try {
        std::lock_guard<std::mutex> lock(m_state);
        return m_gpu;
    } catch (...) {
        return {};
    }
}

void CuptiBackend::on_callback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                               const void* data) noexcept {
    try {
        if (m_cupti_failed || m_detached) {
            return;
        }
        // Only IRF_CAPTURE_RANGE=cudaProfilerApi enables these callbacks: no scan on a launch
        // otherwise.
        if (const int change =
                m_options.profiler_api_callbacks ? profiler_range_change(domain, cbid) : -1;
            change >= 0) {
            // At entry: a stop takes effect before the launches that follow it return.
            if (static_cast<const CUpti_CallbackData*>(data)->callbackSite == CUPTI_API_ENTER) {
                with_sink([change](LaunchSink& sink) { sink.on_profiler_range(change == 1); });
            }
        } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
            on_driver_call(cbid, *static_cast<const CUpti_CallbackData*>(data));
        } else if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
            on_resource(cbid, *static_cast<const CUpti_ResourceData*>(data));
        } else if (domain == CUPTI_CB_DOMAIN_STATE && cbid == CUPTI_CBID_STATE_FATAL_ERROR) {
            on_fatal(*static_cast<const CUpti_StateData*>(data));
        }
    } catch (...) {
        // Never let anything unwind into the driver.
    }
}

void CuptiBackend::on_driver_call(CUpti_CallbackId cbid, const CUpti_CallbackData& cb) noexcept {
    if (ignored_inside_sample(cb)) {
        return;
    }
    const bool enter = cb.callbackSite == CUPTI_API_ENTER;
    if (!is_launch_cbid(cbid)) { // launches first: the hot path
        if (m_graph_replays && changed_graph_exec(cbid, cb.functionParams)) {
            on_graph_exec_change(cbid, cb);
        } else if (const GuardedCall kind = guarded_call(cbid); kind != GuardedCall::none) {
            on_guarded_call(kind, cbid, cb);
        } else if (enter && m_running) {
            // A teardown cbid: deliver records while the context is alive (cupti-notes.md F1).
            activity_flush(false);
        }
    } else if (!enter) {
        on_launch_exit(cb);
    } else if (const auto decoded = decode_launch(cbid, cb.functionParams)) {
        on_launch_enter(*decoded, cb); // the one decode of this launch
    } else if (cb.correlationData != nullptr) {
        *cb.correlationData = 0;
    }
}

void CuptiBackend::on_resource(CUpti_CallbackId cbid, const CUpti_ResourceData& data) noexcept {
    if (cbid == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {
        on_module_unload();
        return;
    }
    if (cbid == CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING) {
        on_stream_destroy();
        return;
    }
    const std::uint32_t device = m_platform->device_of(data.context);
    if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
        {
            std::lock_guard<std::mutex> lock(m_state);
            if (m_have_gpu) {
                return;
            }
        }
        // Driver queries outside m_state (the activity thread takes it).
        model::GpuInfo gpu = device_info(static_cast<CUdevice>(device));
        gpu.chip = m_platform->chip(static_cast<CUdevice>(device));
        std::lock_guard<std::mutex> lock(m_state);
        if (!m_have_gpu) {
            m_gpu = std::move(gpu);
            m_have_gpu = true;
        }
    } else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
        on_context_destroy(data.context, device);
    }
}

void CuptiBackend::on_context_destroy(CUcontext context, std::uint32_t device) noexcept {
    // Finish this context's profiler while it is alive: CUDA's teardown runs before atexit.
    SampleLock& sample = m_sample_locks[device % k_lock_slots];
    const bool locked = sample.lock_for(m_lock_wait);
    std::unique_ptr<RangeProfiler> retired;
    {
        std::lock_guard<std::mutex> lock(m_state);
        const auto it = m_sessions.find(context);
        if (it != m_sessions.end()) {
            if (locked) {
                retired = std::move(it->second.profiler);
                m_sessions.erase(it);
            } else {
                // A sample of this context may still be using the session: freeing it would be
                // a use after free. It is unhooked and left alive on purpose (a few kilobytes);
                // out of memory, it stays where it is, untouched.
                using Node = decltype(m_sessions)::node_type;
                if (auto* kept = new (std::nothrow) Node()) {
                    *kept = m_sessions.extract(it);
                }
            }
        }
        const auto enabled = m_enabled.find(device);
        if (enabled != m_enabled.end() && enabled->second == context) {
            m_enabled.erase(enabled);
        }
        ++m_context_epoch;
    }
    retired.reset(); // stops and disables it, outside m_state
    if (locked) {
        sample.unlock();
    } else {
        warn_once("destroy-during-sample",
                  "a CUDA context was destroyed while one of its launches was being sampled; "
                  "its range profiler was left alone (leaked) rather than freed under the sample");
    }
}

void CuptiBackend::on_fatal(const CUpti_StateData& data) noexcept {
    m_cupti_failed = true;
    const char* message = data.notification.message;
    warn("CUPTI reported a fatal error (" + error_text(data.notification.result) +
         (message != nullptr ? std::string(": ") + message : std::string()) +
         "); irf stops collecting");
}

void CuptiBackend::warn(const std::string& message) noexcept {
    with_sink([&message](LaunchSink& sink) { sink.on_warning(message); });
}

void CuptiBackend::warn_once(const std::string& key, const std::string& message) noexcept {
    try {
        {
            std::lock_guard<std::mutex> lock(m_state);
            if (!m_warned.insert(key).second) {
                return;
            }
        }
        warn(message);
    } catch (...) {
    }
}

void CuptiBackend::disable_profiling(const std::string& reason) noexcept {
    if (m_profiling.exchange(false)) {
        warn("hardware counters disabled: " + reason + "; kernels are timed only");
        with_sink([](LaunchSink& sink) { sink.on_profiling_off(); }); // no more choices
    }
}

} // namespace cupti
} // namespace irf::intercept

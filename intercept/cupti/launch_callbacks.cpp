// SPDX-License-Identifier: Apache-2.0
// CUPTI backend launch path: build the LaunchEvent, ask the sink, profile one launch per range.
#include <algorithm>

#include "intercept/cupti/counter_map.hpp"
#include "intercept/cupti/cupti_backend_impl.hpp"

namespace irf::intercept::cupti {
namespace {

thread_local ContextIds t_context_ids;

bool is_profiler_fatal(ProfilerFailure failure) {
    return failure == ProfilerFailure::permission || failure == ProfilerFailure::unsupported;
}

} // namespace

ContextIds CuptiBackend::context_ids(CUcontext context) noexcept {
    const std::uint64_t epoch = m_context_epoch.load(std::memory_order_relaxed);
    if (t_context_ids.context != context || t_context_ids.epoch != epoch) {
        ContextIds ids;
        ids.context = context;
        ids.epoch = epoch;
        static_cast<void>(cuptiGetContextId(context, &ids.context_id));
        static_cast<void>(cuptiGetDeviceId(context, &ids.device));
        t_context_ids = ids;
    }
    return t_context_ids;
}

FunctionAttributes CuptiBackend::attributes(CUfunction function, CUdevice device) noexcept {
    {
        std::shared_lock<std::shared_mutex> lock(m_attribute_lock);
        const auto it = m_attributes.find(function);
        if (it != m_attributes.end()) {
            return it->second;
        }
    }
    // First launch of this handle: two driver queries, then cached for the process.
    const FunctionAttributes found = function_attributes(function, device);
    try {
        std::unique_lock<std::shared_mutex> lock(m_attribute_lock);
        m_attributes.emplace(function, found);
    } catch (...) {
    }
    return found;
}

void CuptiBackend::on_launch_enter(CUpti_CallbackId cbid, const CUpti_CallbackData& data) noexcept {
    const auto decoded = decode_launch(cbid, data.functionParams);
    if (data.correlationData != nullptr) {
        *data.correlationData = 0;
    }
    if (!decoded) {
        return;
    }
    if (decoded->kind == LaunchKind::graph) {
        ++m_graph_launches; // graph kernels are reported from their activity records
        hold_shared(data);
        return;
    }
    const ContextIds ids = context_ids(data.context);
    LaunchEvent event;
    event.function = decoded->function;
    event.mangled = data.symbolName;
    event.launch = decoded->config;
    const FunctionAttributes attrs =
        attributes(decoded->function, static_cast<CUdevice>(ids.device));
    event.launch.regs = attrs.regs;
    event.launch.smem_bytes += attrs.static_smem;
    event.device = ids.device;
    event.context = ids.context_id;
    std::uint32_t stream = 0;
    if (cuptiGetStreamIdEx(data.context, decoded->stream, decoded->per_thread_stream ? 1 : 0,
                           &stream) == CUPTI_SUCCESS) {
        event.stream = stream;
    }
    event.correlation_id = data.correlationId;
    LaunchDecision decision = LaunchDecision::time_only;
    with_sink([&](LaunchSink& sink) { decision = sink.on_launch(event); });
    const bool profile = decision == LaunchDecision::profile &&
                         decoded->kind == LaunchKind::kernel && m_profiling.load();
    if (profile && begin_sample(data, ids.device)) {
        return;
    }
    hold_shared(data);
}

void CuptiBackend::hold_shared(const CUpti_CallbackData& data) noexcept {
    // Bounded wait: if the driver ever blocks a sample's Stop/Decode on this thread (open
    // question 4), the launch goes on unprotected after k_lock_wait instead of hanging.
    if (data.correlationData != nullptr && m_sample_lock.try_lock_shared_for(k_lock_wait)) {
        *data.correlationData = k_holds_shared;
    }
}

bool CuptiBackend::begin_sample(const CUpti_CallbackData& data, std::uint32_t device) noexcept {
    if (data.correlationData == nullptr) {
        return false;
    }
    // Waits until other threads' launches are submitted; if that takes too long the launch is
    // timed only (the sink's sample is lost, with one warning).
    if (!m_sample_lock.try_lock_for(k_lock_wait)) {
        warn_once("lock", "a sampled launch waited too long for other threads' launches and "
                          "was timed only");
        return false;
    }
    *data.correlationData = k_holds_exclusive;
    ContextSession* session = session_for(data.context, device);
    if (session == nullptr || !session->profiler) {
        return true; // timed only; the lock is released at EXIT
    }
    const ProfilerStatus status = session->profiler->start();
    if (status.ok()) {
        *data.correlationData |= k_started;
        try {
            std::lock_guard<std::mutex> lock(m_state);
            m_profiled_ids.insert(data.correlationId);
        } catch (...) {
        }
    } else if (is_profiler_fatal(status.failure)) {
        disable_profiling(status.error);
    } else {
        warn("a sampled launch was not profiled: " + status.error);
    }
    return true;
}

void CuptiBackend::on_launch_exit(const CUpti_CallbackData& data) noexcept {
    if (data.correlationData == nullptr) {
        return;
    }
    const std::uint64_t flags = *data.correlationData;
    if ((flags & k_holds_shared) != 0) {
        m_sample_lock.unlock_shared();
    } else if ((flags & k_holds_exclusive) != 0) {
        if ((flags & k_started) != 0) {
            end_sample(data);
        }
        m_sample_lock.unlock();
    }
    *data.correlationData = 0;
}

void CuptiBackend::end_sample(const CUpti_CallbackData& data) noexcept {
    ContextSession* session = nullptr;
    {
        std::lock_guard<std::mutex> lock(m_state);
        const auto it = m_sessions.find(data.context);
        session = it != m_sessions.end() ? &it->second : nullptr;
    }
    if (session == nullptr || !session->profiler) {
        return;
    }
    std::vector<double> values;
    const ProfilerStatus status = session->profiler->stop_and_evaluate(values);
    if (!status.ok()) {
        if (is_profiler_fatal(status.failure)) {
            disable_profiling(status.error);
        } else {
            warn("counters of a sampled launch were lost: " + status.error);
        }
        return;
    }
    try {
        CounterSample sample;
        sample.correlation_id = data.correlationId;
        sample.counters = to_counters(session->bindings, session->metrics, values);
        sample.passes = session->profiler->passes();
        m_passes = std::max(m_passes.load(), sample.passes);
        with_sink([&sample](LaunchSink& sink) { sink.on_counters(sample); });
    } catch (...) {
        warn("counters of a sampled launch were lost: out of memory");
    }
}

ContextSession* CuptiBackend::session_for(CUcontext context, std::uint32_t device) noexcept {
    ContextSession* session = nullptr;
    ProfilerStatus status;
    try {
        std::lock_guard<std::mutex> lock(m_state);
        const auto it = m_sessions.find(context);
        if (it != m_sessions.end()) {
            return &it->second;
        }
        session = &m_sessions[context]; // a failed setup stays profiler-less
        status = setup_session(*session, context, device);
    } catch (...) {
        return nullptr;
    }
    // Warnings go through the sink, never under m_state.
    if (is_profiler_fatal(status.failure)) {
        disable_profiling(status.error);
    } else if (!status.ok()) {
        warn("hardware counters unavailable on one context: " + status.error);
    }
    return session;
}

ProfilerStatus CuptiBackend::setup_session(ContextSession& session, CUcontext context,
                                           std::uint32_t device) {
    ProfilerStatus status = initialize_profiler();
    if (!status.ok()) {
        // Process-wide: no context can profile, so stop asking (one warning, not one per context).
        status.failure = ProfilerFailure::unsupported;
        return status;
    }
    const std::string chip = chip_name(static_cast<CUdevice>(device));
    const auto family = config::chip_family(chip);
    if (!family) {
        return {ProfilerFailure::unsupported, "irf has no metric map for chip '" + chip + "'"};
    }
    session.bindings = config::metric_bindings(*family, m_options.collect_pipe_mix,
                                               m_options.collect_tensor_types);
    session.metrics = config::metric_names(session.bindings);
    auto profiler = std::make_unique<ContextProfiler>();
    status = profiler->setup(context, static_cast<CUdevice>(device), chip, session.metrics);
    if (status.ok()) {
        session.profiler = std::move(profiler);
    }
    return status;
}

bool CuptiBackend::first_duration(std::uint64_t correlation_id) noexcept {
    try {
        std::lock_guard<std::mutex> lock(m_state);
        if (m_profiled_ids.count(correlation_id) == 0) {
            return true;
        }
        // Kernel replay may emit one record per pass (open question 3): keep the first.
        return m_timed_profiled_ids.insert(correlation_id).second;
    } catch (...) {
        return true;
    }
}

void CuptiBackend::on_kernel_record(const KernelActivity& record) noexcept {
    if (record.device_launched) {
        return; // device-side launches have no host launch to match
    }
    std::uint64_t correlation_id = record.correlation_id;
    if (record.graph_id != 0) {
        // Graph nodes have no launch callback: report each as a timed-only launch of its own.
        correlation_id = m_next_graph_id++;
        LaunchEvent event;
        event.function = record.name; // CUPTI shares one name string per kernel
        event.mangled = record.name;
        event.launch = record.launch;
        event.device = record.device;
        event.context = record.context;
        event.stream = record.stream;
        event.correlation_id = correlation_id;
        event.graph = true;
        with_sink([&event](LaunchSink& sink) { static_cast<void>(sink.on_launch(event)); });
    } else if (correlation_id == 0 || !first_duration(correlation_id)) {
        return;
    }
    const DurationRecord duration{correlation_id, record.start_ns, record.end_ns};
    with_sink([&duration](LaunchSink& sink) { sink.on_duration(duration); });
}

} // namespace irf::intercept::cupti

// SPDX-License-Identifier: Apache-2.0
// CUPTI backend launch path: build the LaunchEvent, ask the sink, profile one launch per range.
#include <algorithm>

#include "intercept/cupti/counter_map.hpp"
#include "intercept/cupti/cupti_backend_impl.hpp"

namespace irf::intercept::cupti {
namespace {

thread_local ContextIds t_context_ids;

/// The sample this thread has open between its launch's ENTER and EXIT (one at a time: a
/// thread is inside one launch call).
struct OpenSample {
    std::uint64_t breaches = 0; ///< the slot's breach count at ENTER
    std::uint64_t grid_ctas = 0;
    CUfunction function = nullptr;
    std::chrono::steady_clock::time_point started;
};
thread_local OpenSample t_open_sample;

std::size_t slot_of(std::uint32_t device) noexcept {
    return device % k_lock_slots;
}

std::size_t slot_of_flags(std::uint64_t flags) noexcept {
    return static_cast<std::size_t>(flags >> k_slot_shift) % k_lock_slots;
}

} // namespace

ContextIds CuptiBackend::context_ids(CUcontext context) noexcept {
    const std::uint64_t epoch = m_context_epoch.load(std::memory_order_relaxed);
    if (t_context_ids.context != context || t_context_ids.epoch != epoch) {
        ContextIds ids;
        ids.context = context;
        ids.epoch = epoch;
        static_cast<void>(cuptiGetContextId(context, &ids.context_id));
        ids.device = m_platform->device_of(context);
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
    // First launch of this handle (since the last module unload): two driver queries, cached.
    const FunctionAttributes found = function_attributes(function, device);
    try {
        std::unique_lock<std::shared_mutex> lock(m_attribute_lock);
        m_attributes.emplace(function, found);
    } catch (...) {
    }
    return found;
}

bool CuptiBackend::over_budget(CUfunction function) noexcept {
    std::shared_lock<std::shared_mutex> lock(m_attribute_lock);
    return m_over_budget.count(function) != 0;
}

void CuptiBackend::on_module_unload() noexcept {
    // A later module may put a new kernel at a freed CUfunction address (issue 17 item 5).
    std::unique_lock<std::shared_mutex> lock(m_attribute_lock);
    m_attributes.clear();
    m_over_budget.clear();
    ++m_module_epoch;
}

LaunchEvent CuptiBackend::make_event(const DecodedLaunch& decoded, const CUpti_CallbackData& data,
                                     const ContextIds& ids) noexcept {
    LaunchEvent event;
    event.function = decoded.function;
    event.mangled = data.symbolName;
    event.launch = decoded.config;
    const FunctionAttributes attrs =
        attributes(decoded.function, static_cast<CUdevice>(ids.device));
    event.launch.regs = attrs.regs;
    event.launch.smem_bytes += attrs.static_smem;
    event.device = ids.device;
    event.context = ids.context_id;
    std::uint32_t stream = 0;
    if (cuptiGetStreamIdEx(data.context, decoded.stream, decoded.per_thread_stream ? 1 : 0,
                           &stream) == CUPTI_SUCCESS) {
        event.stream = stream;
    }
    event.correlation_id = data.correlationId;
    event.module_epoch = m_module_epoch.load(std::memory_order_relaxed);
    return event;
}

void CuptiBackend::on_launch_enter(const DecodedLaunch& decoded,
                                   const CUpti_CallbackData& data) noexcept {
    if (data.correlationData != nullptr) {
        *data.correlationData = 0;
    }
    const ContextIds ids = context_ids(data.context);
    if (decoded.kind == LaunchKind::graph) {
        ++m_graph_launches; // graph kernels are reported from their activity records
        remember_graph_region(data.correlationId);
        hold_shared(data, slot_of(ids.device));
        return;
    }
    if (m_platform->is_capturing(decoded.stream, decoded.per_thread_stream)) {
        return; // recorded into a graph, not run now: neither a launch nor a sample
    }
    ++m_launches_seen;
    const LaunchEvent event = make_event(decoded, data, ids);
    LaunchDecision decision = LaunchDecision::time_only;
    with_sink([&](LaunchSink& sink) { decision = sink.on_launch(event); });
    if (decision == LaunchDecision::profile && decoded.kind == LaunchKind::kernel &&
        m_profiling.load()) {
        const Begin begun = begin_sample(data, decoded, ids.device);
        if (begun == Begin::sampling) {
            return;
        }
        if (begun == Begin::timed_out) {
            // No second wait: the launch goes on unprotected, and any open window knows it.
            ++m_breaches[slot_of(ids.device)];
            return;
        }
    }
    hold_shared(data, slot_of(ids.device));
}

void CuptiBackend::hold_shared(const CUpti_CallbackData& data, std::size_t slot) noexcept {
    // Bounded wait: if the driver ever blocks a sample's Stop/Decode on this thread (open
    // question 4), the launch goes on unprotected after the wait instead of hanging.
    if (data.correlationData == nullptr) {
        return;
    }
    if (m_sample_locks[slot].try_lock_shared_for(m_lock_wait)) {
        *data.correlationData = k_holds_shared | (std::uint64_t{slot} << k_slot_shift);
    } else {
        ++m_breaches[slot];
    }
}

CuptiBackend::Begin CuptiBackend::begin_sample(const CUpti_CallbackData& data,
                                               const DecodedLaunch& decoded,
                                               std::uint32_t device) noexcept {
    if (data.correlationData == nullptr) {
        return Begin::declined;
    }
    if (over_budget(decoded.function)) {
        discard(data.correlationId, k_discard_budget);
        return Begin::declined;
    }
    const std::size_t slot = slot_of(device);
    // Waits until other threads' launches on this device are submitted; if that takes too
    // long the launch is timed only (the sample is discarded, with one warning).
    if (!m_sample_locks[slot].try_lock_for(m_lock_wait)) {
        warn_once("lock", "a sampled launch waited too long for other threads' launches and "
                          "was timed only");
        discard(data.correlationId, k_discard_lock);
        return Begin::timed_out;
    }
    *data.correlationData = k_holds_exclusive | (std::uint64_t{slot} << k_slot_shift);
    t_open_sample = {m_breaches[slot].load(), grid_ctas(decoded.config), decoded.function,
                     std::chrono::steady_clock::now()};
    start_profiler(data, device);
    return Begin::sampling;
}

void CuptiBackend::on_launch_exit(const CUpti_CallbackData& data) noexcept {
    if (data.correlationData == nullptr) {
        return;
    }
    const std::uint64_t flags = *data.correlationData;
    std::shared_timed_mutex& lock = m_sample_locks[slot_of_flags(flags)];
    if ((flags & k_holds_shared) != 0) {
        lock.unlock_shared();
    } else if ((flags & k_holds_exclusive) != 0) {
        if ((flags & k_started) != 0) {
            end_sample(data);
        }
        lock.unlock();
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
    RangeReport report;
    const ProfilerStatus status = session->profiler->stop_and_evaluate(values, report);
    const auto took = std::chrono::steady_clock::now() - t_open_sample.started;
    if (took > m_sample_budget) {
        try {
            {
                std::unique_lock<std::shared_mutex> lock(m_attribute_lock);
                m_over_budget.insert(t_open_sample.function);
            }
            const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(took).count();
            warn(std::string("sampling ") + (data.symbolName != nullptr ? data.symbolName : "?") +
                 " took " + std::to_string(ms) + " ms (budget " +
                 std::to_string(m_sample_budget.count()) +
                 " ms); that kernel is timed only from "
                 "now on");
        } catch (...) {
        }
    }
    if (!status.ok()) {
        if (status.failure == ProfilerFailure::permission ||
            status.failure == ProfilerFailure::unsupported) {
            disable_profiling(status.error);
        } else if (report.dropped > 0) {
            discard(data.correlationId, k_discard_dropped);
        } else {
            warn("counters of a sampled launch were lost: " + status.error);
        }
        return;
    }
    deliver_sample(data, *session, values, report);
}

void CuptiBackend::deliver_sample(const CUpti_CallbackData& data, const ContextSession& session,
                                  const std::vector<double>& values,
                                  const RangeReport& report) noexcept {
    try {
        CounterSample sample;
        sample.correlation_id = data.correlationId;
        sample.counters = to_counters(session.bindings, session.metrics, values);
        sample.passes = session.profiler->passes();
        const std::size_t slot = slot_of(session.device);
        const SampleEvidence evidence{report.ranges, report.dropped,
                                      m_breaches[slot].load() != t_open_sample.breaches,
                                      t_open_sample.grid_ctas};
        if (const char* problem = sample_problem(evidence, sample.counters)) {
            discard(data.correlationId, problem);
            return;
        }
        m_passes = std::max(m_passes.load(), sample.passes);
        with_sink([&sample](LaunchSink& sink) { sink.on_counters(sample); });
    } catch (...) {
        warn("counters of a sampled launch were lost: out of memory");
    }
}

void CuptiBackend::discard(std::uint64_t correlation_id, const char* reason) noexcept {
    with_sink([&](LaunchSink& sink) { sink.on_discarded_sample(correlation_id, reason); });
}

} // namespace irf::intercept::cupti

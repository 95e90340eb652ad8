// SPDX-License-Identifier: Apache-2.0
// CUPTI backend launch path: build the LaunchEvent, ask the sink, profile one launch per range.
#include <algorithm>

#include "common/log.hpp"
#include "intercept/cupti/counter_map.hpp"
#include "intercept/cupti/cupti_backend_impl.hpp"

namespace irf::intercept::cupti {
namespace {

/// The sample this thread has open between its launch's ENTER and EXIT (one at a time: a
/// thread is inside one launch call).
struct OpenSample {
    bool open = false;                ///< between the exclusive lock and its release at EXIT
    std::uint32_t correlation_id = 0; ///< of the sampled launch: its own EXIT is not ignored
    std::uint64_t id = 0;             ///< the sink's id of it (LaunchCall::id)
    std::uint64_t breaches = 0;       ///< the slot's breach count at ENTER
    std::uint64_t grid_ctas = 0;
    CUfunction function = nullptr;
    std::chrono::steady_clock::time_point started;
    std::uint32_t device = 0;
    std::chrono::steady_clock::time_point launched; ///< after the profiler's setup and Start
};
thread_local OpenSample t_open_sample;

std::size_t slot_of(std::uint32_t device) noexcept {
    return device % k_lock_slots;
}

std::size_t slot_of_flags(std::uint64_t flags) noexcept {
    return static_cast<std::size_t>(flags >> k_slot_shift) % k_lock_slots;
}

} // namespace

LaunchEvent CuptiBackend::make_event(const DecodedLaunch& decoded, CUcontext context,
                                     const char* symbol, const ContextIds& ids) noexcept {
    LaunchEvent event;
    event.function = decoded.function;
    event.launch = decoded.config;
    const FunctionAttributes attrs =
        attributes(decoded.function, static_cast<CUdevice>(ids.device));
    event.mangled = symbol != nullptr ? symbol : attrs.name;
    event.launch.regs = attrs.regs;
    event.launch.smem_bytes += attrs.static_smem;
    event.device = ids.device;
    event.context = ids.context_id;
    std::uint32_t stream = 0;
    if (stream_id(context, decoded.stream, decoded.per_thread_stream, stream)) {
        event.stream = stream;
    }
    event.module_epoch = m_module_epoch.load(std::memory_order_relaxed);
    return event;
}

bool CuptiBackend::launch_captured(CUcontext context, const StreamArg& stream,
                                   bool& tracked) noexcept {
    // Every capture begins through a watched cuStreamBeginCapture* (guarded_cbids.cpp), counted
    // before it returns, so with none open no launch is captured: no driver query then
    // (issue 55 item 2). With one open the driver is still asked, as its side streams may be.
    tracked = false;
    if (m_open_captures.load(std::memory_order_relaxed) == 0) {
        return false;
    }
    tracked = in_open_capture(context, stream);
    return tracked || m_platform->is_capturing(stream.stream, stream.per_thread);
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
        if (m_graph_replays) {
            choose_graph_records(decoded.graph_exec, data.correlationId);
        }
        hold_shared(data.correlationData, slot_of(ids.device));
        return;
    }
    const StreamArg stream{decoded.stream, decoded.per_thread_stream};
    if (bool tracked = false; launch_captured(data.context, stream, tracked)) {
        if (common::log_enabled(common::LogLevel::debug)) {
            log_captured_launch(data, stream, tracked);
        }
        return; // recorded into a graph, not run now: neither a launch nor a sample
    }
    std::uint64_t sink_id = data.correlationId;
    std::optional<LaunchDecision> decided;
    if (!sink_id_at_enter(data, sink_id, decided)) {
        return; // the hook reported it (IRF_FAST_INTERCEPT=1)
    }
    if (const std::uint64_t seen = ++m_launches_seen; (seen & m_timing_mask) == 0) {
        check_timing(seen);
    }
    const LaunchCall call{data, sink_id};
    LaunchDecision decision = decided.value_or(LaunchDecision::time_only);
    if (!decided) { // else the hook asked the sink already
        LaunchEvent event = make_event(decoded, data.context, data.symbolName, ids);
        event.correlation_id = sink_id;
        with_sink([&](LaunchSink& sink) { decision = sink.on_launch(event); });
    }
    if (!sample_chosen(call, decoded, ids.device, decision)) {
        hold_shared(data.correlationData, slot_of(ids.device));
    }
}

bool CuptiBackend::sample_chosen(const LaunchCall& call, const DecodedLaunch& decoded,
                                 std::uint32_t device, LaunchDecision decision) noexcept {
    if (!profiles(decision)) {
        return false;
    }
    const Begin begun = begin_sample(call, decoded, device, sample_set_of(decision));
    if (begun == Begin::timed_out) {
        // No second wait: the launch goes on unprotected, and any open window knows it.
        ++m_breaches[slot_of(device)];
    }
    return begun != Begin::declined;
}

bool CuptiBackend::ignored_inside_sample(const CUpti_CallbackData& data) noexcept {
    // A driver call raised on the sampling thread while its own sample is open (a library's
    // internal launch or copy, a replay pass) is not the application's: counted, it would also
    // wait for the lock this thread holds and then breach its own sample.
    if (!t_open_sample.open) {
        return false;
    }
    if (data.callbackSite == CUPTI_API_EXIT && data.correlationId == t_open_sample.correlation_id) {
        return false; // the sampled launch's own EXIT
    }
    if (data.callbackSite == CUPTI_API_ENTER && data.correlationData != nullptr) {
        *data.correlationData = 0; // so its EXIT releases nothing
    }
    return true;
}

void CuptiBackend::decline(std::uint64_t correlation_id, const char* reason) noexcept {
    with_sink([&](LaunchSink& sink) { sink.on_sample_declined(correlation_id, reason); });
}

void CuptiBackend::hold_shared(std::uint64_t* state, std::size_t slot) noexcept {
    // Bounded wait: if the driver ever blocks a sample's Stop/Decode on this thread (open
    // question 4), the launch goes on unprotected after the wait instead of hanging.
    if (state == nullptr) {
        return;
    }
    // A release's Disable waits for the context's work (0.35-0.49 s on the H200) with the lock
    // held, and no sample can open before it ends: the launch goes on at once. Counted before
    // the flag is read again, so the release waits for its EXIT before it unlocks.
    if (m_releasing[slot].load()) {
        m_release_skips[slot].fetch_add(1);
        if (m_releasing[slot].load()) {
            *state = k_beside_release | (std::uint64_t{slot} << k_slot_shift);
            return;
        }
        m_release_skips[slot].fetch_sub(1);
    }
    if (m_sample_locks[slot].lock_shared_for(m_lock_wait)) {
        *state = k_holds_shared | (std::uint64_t{slot} << k_slot_shift);
    } else {
        ++m_breaches[slot];
    }
}

CuptiBackend::Begin CuptiBackend::begin_sample(const LaunchCall& call, const DecodedLaunch& decoded,
                                               std::uint32_t device, SampleSet set) noexcept {
    const CUpti_CallbackData& data = call.data;
    if (data.correlationData == nullptr || decoded.kind != LaunchKind::kernel ||
        !m_profiling.load() || device_busy(device) ||
        (set == SampleSet::tensor_types && tensor_set_refused(device))) {
        decline(call.id, nullptr); // timed as it runs (multi-device: never sampled)
        return Begin::declined;
    }
    if (over_budget(decoded.function)) {
        decline(call.id, k_discard_budget);
        return Begin::declined;
    }
    const std::size_t slot = slot_of(device);
    // An idle release of this device is under way: its Disable waits for the context's work
    // (0.35-0.49 s on the H200, and as long as the GPU stays busy), so the launch runs
    // unprofiled at once and its sample is asked again at a later launch.
    if (m_releasing[slot].load(std::memory_order_acquire)) {
        with_sink([&call](LaunchSink& sink) { sink.on_sample_deferred(call.id); });
        return Begin::declined;
    }
    // Waits until other threads' launches on this device are submitted; if that takes too
    // long the launch is timed only (the sample is discarded, with one warning).
    if (!m_sample_locks[slot].lock_for(m_lock_wait)) {
        warn_once("lock", "a sampled launch waited too long for other threads' launches and "
                          "was timed only");
        decline(call.id, k_discard_lock);
        return Begin::timed_out;
    }
    if (m_open_captures.load() > 0) {
        // Replay and decode synchronise the context, which a capture in global mode (PyTorch's
        // default) forbids in every thread: the application's capture would fail. Checked under
        // the lock, which a cuStreamBeginCapture holds shared until its capture is counted.
        m_sample_locks[slot].unlock();
        decline(call.id, k_discard_capture);
        return Begin::declined;
    }
    *data.correlationData = k_holds_exclusive | (std::uint64_t{slot} << k_slot_shift);
    t_open_sample = {true,
                     data.correlationId,
                     call.id,
                     m_breaches[slot].load(),
                     grid_ctas(decoded.config),
                     decoded.function,
                     std::chrono::steady_clock::now(),
                     device,
                     {}};
    start_profiler(call, device, set);
    t_open_sample.launched = std::chrono::steady_clock::now();
    return Begin::sampling;
}

void CuptiBackend::on_launch_exit(const CUpti_CallbackData& data) noexcept {
    if (data.correlationData == nullptr ||
        (m_fast_on.load(std::memory_order_relaxed) && hooked_call().route == HookRoute::hook)) {
        return; // the hook's launch: its `after` releases what its `before` took
    }
    const std::uint64_t flags = *data.correlationData;
    if ((flags & k_holds_exclusive) != 0) {
        if ((flags & k_started) != 0) {
            end_sample({data, t_open_sample.id});
        }
        t_open_sample.open = false;
        m_sample_locks[slot_of_flags(flags)].unlock();
    } else {
        release_hold(flags);
    }
    *data.correlationData = 0;
}

void CuptiBackend::release_hold(std::uint64_t flags) noexcept {
    if ((flags & k_holds_slots) != 0) {
        for (std::size_t slot = 0; slot < k_lock_slots; ++slot) {
            if (((flags >> k_mask_shift) & (std::uint64_t{1} << slot)) != 0) {
                m_sample_locks[slot].unlock_shared();
            }
        }
    } else if ((flags & k_holds_shared) != 0) {
        m_sample_locks[slot_of_flags(flags)].unlock_shared();
    } else if ((flags & k_beside_release) != 0) {
        m_release_skips[slot_of_flags(flags)].fetch_sub(1);
    }
}

void CuptiBackend::end_sample(const LaunchCall& call) noexcept {
    const CUpti_CallbackData& data = call.data;
    note_sample_end();
    ContextSession* session = nullptr;
    {
        std::lock_guard<std::mutex> lock(m_state);
        const auto it = m_sessions.find(data.context);
        session = it != m_sessions.end() ? &it->second : nullptr;
    }
    if (session == nullptr || !session->profiler) {
        discard(call.id, k_discard_lost);
        return;
    }
    std::vector<double> values;
    RangeReport report;
    const auto stopping = std::chrono::steady_clock::now();
    const ProfilerStatus status = session->profiler->stop_and_evaluate(values, report);
    note_sample_phases(t_open_sample.started, t_open_sample.launched, stopping);
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
        if (report.dropped > 0) {
            discard(call.id, k_discard_dropped);
            return;
        }
        discard(call.id, k_discard_lost);
        if (!counters_refused(status, t_open_sample.device)) {
            warn("counters of a sampled launch were lost: " + status.error);
        }
        return;
    }
    deliver_sample(call, *session, values, report);
}

void CuptiBackend::deliver_sample(const LaunchCall& call, const ContextSession& session,
                                  const std::vector<double>& values,
                                  const RangeReport& report) noexcept {
    try {
        CounterSample sample;
        sample.correlation_id = call.id;
        sample.counters = to_counters(session.bindings, session.metrics, values);
        sample.passes = session.profiler->passes();
        const std::size_t slot = slot_of(session.device);
        const SampleEvidence evidence{report.ranges, report.dropped,
                                      m_breaches[slot].load() != t_open_sample.breaches,
                                      t_open_sample.grid_ctas};
        if (const char* problem = sample_problem(evidence, sample.counters)) {
            discard(call.id, problem);
            return;
        }
        if (session.set == SampleSet::standard) { // coverage.passes: the standard set's, not
            m_passes = std::max(m_passes.load(), sample.passes); // the tensor-types sample's
        }
        with_sink([&sample](LaunchSink& sink) { sink.on_counters(sample); });
    } catch (...) {
        warn("counters of a sampled launch were lost: out of memory");
    }
}

void CuptiBackend::discard(std::uint64_t correlation_id, const char* reason) noexcept {
    with_sink([&](LaunchSink& sink) { sink.on_discarded_sample(correlation_id, reason); });
}

} // namespace irf::intercept::cupti

// SPDX-License-Identifier: Apache-2.0
// IRF_FAST_INTERCEPT=1 (`irf run --fast-intercept`; docs/tools.md, "Launches without CUPTI
// callbacks"): libirf_entry.so's hook reports each kernel launch, and CUPTI's callbacks of the
// entry points it wraps are on only while a launch the sink chose is being sampled. A kernel
// record finds its launch through hooked_launches.hpp.
#include "common/log.hpp"
#include "intercept/cupti/cupti_backend_impl.hpp"

namespace irf::intercept::cupti {
namespace {

thread_local HookedCall t_hooked_call;

/// The backend the C hooks forward to (a process has one; hooks carry no user pointer).
std::atomic<CuptiBackend*> s_hooked_backend{nullptr};

std::uint64_t hook_before(const IrfEntryLaunch* launch) noexcept {
    CuptiBackend* backend = s_hooked_backend.load(std::memory_order_acquire);
    return backend != nullptr && launch != nullptr ? backend->on_hook_before(*launch) : 0;
}

void hook_after(const IrfEntryLaunch* launch, std::uint64_t cookie, int result) noexcept {
    CuptiBackend* backend = s_hooked_backend.load(std::memory_order_acquire);
    if (backend != nullptr && launch != nullptr) {
        backend->on_hook_after(*launch, cookie, result);
    }
}

const IrfEntryHooks k_hooks{IRF_ENTRY_HOOKS_VERSION, sizeof(IrfEntryHooks), hook_before,
                            hook_after};

/// Launches through CUPTI's callbacks after the last choice before they go off again: a sample
/// by launches keeps them on while it is open (PassSink), a kernel replay needs only its own.
constexpr std::uint64_t k_disarm_after = 256;

DecodedLaunch decoded_of(const IrfEntryLaunch& launch) noexcept {
    DecodedLaunch decoded;
    decoded.function = static_cast<CUfunction>(launch.function);
    decoded.config.grid = {launch.grid[0], launch.grid[1], launch.grid[2]};
    decoded.config.block = {launch.block[0], launch.block[1], launch.block[2]};
    decoded.config.smem_bytes = launch.shared_bytes;
    decoded.stream = static_cast<CUstream>(launch.stream);
    decoded.per_thread_stream = launch.per_thread != 0;
    return decoded;
}

std::uint64_t stream_key_of(std::uint32_t context_id, std::uint32_t stream_id) noexcept {
    return (std::uint64_t{context_id} << 32) | stream_id;
}

} // namespace

HookedCall& hooked_call() noexcept {
    return t_hooked_call;
}

void CuptiBackend::start_fast_intercept() noexcept {
    if (!m_options.fast_intercept) {
        return;
    }
    try {
        m_hooked = std::make_unique<HookedLaunches>();
    } catch (...) {
        warn("IRF_FAST_INTERCEPT=1: out of memory; every launch goes through CUPTI's callbacks");
        return;
    }
    m_since_armed = k_disarm_after; // the first hooked launch turns the callbacks off
    s_hooked_backend.store(this, std::memory_order_release);
    if (!m_platform->register_entry_hooks(&k_hooks)) {
        s_hooked_backend.store(nullptr, std::memory_order_release);
        warn("IRF_FAST_INTERCEPT=1 but libirf_entry.so is not loaded or refused irf's hooks "
             "(start the application with `irf run --fast-intercept`); every launch goes "
             "through CUPTI's callbacks");
        return;
    }
    m_fast_on.store(true, std::memory_order_release);
}

void CuptiBackend::stop_fast_intercept() noexcept {
    if (s_hooked_backend.load(std::memory_order_acquire) == this) {
        static_cast<void>(m_platform->register_entry_hooks(nullptr)); // pass-through from now
        s_hooked_backend.store(nullptr, std::memory_order_release);
    }
}

bool CuptiBackend::sink_id_at_enter(const CUpti_CallbackData& data, std::uint64_t& id,
                                    std::optional<LaunchDecision>& decided) noexcept {
    if (!m_fast_on.load(std::memory_order_acquire)) { // acquire: m_hooked was set before it
        return true;
    }
    HookedCall& call = t_hooked_call;
    if (call.route == HookRoute::hook) {
        return false; // the callbacks came on while the hook had it
    }
    call.entered = true;
    if (call.route == HookRoute::decided) {
        id = call.kept.id;
        decided = call.decision;
    } else {
        id = m_hooked->next_id();
        m_since_armed.fetch_add(1, std::memory_order_relaxed);
    }
    m_hooked->note_callback(data.correlationId, id);
    return true;
}

std::uint64_t CuptiBackend::on_hook_before(const IrfEntryLaunch& launch) noexcept {
    HookedCall& call = t_hooked_call;
    call = HookedCall{};
    if (!m_fast_on.load(std::memory_order_acquire) || m_cupti_failed || m_detached ||
        m_stopping.load(std::memory_order_relaxed) || launch.entry == IRF_ENTRY_GRAPH_LAUNCH) {
        return 0; // CUPTI's callbacks see it (graph launches' are always on)
    }
    if (m_armed_for_good.load(std::memory_order_relaxed) && !m_armed.load() &&
        !m_arm_refused.load(std::memory_order_relaxed)) {
        static_cast<void>(arm()); // a kernel ran that the hook did not see (report_unseen)
    }
    if (m_armed.load()) {
        try_disarm();
        // Counted before m_armed is read again, and try_disarm clears m_armed before it reads
        // the count: the callbacks never go off between a routed launch's ENTER and EXIT.
        m_routed.fetch_add(1);
        if (m_armed.load()) {
            call.route = HookRoute::callback;
            return 0;
        }
        m_routed.fetch_sub(1);
    }
    call.route = HookRoute::hook;
    const LaunchDecision decision = report_hooked(launch, call);
    if (call.kept.id == 0) {
        return 0; // captured into a graph: not run now
    }
    if (profiles(decision)) {
        m_routed.fetch_add(1);
        if (m_armed.load() || arm()) {
            call.route = HookRoute::decided; // its callback samples it
            call.decision = decision;
            m_since_armed = 0;
            return 0;
        }
        m_routed.fetch_sub(1);
        decline(call.kept.id, nullptr);
        m_hooked->push(call.kept);
    }
    std::uint64_t cookie = 0;
    hold_shared(&cookie, call.device % k_lock_slots);
    return cookie;
}

LaunchDecision CuptiBackend::report_hooked(const IrfEntryLaunch& launch,
                                           HookedCall& call) noexcept {
    const CUcontext context = m_platform->current_context();
    const ContextIds ids = context_ids(context);
    const DecodedLaunch decoded = decoded_of(launch);
    if (bool tracked = false;
        launch_captured(context, {decoded.stream, decoded.per_thread_stream}, tracked)) {
        return LaunchDecision::time_only; // recorded into a graph, not run now
    }
    if (const std::uint64_t seen = ++m_launches_seen; (seen & m_timing_mask) == 0) {
        check_timing(seen);
    }
    if (!m_hook_used.load(std::memory_order_relaxed)) { // no shared write on later launches
        m_hook_used.store(true, std::memory_order_relaxed);
    }
    LaunchEvent event = make_event(decoded, context, nullptr, ids);
    event.correlation_id = m_hooked->next_id();
    call.device = ids.device;
    call.kept.id = event.correlation_id;
    call.kept.stream_key = stream_key_of(ids.context_id, static_cast<std::uint32_t>(event.stream));
    call.kept.grid = decoded.config.grid;
    call.kept.block = decoded.config.block;
    LaunchDecision decision = LaunchDecision::time_only;
    with_sink([&](LaunchSink& sink) { decision = sink.on_launch(event); });
    if (!profiles(decision)) {
        m_hooked->push(call.kept); // a chosen one is kept once it is known to run unsampled
    }
    return decision;
}

void CuptiBackend::on_hook_after(const IrfEntryLaunch& launch, std::uint64_t cookie,
                                 int result) noexcept {
    HookedCall& call = t_hooked_call;
    const HookedCall was = call;
    call = HookedCall{};
    switch (was.route) {
    case HookRoute::hook:
        release_hold(cookie);
        if (result != CUDA_SUCCESS && was.kept.id != 0) {
            m_hooked->cancel(was.kept); // no record will come
        }
        break;
    case HookRoute::callback:
    case HookRoute::decided:
        m_routed.fetch_sub(1);
        if (!was.entered && result == CUDA_SUCCESS) {
            // The callbacks were off after all (CUPTI's doing, or a launch this thread made
            // before another's switch took effect): the launch ran unseen by them, unsampled.
            HookedCall late = was;
            if (was.route == HookRoute::callback &&
                !profiles(report_hooked(launch, late))) { // reported now, after the fact
                break;
            }
            if (late.kept.id != 0) {
                decline(late.kept.id, nullptr);
                m_hooked->push(late.kept);
            }
        }
        break;
    case HookRoute::none:
        break;
    }
}

bool CuptiBackend::arm() noexcept {
    try {
        const std::lock_guard<std::mutex> lock(m_arm_mutex);
        if (m_armed.load()) {
            return true;
        }
        if (!m_platform->set_hooked_callbacks(m_subscriber, true)) {
            m_arm_refused = true; // not asked again for every launch
            warn_once("fast-arm", "IRF_FAST_INTERCEPT=1: CUPTI refused to turn its launch "
                                  "callbacks on for a sample; launches chosen for samples run "
                                  "unprofiled");
            return false;
        }
        m_since_armed = 0;
        m_armed.store(true);
        return true;
    } catch (...) {
        return false;
    }
}

void CuptiBackend::try_disarm() noexcept {
    if (m_armed_for_good.load(std::memory_order_relaxed) ||
        m_since_armed.load(std::memory_order_relaxed) < k_disarm_after ||
        m_pass_sink.open_samples() != 0) {
        return;
    }
    std::unique_lock<std::mutex> lock(m_arm_mutex, std::try_to_lock);
    if (!lock.owns_lock() || !m_armed.load()) {
        return; // another thread switches them
    }
    m_armed.store(false);
    if (m_routed.load() > 0) {
        m_armed.store(true); // a routed launch is inside the driver: its EXIT must come
        return;
    }
    if (!m_platform->set_hooked_callbacks(m_subscriber, false)) {
        static_cast<void>(m_platform->set_hooked_callbacks(m_subscriber, true));
        m_armed.store(true);
        m_armed_for_good = true;
        warn_once("fast-disarm", "IRF_FAST_INTERCEPT=1: CUPTI refused to turn its launch "
                                 "callbacks off; every launch goes through them");
    }
}

std::uint64_t CuptiBackend::record_id(const KernelActivity& record) noexcept {
    std::uint64_t id = 0;
    switch (m_hooked->match(static_cast<std::uint32_t>(record.correlation_id),
                            stream_key_of(record.context, record.stream), record.launch.grid,
                            record.launch.block, id)) {
    case RecordMatch::callback:
    case RecordMatch::hooked:
        return id;
    case RecordMatch::unseen:
        return report_unseen(record);
    case RecordMatch::lost:
        break;
    }
    m_lost_records.fetch_add(1, std::memory_order_relaxed);
    return 0;
}

std::uint64_t CuptiBackend::report_unseen(const KernelActivity& record) noexcept {
    m_unseen_records.fetch_add(1, std::memory_order_relaxed);
    if (!m_armed_for_good.exchange(true)) {
        // Not switched here: this is CUPTI's buffer thread. The next hooked launch does it.
        warn("IRF_FAST_INTERCEPT=1: a kernel ran that libirf_entry.so's hook did not see (code "
             "that calls libcuda's launch functions directly?); CUPTI's launch callbacks are on "
             "for the rest of the run, and such kernels are timed from their records only");
    }
    LaunchEvent event;
    event.function = record.name; // CUPTI shares one name string per kernel, as for graph nodes
    event.mangled = record.name;
    event.launch = record.launch;
    event.device = record.device;
    event.context = record.context;
    event.stream = record.stream;
    event.correlation_id = m_hooked->next_id();
    event.region_given = true; // its launching thread's NVTX path is not known: the top level
    event.module_epoch = m_module_epoch.load(std::memory_order_relaxed);
    LaunchDecision decision = LaunchDecision::time_only;
    with_sink([&](LaunchSink& sink) { decision = sink.on_launch(event); });
    if (profiles(decision)) {
        decline(event.correlation_id, nullptr); // it ran long ago
    }
    return event.correlation_id;
}

void CuptiBackend::warn_fast_intercept() noexcept {
    if (!m_fast_on.load()) {
        return;
    }
    const std::uint64_t lost = m_lost_records.load() + m_hooked->forgotten();
    if (!m_hook_used.load()) {
        warn_once("fast-none", "IRF_FAST_INTERCEPT=1: libirf_entry.so's hook saw no launch (the "
                               "CUDA runtime did not resolve its launch functions through it); "
                               "every launch went through CUPTI's callbacks");
    }
    if (lost > 0) {
        warn_once("fast-lost", std::to_string(lost) +
                                   " kernel records could not be matched to their launches "
                                   "(IRF_FAST_INTERCEPT=1); those launches have no duration");
    }
    common::log_line(common::LogLevel::debug,
                     "fast intercept: records matched to hooked launches " +
                         std::to_string(m_hooked->matched_hooked()) + ", to callback launches " +
                         std::to_string(m_hooked->matched_callback()) + ", of unseen launches " +
                         std::to_string(m_unseen_records.load()) + ", unmatched " +
                         std::to_string(lost));
}

} // namespace irf::intercept::cupti

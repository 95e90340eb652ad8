// SPDX-License-Identifier: Apache-2.0
// CUPTI backend: one range profiler per context, one enabled per device, and kernel records.
#include <array>
#include <atomic>
#include <ctime>

#include "intercept/cupti/cupti_backend_impl.hpp"
#include "intercept/nvtx_stack.hpp"

namespace irf::intercept::cupti {
namespace {

bool is_profiler_fatal(ProfilerFailure failure) {
    return failure == ProfilerFailure::permission || failure == ProfilerFailure::unsupported;
}

constexpr std::size_t k_busy_bits = 64;

/// The bit of `device` in a per-device flag word (devices past 64 share bits).
std::uint64_t device_bit(std::uint32_t device) {
    return std::uint64_t{1} << (device % k_busy_bits);
}

/// Sets `device`'s flag; true when this call set it (the first refusal, the one to warn about).
bool flag_first(std::atomic<std::uint64_t>& flags, std::uint32_t device) {
    const std::uint64_t bit = device_bit(device);
    return (flags.fetch_or(bit) & bit) == 0;
}

std::string utc_time_of_day() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    std::array<char, 32> text{};
    if (::gmtime_r(&now, &utc) == nullptr ||
        std::strftime(text.data(), text.size(), "%H:%M:%S UTC", &utc) == 0) {
        return "an unknown time";
    }
    return text.data();
}

} // namespace

void CuptiBackend::start_profiler(const LaunchCall& call, std::uint32_t device,
                                  SampleSet set) noexcept {
    ContextSession* session = session_for(call.data.context, device, held_set(set));
    if (session == nullptr || !session->profiler) {
        decline(call.id, nullptr); // timed only; the lock is released at EXIT
        return;
    }
    // One pass of a sample by launches, or a kernel replay when it cannot be one.
    if (set == SampleSet::launches &&
        m_pass_sink.arm(*session->profiler, call.id) == PassSink::Armed::none) {
        decline(call.id, nullptr); // its sample is gone (the sink said why)
        return;
    }
    const ProfilerStatus status = session->profiler->start();
    if (status.ok()) {
        *call.data.correlationData |= k_started;
        try {
            std::lock_guard<std::mutex> lock(m_state);
            m_profiled_ids.add(call.id);
        } catch (...) {
        }
        return;
    }
    decline(call.id, nullptr);
    if (!counters_refused(status, device)) {
        warn("a sampled launch was not profiled: " + status.error);
    }
}

bool CuptiBackend::counters_refused(const ProfilerStatus& status, std::uint32_t device) noexcept {
    // Counters refused on a device where they worked before: another client took them between
    // irf's samples (after an idle release), not a device without support. Tried again later.
    const bool held_elsewhere = status.failure == ProfilerFailure::busy ||
                                (is_profiler_fatal(status.failure) && counters_worked(device));
    if (held_elsewhere) {
        note_counters_busy(status, device);
        return true;
    }
    if (is_profiler_fatal(status.failure)) {
        disable_profiling(status.error);
        return true;
    }
    return false;
}

bool CuptiBackend::tensor_set_refused(std::uint32_t device) const noexcept {
    return (m_tensor_refused.load() & device_bit(device)) != 0;
}

// Called with the device's sample lock held exclusively, so no other sample of this device
// runs. CUPTI calls happen outside m_state (the activity thread takes it). A session that
// holds another set is set up again (install_session); one whose setup failed stays as it is.
ContextSession* CuptiBackend::session_for(CUcontext context, std::uint32_t device,
                                          SampleSet set) noexcept {
    try {
        {
            std::lock_guard<std::mutex> lock(m_state);
            const auto it = m_sessions.find(context);
            if (it != m_sessions.end() && it->second.set == set && !it->second.retry) {
                return &it->second;
            }
        }
        return install_session(context, device, set);
    } catch (...) {
        return nullptr;
    }
}

// A range profiler holds one config image, so another set means tearing it down and setting
// it up again (docs/cupti-notes.md): for a tensor-types sample, and back at the next standard
// one. The session keeps `set` even when its setup fails, so the next standard sample sets
// that one up again.
ContextSession* CuptiBackend::install_session(CUcontext context, std::uint32_t device,
                                              SampleSet set) {
    std::unique_ptr<RangeProfiler> other;
    std::unique_ptr<RangeProfiler> own;
    std::vector<std::uint8_t> availability;
    {
        std::lock_guard<std::mutex> lock(m_state);
        // One enabled range profiler per device: retire another context's first, as NVIDIA's
        // profiling_injection sample does (cupti-notes.md).
        const auto enabled = m_enabled.find(device);
        if (enabled != m_enabled.end() && enabled->second != context) {
            const auto old = m_sessions.find(enabled->second);
            if (old != m_sessions.end()) {
                other = std::move(old->second.profiler);
                m_sessions.erase(old);
            }
        }
        if (enabled != m_enabled.end()) {
            m_enabled.erase(enabled);
        }
        const auto it = m_sessions.find(context);
        if (it != m_sessions.end()) {
            own = std::move(it->second.profiler);
        }
        availability = m_availability[device];
    }
    for (std::unique_ptr<RangeProfiler>* retired : {&other, &own}) {
        if (*retired) {
            (*retired)->teardown();
            retired->reset();
        }
    }
    ContextSession fresh;
    fresh.device = device;
    fresh.set = set;
    const ProfilerStatus status = setup_session(fresh, context, device, availability);
    fresh.retry = status.failure == ProfilerFailure::busy ||
                  (is_profiler_fatal(status.failure) && counters_worked(device));
    ContextSession* session = nullptr;
    {
        std::lock_guard<std::mutex> lock(m_state);
        if (status.ok()) {
            m_enabled[device] = context;
            m_profilers_held.store(true);
            m_worked_devices.fetch_or(device_bit(device));
        }
        // Not after busy counters: the image may be partial (read while another client took
        // them), and the set-up tried again later must read it afresh.
        if (!availability.empty() && status.failure != ProfilerFailure::busy) {
            m_availability[device] = availability;
        }
        session = &(m_sessions[context] = std::move(fresh)); // failed: stays profiler-less
    }
    report_setup(status, device, set);
    if (status.ok()) {
        start_release_thread();
    }
    return session;
}

void CuptiBackend::report_setup(const ProfilerStatus& status, std::uint32_t device,
                                SampleSet set) noexcept {
    if (status.ok()) {
        return;
    }
    if (set == SampleSet::tensor_types && status.failure == ProfilerFailure::other) {
        // Only this set failed (a counter this chip or driver lacks): the standard set still
        // works, so profiling goes on, and no later tensor-types sample of this device tries.
        // Busy counters or a refusal of the device are not the set's fault: those go the
        // standard set's way below (docs/cupti-notes.md, "Busy counters").
        if (flag_first(m_tensor_refused, device)) {
            warn("tensor ops by input type unavailable on device " + std::to_string(device) + " (" +
                 status.error +
                 "); its kernels keep their other counters "
                 "(IRF_TENSOR_TYPES, docs/cupti-notes.md)");
        }
        return;
    }
    if (!counters_refused(status, device)) {
        warn("hardware counters unavailable on one context: " + status.error);
    }
}

ProfilerStatus CuptiBackend::setup_session(ContextSession& session, CUcontext context,
                                           std::uint32_t device,
                                           std::vector<std::uint8_t>& availability) {
    ProfilerStatus status = m_platform->initialize();
    if (!status.ok()) {
        // Process-wide: no context can profile, so stop asking (one warning, not one per context).
        status.failure = ProfilerFailure::unsupported;
        return status;
    }
    const std::string chip = m_platform->chip(static_cast<CUdevice>(device));
    const auto family = config::chip_family(chip);
    if (!family) {
        return {ProfilerFailure::unsupported, "irf has no metric map for chip '" + chip + "'"};
    }
    session.bindings = sample_bindings(*family, m_options, session.set);
    session.metrics = config::metric_names(session.bindings);
    std::unique_ptr<RangeProfiler> profiler = m_platform->make_profiler();
    status = profiler->setup(context, static_cast<CUdevice>(device), chip, session.metrics,
                             availability);
    if (status.ok()) {
        session.profiler = std::move(profiler);
    }
    return status;
}

bool CuptiBackend::first_duration(std::uint64_t correlation_id) noexcept {
    try {
        std::lock_guard<std::mutex> lock(m_state);
        return m_profiled_ids.first_record(correlation_id);
    } catch (...) {
        return true;
    }
}

void CuptiBackend::remember_graph_region(std::uint64_t correlation_id) noexcept {
    // Bounded: a run of graph launches whose records never arrive must not grow memory; past
    // the bound the oldest is forgotten (its kernels fall to the top-level region). Clearing the
    // whole map there lost the regions of launches whose records were still in CUPTI's buffers.
    constexpr std::size_t k_max_graph_launches = std::size_t{1} << 16;
    try {
        const std::uint32_t path = nvtx::current_path();
        const std::lock_guard<std::mutex> lock(m_graph_mutex);
        if (m_graph_order.size() >= k_max_graph_launches) {
            m_graph_regions.erase(m_graph_order.front());
            m_graph_order.pop_front();
        }
        if (m_graph_regions.emplace(correlation_id, path).second) {
            m_graph_order.push_back(correlation_id);
        }
    } catch (...) { // out of memory: the graph's kernels lose their region, not the app
    }
}

bool CuptiBackend::graph_region(std::uint64_t correlation_id, std::uint32_t& path) noexcept {
    const std::lock_guard<std::mutex> lock(m_graph_mutex);
    const auto it = m_graph_regions.find(correlation_id);
    if (it == m_graph_regions.end()) {
        return false;
    }
    path = it->second; // kept: every kernel node of the launch shares this correlation id
    return true;
}

void CuptiBackend::on_kernel_record(const KernelActivity& record) noexcept {
    if (m_detached) {
        return; // a forked child: the sink is the parent's collector
    }
    ++m_records_seen;
    if (m_timing_stopped.load(std::memory_order_relaxed)) {
        resume_timing();
    }
    if (record.graph_level) {
        on_graph_record(record);
        return;
    }
    std::uint64_t correlation_id = record.correlation_id;
    if (record.graph_id != 0 && !record.device_launched) {
        learn_graph_node(record);
    }
    if (record.graph_id != 0 || record.device_launched) {
        // Graph nodes (also of a graph launched from the device) have no launch callback:
        // report each as a timed-only launch of its own.
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
        // A graph launch whose region was forgotten (or a device-launched graph) runs at the top
        // level: the delivering thread's own NVTX path, an application thread's inside a flush,
        // says nothing of it.
        if (!graph_region(record.correlation_id, event.region)) {
            event.region = 0;
        }
        event.region_given = true;
        with_sink([&event](LaunchSink& sink) { static_cast<void>(sink.on_launch(event)); });
    } else if (m_fast_on.load(std::memory_order_acquire)) {
        correlation_id = record_id(record); // irf's own ids (IRF_FAST_INTERCEPT=1)
        if (correlation_id == 0 || !first_duration(correlation_id)) {
            return;
        }
    } else if (correlation_id == 0 || !first_duration(correlation_id)) {
        return;
    }
    const DurationRecord duration{correlation_id, record.start_ns, record.end_ns};
    with_sink([&duration](LaunchSink& sink) { sink.on_duration(duration); });
}

void CuptiBackend::check_timing(std::uint64_t launches) noexcept {
    const std::uint64_t records = m_records_seen.load();
    if (m_activity_failed || m_timing_stopped || m_records_at_check.exchange(records) != records) {
        m_silent_once = false;
        return;
    }
    // A whole interval of launches without one kernel record. On the H100 CUPTI held back every
    // buffer for over a million launches of a loop that never synchronised, while nothing else
    // used the activity stream (tests/data/gpu/h100/contention/irf.log): so first ask for the
    // completed buffers, and decide only when the next interval is silent too.
    if (!m_silent_once.exchange(true)) {
        if (m_running) {
            activity_flush(false);
        }
        return;
    }
    // Still none: kineto or another tool replaced the activity callbacks or disabled
    // CONCURRENT_KERNEL. Irf does not fight it back (that would break the other tool);
    // launches become counts so nothing grows without bound.
    if (m_timing_stopped.exchange(true)) {
        return;
    }
    with_sink([](LaunchSink& sink) { sink.on_timing_stopped(); });
    try {
        warn("kernel timing stopped at " + utc_time_of_day() + " after " +
             std::to_string(launches) + " launches: no kernel activity record came for the last " +
             std::to_string(2 * (m_timing_mask + 1)) + ", even after a flush" +
             " (another CUPTI client, e.g. PyTorch's profiler, took the activity stream?); later "
             "launches are counted, not timed, until records come again (docs/cupti-notes.md)");
    } catch (...) {
    }
}

// Records came after timing was declared stopped: the other client gave the activity stream
// back, or CUPTI only held its buffers longer than two intervals (a flush returns no buffer
// that holds an incomplete record, cupti_activity.h). Either way, time launches again.
void CuptiBackend::resume_timing() noexcept {
    if (!m_timing_stopped.exchange(false)) {
        return;
    }
    m_silent_once = false;
    m_records_at_check = m_records_seen.load();
    with_sink([](LaunchSink& sink) { sink.on_timing_resumed(); });
    try {
        warn("kernel timing resumed at " + utc_time_of_day() + " after " +
             std::to_string(m_launches_seen.load()) +
             " launches: kernel activity records came again; the launches in between were "
             "counted, not timed (docs/cupti-notes.md)");
    } catch (...) {
    }
}

void CuptiBackend::warn_lost_activity() noexcept {
    const std::uint64_t launches = m_launches_seen.load();
    if (!m_activity_failed && launches > 0 && m_records_seen.load() == 0) {
        warn_once("no-activity",
                  std::to_string(launches) +
                      " launches were seen but no kernel activity record arrived: another CUPTI "
                      "client (PyTorch's kineto, Nsight Systems, Nsight Compute) may have taken "
                      "the activity stream; kernel durations are missing (docs/cupti-notes.md)");
    }
    if (m_subscriber != nullptr && !m_platform->subscription_alive(m_subscriber)) {
        warn_once("lost-subscription",
                  "irf's CUPTI launch callbacks were switched off during the run (another CUPTI "
                  "client?); launches after that point were not seen (docs/cupti-notes.md)");
    }
}

} // namespace irf::intercept::cupti

// SPDX-License-Identifier: Apache-2.0
// Releasing the counters between bursts of samples. An enabled range profiler holds the
// device's counters for as long as it stays enabled: on the first H100 run an ncu in another
// process failed beside irf long after irf's last sample (docs/validation/h100.md, item 7). A
// profiler idle for m_idle_release is torn down, as the tensor-types switch tears one down
// (install_session), by irf's own release thread and at launches; the next sample sets one up
// again. Counters another client holds are tried again after m_busy_retry.
#include <array>
#include <csignal>
#include <cstdio>

#include <pthread.h>
#include <unistd.h>

#include "common/log.hpp"
#include "intercept/cupti/cupti_backend_impl.hpp"

namespace irf::intercept::cupti {
namespace {

std::int64_t steady_ns() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::uint64_t device_flag(std::uint32_t device) noexcept {
    return std::uint64_t{1} << (device % k_device_slots);
}

/// The debug line before a release's teardown (the one after it may never come).
void log_release_begins(std::uint32_t device, std::int64_t idle_ns) noexcept {
    // Before the teardown too: on the H200 a launch loop that never synchronised showed no
    // release line at all, and only this one tells a release that never began from a teardown
    // that never ended (docs/cupti-notes.md question 19).
    if (!common::log_enabled(common::LogLevel::debug)) {
        return;
    }
    std::array<char, 128> line{};
    std::snprintf(line.data(), line.size(),
                  "releasing the range profiler of device %u after %.1f s without a sample", device,
                  static_cast<double>(idle_ns) / 1e9);
    common::log_line(common::LogLevel::debug, line.data());
}

/// Clears the busy clocks whose retry time has passed; true when there was one.
bool take_expired(std::array<std::atomic<std::int64_t>, k_device_slots>& busy_until) noexcept {
    bool expired = false;
    for (std::atomic<std::int64_t>& until : busy_until) {
        std::int64_t when = until.load();
        if (when != 0 && steady_ns() >= when && until.compare_exchange_strong(when, 0)) {
            expired = true;
        }
    }
    return expired;
}

} // namespace

void CuptiBackend::note_counters_busy(const ProfilerStatus& status, std::uint32_t device) noexcept {
    // Another client holds the counters (DCGM's profiling metrics, ncu): retrying each sample
    // would only repeat the refusal, so the device is timed only for a while, then tried again.
    const auto retry = std::chrono::duration_cast<std::chrono::nanoseconds>(m_busy_retry);
    m_busy_until[device % k_device_slots].store(steady_ns() + retry.count());
    start_release_thread(); // it tells the sink when the retry time has passed
    if ((m_busy_warned.fetch_or(device_flag(device)) & device_flag(device)) != 0) {
        return;
    }
    try {
        warn("counters in use by another client on device " + std::to_string(device) +
             " (DCGM? `dcgmi profile --pause`); kernels are timed only while they are, tried "
             "again every " +
             std::to_string(m_busy_retry.count() / 1000) + " s (" + status.error + ")");
    } catch (...) {
    }
}

bool CuptiBackend::device_busy(std::uint32_t device) const noexcept {
    return steady_ns() < m_busy_until[device % k_device_slots].load();
}

bool CuptiBackend::counters_worked(std::uint32_t device) const noexcept {
    return (m_worked_devices.load() & device_flag(device)) != 0;
}

void CuptiBackend::start_release_thread() noexcept {
    try {
        const std::lock_guard<std::mutex> lock(m_release_mutex);
        if (m_release_thread || m_release_stop) {
            return;
        }
        // Every signal blocked in it (it inherits this mask): the application's signals go to
        // the application's threads, and a handler never runs on this one.
        sigset_t all;
        sigset_t old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        try {
            m_release_thread = std::make_unique<std::thread>([this] { release_loop(); });
            m_release_pid = ::getpid();
        } catch (...) { // no thread: idle profilers are released at launches only
        }
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
    } catch (...) {
    }
}

void CuptiBackend::stop_release_thread() noexcept {
    try {
        {
            const std::lock_guard<std::mutex> lock(m_release_mutex);
            m_release_stop = true;
        }
        m_release_wake.notify_all();
        if (!m_release_thread) {
            return;
        }
        if (m_release_pid != ::getpid()) {
            // A forked child: the thread was not copied, its object must not be joined or
            // destroyed (std::thread would terminate); it is left as it is.
            static_cast<void>(m_release_thread.release());
            return;
        }
        if (m_release_thread->get_id() != std::this_thread::get_id()) {
            m_release_thread->join();
            m_release_thread.reset();
        }
    } catch (...) {
    }
}

void CuptiBackend::release_loop() noexcept {
    try {
        std::unique_lock<std::mutex> lock(m_release_mutex);
        while (!m_release_stop) {
            m_release_wake.wait_for(lock, m_release_period);
            if (m_release_stop) {
                break;
            }
            lock.unlock();
            if (m_profilers_held.load() && !m_detached && !m_cupti_failed) {
                release_idle_profilers();
            }
            // A device whose retry time for busy counters has passed: the samples declined
            // meanwhile are asked again (the set-up is tried again at the first of them).
            if (take_expired(m_busy_until) && !m_detached) {
                with_sink([](LaunchSink& sink) { sink.on_counters_back(); });
            }
            lock.lock();
        }
    } catch (...) {
    }
}

void CuptiBackend::note_sample_end() noexcept {
    m_last_sample_ns.store(steady_ns(), std::memory_order_relaxed);
}

void CuptiBackend::log_release(std::uint32_t device, std::int64_t idle_ns,
                               std::chrono::steady_clock::duration took) noexcept {
    if (!common::log_enabled(common::LogLevel::debug)) {
        return;
    }
    std::array<char, 160> line{};
    std::snprintf(line.data(), line.size(),
                  "released the range profiler of device %u after %.1f s without a sample "
                  "(teardown %.1f ms, on irf's release thread)",
                  device, static_cast<double>(idle_ns) / 1e9,
                  std::chrono::duration<double, std::milli>(took).count());
    common::log_line(common::LogLevel::debug, line.data());
}

void CuptiBackend::wait_for_launches_beside(std::size_t slot) noexcept {
    // Those launches are between ENTER and EXIT (microseconds); a sample may open once the lock
    // is free, and none of them may land inside it. Bounded like every wait of irf's.
    const auto until = std::chrono::steady_clock::now() + m_lock_wait;
    while (m_release_skips[slot].load() > 0 && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}

void CuptiBackend::release_idle_profilers() noexcept {
    const std::int64_t idle = steady_ns() - m_last_sample_ns.load(std::memory_order_relaxed);
    if (idle < std::chrono::nanoseconds(m_idle_release).count() || m_open_captures.load() > 0) {
        return; // a capture in global mode forbids what a teardown may synchronise
    }
    if (m_before_release_lock) {
        m_before_release_lock();
    }
    std::vector<std::pair<std::uint32_t, CUcontext>> enabled;
    try {
        std::lock_guard<std::mutex> lock(m_state);
        enabled.assign(m_enabled.begin(), m_enabled.end());
    } catch (...) {
        return;
    }
    bool kept = false;
    for (const auto& [device, context] : enabled) {
        SampleLock& sample = m_sample_locks[device % k_lock_slots];
        // No wait: launches or a sample in flight on this device mean "later", not a stall.
        if (!sample.try_lock()) {
            kept = true;
            continue;
        }
        const std::size_t slot = device % k_lock_slots;
        m_releasing[slot].store(true); // launches go on, and a sample defers, instead of waiting
        if (m_open_captures.load() > 0) {
            // Read again under the lock, as begin_sample does: a capture start holds every
            // slot shared until its capture is counted, so none opened since the check above
            // can be missed here.
            m_releasing[slot].store(false);
            wait_for_launches_beside(slot);
            sample.unlock();
            kept = true;
            continue;
        }
        std::unique_ptr<RangeProfiler> retired;
        {
            std::lock_guard<std::mutex> lock(m_state);
            const auto it = m_sessions.find(context);
            if (it != m_sessions.end() && it->second.profiler) {
                retired = std::move(it->second.profiler);
                m_sessions.erase(it); // the next sample sets a fresh one up
            }
            const auto on = m_enabled.find(device);
            if (on != m_enabled.end() && on->second == context) {
                m_enabled.erase(on);
            }
        }
        log_release_begins(device, idle);
        const auto start = std::chrono::steady_clock::now();
        retired.reset(); // stops and disables it, outside m_state (results logged at debug)
        m_releasing[slot].store(false);
        wait_for_launches_beside(slot);
        sample.unlock();
        log_release(device, idle, std::chrono::steady_clock::now() - start);
    }
    if (!kept) {
        std::lock_guard<std::mutex> lock(m_state); // install_session sets it under m_state
        if (m_enabled.empty()) {
            m_profilers_held.store(false);
        }
    }
}

} // namespace irf::intercept::cupti

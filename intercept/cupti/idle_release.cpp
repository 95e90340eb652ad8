// SPDX-License-Identifier: Apache-2.0
// Releasing the counters between bursts of samples. An enabled range profiler holds the
// device's counters for as long as it stays enabled: on the first H100 run an ncu in another
// process failed beside irf long after irf's last sample (docs/validation/h100.md, item 7). A
// profiler idle for m_idle_release is torn down at a launch, as the tensor-types switch tears
// one down (install_session); the next sample sets one up again.
#include "intercept/cupti/cupti_backend_impl.hpp"

namespace irf::intercept::cupti {
namespace {

std::int64_t steady_ns() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

void CuptiBackend::note_sample_end() noexcept {
    m_last_sample_ns.store(steady_ns(), std::memory_order_relaxed);
}

void CuptiBackend::release_idle_profilers() noexcept {
    const std::int64_t idle = steady_ns() - m_last_sample_ns.load(std::memory_order_relaxed);
    if (idle < std::chrono::nanoseconds(m_idle_release).count() || m_open_captures.load() > 0) {
        return; // a capture in global mode forbids what a teardown may synchronise
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
        if (!sample.lock_for(std::chrono::milliseconds{0})) {
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
        retired.reset(); // stops and disables it, outside m_state
        sample.unlock();
    }
    if (!kept) {
        std::lock_guard<std::mutex> lock(m_state); // install_session sets it under m_state
        if (m_enabled.empty()) {
            m_profilers_held.store(false);
        }
    }
}

} // namespace irf::intercept::cupti

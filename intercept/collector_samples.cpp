// SPDX-License-Identifier: Apache-2.0
// The collector's side of samples that end without counters: discarded after a replay, or
// declined by the backend before any replay (the launch then ran as the application made it).
#include "intercept/collector.hpp"

namespace irf::intercept {

void Collector::on_discarded_sample(std::uint64_t correlation_id, const char* reason) noexcept {
    try {
        const std::lock_guard<std::mutex> lock(m_agg_mutex);
        ++m_discarded[reason != nullptr ? reason : "unknown"];
        ++m_stats.discarded;
        resolve_discarded_locked(correlation_id); // no counters will come: let it retire
    } catch (...) {
    }
}

void Collector::on_sample_declined(std::uint64_t correlation_id, const char* reason) noexcept {
    try {
        const std::lock_guard<std::mutex> lock(m_agg_mutex);
        if (reason != nullptr) {
            ++m_discarded[reason];
            ++m_stats.discarded;
        } else {
            ++m_stats.declined;
        }
        unprofile_locked(correlation_id); // it ran unreplayed: an ordinary duration
    } catch (...) {
    }
}

void Collector::on_profiling_off() noexcept {
    m_counters_off.store(true, std::memory_order_relaxed);
}

Collector::Pending* Collector::pending_locked(std::uint64_t correlation_id) {
    auto found = m_pending.find(correlation_id);
    if (found == m_pending.end()) {
        drain_locked(); // the launch may still sit in its thread's log
        found = m_pending.find(correlation_id);
    }
    return found != m_pending.end() ? &found->second : nullptr;
}

/// A declined sample: the launch ran as the application launched it (no replay), so its
/// duration belongs in min/mean/max and it retires with that duration alone.
void Collector::unprofile_locked(std::uint64_t correlation_id) {
    Pending* p = pending_locked(correlation_id);
    if (p != nullptr && p->profiled && !p->timed && !p->counted) {
        p->profiled = false;
    }
}

/// A discarded sample was replayed but brings no counters: it retires once timed.
void Collector::resolve_discarded_locked(std::uint64_t correlation_id) {
    Pending* p = pending_locked(correlation_id);
    if (p != nullptr && p->profiled && !p->counted) {
        p->counted = true;
        retire_locked(correlation_id, *p);
    }
}

/// A record without usable timestamps is the only one its launch gets: the launch stays
/// untimed, but it must not wait for a duration forever.
void Collector::retire_untimed_locked(std::uint64_t correlation_id) {
    Pending* p = pending_locked(correlation_id);
    if (p != nullptr && !p->timed) {
        p->timed = true;
        retire_locked(correlation_id, *p);
    }
}

} // namespace irf::intercept

// SPDX-License-Identifier: Apache-2.0
// The collector's memory bound: launches whose duration never came, and durations whose launch
// was never seen, are retired after a bound and counted instead of kept until exit.
#include "intercept/collector.hpp"

namespace irf::intercept {
namespace {

/// How far `id` is behind `newest` in CUPTI's 32-bit correlation-id space, which wraps after
/// 2^32 calls (`CUpti_ActivityKernel10::correlationId`): serial arithmetic, so an id just past
/// the wrap is ahead of one just before it. Negative: `id` is the newer one.
std::int64_t ids_behind(std::uint64_t newest, std::uint64_t id) noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(newest) -
                                     static_cast<std::uint32_t>(id));
}

} // namespace

bool Collector::is_synthetic_id(std::uint64_t correlation_id) noexcept {
    return correlation_id >= k_first_synthetic_id;
}

/// Graph nodes carry ids from 2^32 up (the CUPTI backend numbers them apart from CUPTI's): they
/// are timed as they arrive and never pend, so one of them must not become the mark that says
/// which real launches are long overdue (docs/cupti-notes.md, "Kernel records that lag").
void Collector::note_timed_locked(std::uint64_t correlation_id) {
    if (is_synthetic_id(correlation_id)) {
        return;
    }
    if (!m_have_newest_timed || ids_behind(correlation_id, m_newest_timed) > 0) {
        m_newest_timed = correlation_id;
        m_have_newest_timed = true;
    }
}

/// Memory grows with kernels, not launches: a launch whose duration has not come while that of
/// a launch m_lost_after ids later has is retired and counted (a dropped activity record), and
/// so is a duration whose launch has not been seen in m_lost_after drained launches. One pass
/// every m_lost_after launches keeps the cost per launch constant.
void Collector::retire_stale_locked() {
    const std::uint64_t now = m_stats.launches;
    const auto bound = static_cast<std::int64_t>(m_lost_after);
    for (auto it = m_pending.begin(); it != m_pending.end();) {
        if (!m_have_newest_timed || is_synthetic_id(it->first) ||
            ids_behind(m_newest_timed, it->first) <= bound) {
            ++it;
            continue;
        }
        if (!it->second.timed) {
            ++m_stats.lost_durations;
        }
        it = m_pending.erase(it); // timed but its counters never came: counted at exit
    }
    for (auto it = m_early_durations.begin(); it != m_early_durations.end();) {
        if (now - it->second.since <= m_lost_after) {
            ++it;
            continue;
        }
        ++m_unmatched_retired;
        it = m_early_durations.erase(it);
    }
    m_next_sweep = now + m_lost_after;
}

} // namespace irf::intercept

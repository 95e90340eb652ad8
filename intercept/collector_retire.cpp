// SPDX-License-Identifier: Apache-2.0
// The collector's memory bound: launches whose duration never came, and durations whose launch
// was never seen, are retired after a bound and counted instead of kept until exit.
#include "intercept/collector.hpp"

namespace irf::intercept {

/// Memory grows with kernels, not launches: a launch whose duration has not come while that of
/// a launch m_lost_after ids later has is retired and counted (a dropped activity record), and
/// so is a duration whose launch has not been seen in m_lost_after drained launches. One pass
/// every m_lost_after launches keeps the cost per launch constant.
void Collector::retire_stale_locked() {
    const std::uint64_t now = m_stats.launches;
    for (auto it = m_pending.begin(); it != m_pending.end();) {
        if (it->first + m_lost_after >= m_newest_timed) {
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

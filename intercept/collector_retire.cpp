// SPDX-License-Identifier: Apache-2.0
// The collector's memory bound: launches whose duration never came, and durations whose launch
// was never seen, are retired after a bound and counted instead of kept until exit.
#include "intercept/collector.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

#include "common/inside_irf.hpp"
#include "common/log.hpp"

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
            if (!it->second.profiled) {
                remember_late_locked(it->first, it->second);
            }
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

/// On the H200 a training step's 300,000 tiny launches after its graph replays lost 5,347
/// durations that came after all, more than 2^17 launches late (tests/data/gpu/h200/
/// session-2026-11-28/call1/graph-long): so the last k_max_late launches retired without a
/// duration are remembered, and such a record still counts for its kernel.
void Collector::remember_late_locked(std::uint64_t id, const Pending& pending) {
    constexpr std::size_t k_max_late = std::size_t{1} << 16;
    if (m_late_order.size() >= k_max_late) {
        m_late.erase(m_late_order.front()); // forgotten: it stays lost
        m_late_order.pop_front();
    }
    m_late[id] = pending;
    m_late_order.push_back(id);
}

bool Collector::apply_late_locked(const DurationRecord& record) {
    const auto found = m_late.find(record.correlation_id);
    if (found == m_late.end()) {
        return false;
    }
    const Pending late = found->second;
    m_late.erase(found); // its m_late_order entry goes when it reaches the front
    add_unprofiled_duration_locked(late, static_cast<double>(record.end_ns - record.start_ns));
    m_stats.lost_durations -= m_stats.lost_durations > 0 ? 1 : 0;
    return true;
}

void Collector::add_unprofiled_duration_locked(const Pending& p, double ns) {
    RegionStats& region = p.stats->regions[p.region];
    region.time_ns += ns;
    (p.cold ? p.stats->cold : p.stats->warm).add(ns);
    if (!p.cold) {
        region.warm.add(ns);
        cluster_duration_locked(*p.stats, ns);
        if (p.stats->held_samples > 0) {
            release_waiting_locked(*p.stats);
        }
    }
}

void Collector::try_drain() noexcept {
    const common::InsideIrf inside; // see on_warning
    try {
        const std::unique_lock<std::mutex> lock(m_agg_mutex, std::try_to_lock);
        if (lock.owns_lock() && m_recording.load(std::memory_order_relaxed)) {
            drain_locked(false); // no sweep here: it would cost this launch a pass over m_pending
        }
    } catch (...) { // out of memory: the next drain takes the rest
    }
}

void Collector::admit_locked(const LaunchLogEntry& e) {
    ++m_stats.launches;
    ++e.stats->launches;
    ++e.stats->regions[e.region].launches;
    e.stats->unprofiled_why |= e.why;
    const bool profiled = profiles(e.decision);
    // A profiled launch always waits for its counters: the sampler bounds how many there are.
    if (!profiled && m_pending.size() >= m_max_pending && m_pending.count(e.correlation_id) == 0) {
        count_only_locked();
        if (const auto d = m_early_durations.find(e.correlation_id); d != m_early_durations.end()) {
            const DurationRecord record = d->second.record;
            m_early_durations.erase(d);
            (void)aggregate_locked(record);
        }
        return;
    }
    Pending& p = m_pending[e.correlation_id];
    p = Pending{e.stats, e.cold, profiled, false, false, false, e.region, 0};
    p.tensor_types = e.decision == LaunchDecision::profile_tensor_types;
    apply_early_locked(e.correlation_id);
}

void Collector::count_only_locked() {
    if (m_counted_only++ > 0) {
        return;
    }
    const std::string line =
        std::to_string(m_max_pending) +
        " launches are waiting for their kernel records (none came back for them yet); later "
        "launches are counted per kernel and their durations summed apart, so memory stays "
        "bounded (docs/cupti-notes.md)";
    static_cast<void>(m_warnings.add(line));
    common::log_line(config::LogLevel::warn, line);
}

/// A record for a launch that was only counted (past the bound, or after timing stopped) finds
/// no waiting launch: its kernel is unknown, so it is summed in aggregate while such launches
/// are still without one.
bool Collector::aggregate_locked(const DurationRecord& record) {
    const std::uint64_t counted = m_counted_only + m_untimed_total.load(std::memory_order_relaxed);
    if (m_aggregate_timed >= counted) {
        return false;
    }
    ++m_aggregate_timed;
    m_aggregate_ns += static_cast<double>(record.end_ns - record.start_ns);
    return true;
}

void Collector::add_bound_warnings_locked(model::Profile& profile) const {
    if (m_counted_only == 0) {
        return;
    }
    // After the backend's flush no record is still coming: the counted-only launches that no
    // record was matched to lost theirs.
    profile.coverage.lost_durations += m_counted_only - std::min(m_counted_only, m_aggregate_timed);
    std::array<char, 32> ms{};
    std::snprintf(ms.data(), ms.size(), "%.3f", m_aggregate_ns / 1e6);
    profile.warnings.push_back(std::to_string(m_counted_only) + " launches past the bound of " +
                               std::to_string(m_max_pending) +
                               " waiting for their kernel records were counted per kernel only; " +
                               std::to_string(m_aggregate_timed) +
                               " durations of counted-only launches came (" + ms.data() +
                               " ms in all) and are in no kernel's time");
}

CollectorStats Collector::stats() {
    const std::lock_guard<std::mutex> lock(m_agg_mutex);
    drain_locked();
    CollectorStats s = m_stats;
    s.profile_decisions = m_profile_decisions.load(std::memory_order_relaxed);
    s.skipped = m_sampler.skipped();
    s.dropped = m_dropped.load(std::memory_order_relaxed);
    s.unmatched_durations = m_early_durations.size() + m_unmatched_retired;
    s.pending = m_pending.size();
    s.unmatched_samples = m_early_samples.size();
    s.counted_only = m_counted_only;
    s.aggregate_durations = m_aggregate_timed;
    s.skipped_records = m_skipped_records.load(std::memory_order_relaxed);
    return s;
}

} // namespace irf::intercept

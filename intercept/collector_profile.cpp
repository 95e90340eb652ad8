// SPDX-License-Identifier: Apache-2.0
// The collector's aggregation side: durations and counters attributed by correlation id, and
// the kernels and coverage of the profile.
#include <algorithm>

#include "common/log.hpp"
#include "common/repeats.hpp"
#include "common/time_format.hpp"
#include "intercept/collector.hpp"
#include "intercept/nvtx_stack.hpp"
#include "model/regions.hpp"

namespace irf::intercept {
namespace {

/// Bound on durations/samples waiting for a launch that may never be seen (graph kernels).
constexpr std::size_t k_max_early = 1u << 20;

void add_counters(model::Counters& into, const model::Counters& sample) {
    for (const auto& [name, value] : sample) {
        into[name] += value;
    }
}

model::TimeStats to_time_stats(const DurationAccumulator& timed, double total) {
    model::TimeStats t;
    if (timed.count == 0) {
        return t;
    }
    t.total = total;
    t.min = timed.min;
    t.max = timed.max;
    t.mean = timed.total / static_cast<double>(timed.count);
    return t;
}

/// Final counters of one kernel: samples after the first launch when there are any, else the
/// provisional first-launch sample. Rates (clock_hz) are averaged, not summed; time_ns comes
/// from activity durations when the backend did not measure it.
void finish_counters(const KernelStats& k, model::KernelRecord& r) {
    const bool warm = k.profiled > 0;
    r.counters = warm ? k.counters : k.cold_counters;
    r.profiled_launches = warm ? k.profiled : k.cold_profiled;
    const double profiled_ns = warm ? k.profiled_ns : k.cold_profiled_ns;
    if (r.profiled_launches == 0) {
        return;
    }
    const auto clock = r.counters.find("clock_hz");
    if (clock != r.counters.end()) {
        clock->second /= static_cast<double>(r.profiled_launches);
    }
    if (r.counters.count("time_ns") == 0 && profiled_ns > 0) {
        r.counters["time_ns"] = profiled_ns;
    }
    if (!warm) {
        r.notes.push_back("profiled only at a first launch: its time includes lazy module loading");
    }
}

/// The application's time for a region's profiled launches: a replay pass (with the
/// save/restore around it) is not the kernel as the application ran it, so each counts at the
/// mean of the region's unprofiled warm launches, else of the kernel's, else at its pass
/// duration when the kernel has no unprofiled warm launch (docs/output-schema.md, time_ns).
double profiled_time_ns(const KernelStats& k, const RegionStats& region) {
    const DurationAccumulator& like = region.warm.count > 0 ? region.warm : k.warm;
    if (like.count == 0) {
        return region.replayed.total;
    }
    return static_cast<double>(region.replayed.count) * like.total /
           static_cast<double>(like.count);
}

/// Time of a region's launches as the application ran them.
double region_time_ns(const KernelStats& k, const RegionStats& region) {
    return region.time_ns + profiled_time_ns(k, region);
}

/// The kernel's total: the sum over its regions (launches outside every range are the root's).
double kernel_total_ns(const KernelStats& k) {
    double total = 0;
    for (const auto& [path, region] : k.regions) {
        total += region_time_ns(k, region);
    }
    return total;
}

/// The kernel's NVTX paths (launches outside every range are not listed), the profiled count
/// taken from the same samples as finish_counters.
std::vector<model::KernelRegion> kernel_regions(const KernelStats& k) {
    std::vector<model::KernelRegion> out;
    for (const auto& [path, region] : k.regions) {
        if (path != nvtx::k_root) {
            out.push_back({nvtx::path_name(path), region.launches, region_time_ns(k, region),
                           k.profiled > 0 ? region.profiled : region.cold_profiled});
        }
    }
    return out;
}

model::KernelRecord to_record(const KernelStats& k, Symbolizer& symbolizer, int frames) {
    model::KernelRecord r;
    r.name = k.name;
    r.mangled = k.mangled;
    r.call_site = symbolizer.describe(k.call_stack, frames);
    r.launch = k.launch;
    r.launches = k.launches;
    const double total = kernel_total_ns(k);
    if (k.warm.count == 0 && k.cold.count == 0 && k.replayed.count > 0) {
        // Every timed launch ran under kernel replay: better than nothing, but flagged.
        r.time_ns = to_time_stats(k.replayed, total); // total = the replay passes here
        r.notes.push_back("timed only under kernel replay (profiled launches): durations include "
                          "replay overhead");
    } else if (k.warm.count > 0) {
        r.time_ns = to_time_stats(k.warm, total);
        if (k.cold.count > 0) {
            r.notes.push_back("first launch excluded from min/mean/max (lazy module loading): " +
                              common::format_time(k.cold.total));
        }
    } else if (k.cold.count > 0) {
        r.time_ns = to_time_stats(k.cold, total);
        r.notes.push_back("timed only at a first launch: includes lazy module loading");
    }
    finish_counters(k, r);
    r.regions = kernel_regions(k);
    return r;
}

void add_nvtx_warnings(std::vector<std::string>& warnings) {
    const nvtx::NvtxStats n = nvtx::stats();
    if (n.unbalanced_pops > 0) {
        warnings.push_back(std::to_string(n.unbalanced_pops) +
                           " NVTX pops had no open range (unbalanced push/pop; ignored)");
    }
    if (n.too_deep > 0) {
        warnings.push_back(std::to_string(n.too_deep) + " NVTX pushes went deeper than " +
                           std::to_string(nvtx::k_max_depth) +
                           " ranges (attributed to the deepest kept range)");
    }
    if (n.paths_dropped > 0) {
        warnings.push_back(
            std::to_string(n.paths_dropped) + " new NVTX range paths were not kept (limit of " +
            std::to_string(nvtx::k_max_paths) + " reached; attributed to the enclosing range)");
    }
    if (n.open_dropped > 0) {
        warnings.push_back(std::to_string(n.open_dropped) +
                           " NVTX start/end ranges were not tracked (more than " +
                           std::to_string(nvtx::k_max_open_ranges) +
                           " open at once: starts without ends?); filters ignore them");
    }
}

} // namespace

void Collector::retire_locked(std::uint64_t correlation_id, Pending& pending) {
    if (pending.timed && (!pending.profiled || pending.counted)) {
        m_pending.erase(correlation_id);
    }
}

void Collector::drain_locked() {
    std::vector<LaunchLog*> logs;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        for (const auto& log : m_logs) {
            logs.push_back(log.get());
        }
    }
    for (LaunchLog* log : logs) {
        log->drain([this](const LaunchLogEntry& e) {
            ++m_stats.launches;
            ++e.stats->launches;
            ++e.stats->regions[e.region].launches;
            m_pending[e.correlation_id] =
                Pending{e.stats, e.cold, e.profiled, false, false, e.region};
            apply_early_locked(e.correlation_id);
        });
    }
    if (m_stats.launches >= m_next_sweep) {
        retire_stale_locked();
    }
}

/// Records that arrived before their launch was drained (a writer between its append and its
/// publish) are looked up by the launch just drained: a scan of every waiting record on each
/// drain made each unmatched record cost O(waiting), quadratic with records that never match.
void Collector::apply_early_locked(std::uint64_t correlation_id) {
    if (const auto d = m_early_durations.find(correlation_id); d != m_early_durations.end()) {
        const DurationRecord record = d->second.record;
        m_early_durations.erase(d);
        (void)apply_duration_locked(record);
    }
    if (const auto c = m_early_samples.find(correlation_id); c != m_early_samples.end()) {
        const CounterSample sample = std::move(c->second);
        m_early_samples.erase(c);
        (void)apply_counters_locked(sample);
    }
}

bool Collector::apply_duration_locked(const DurationRecord& record) {
    const auto found = m_pending.find(record.correlation_id);
    if (found == m_pending.end() || found->second.timed) {
        return false;
    }
    Pending& p = found->second;
    const double ns =
        record.end_ns > record.start_ns ? static_cast<double>(record.end_ns - record.start_ns) : 0;
    RegionStats& region = p.stats->regions[p.region];
    if (p.profiled) {
        // A replayed launch's duration is one replay pass (with save/restore around it), not
        // the application's kernel: it feeds time_ns of the counters and never min/mean/max;
        // totals count the launch at the unprofiled mean (profiled_time_ns).
        p.stats->replayed.add(ns);
        region.replayed.add(ns);
        (p.cold ? p.stats->cold_profiled_ns : p.stats->profiled_ns) += ns;
    } else {
        region.time_ns += ns;
        (p.cold ? p.stats->cold : p.stats->warm).add(ns);
        if (!p.cold) {
            region.warm.add(ns);
        }
    }
    p.timed = true;
    m_newest_timed = std::max(m_newest_timed, record.correlation_id);
    retire_locked(record.correlation_id, p);
    return true;
}

bool Collector::apply_counters_locked(const CounterSample& sample) {
    const auto found = m_pending.find(sample.correlation_id);
    if (found == m_pending.end() || !found->second.profiled || found->second.counted) {
        return false;
    }
    Pending& p = found->second;
    if (p.cold) {
        add_counters(p.stats->cold_counters, sample.counters);
        ++p.stats->cold_profiled;
        ++p.stats->regions[p.region].cold_profiled;
    } else {
        add_counters(p.stats->counters, sample.counters);
        ++p.stats->profiled;
        ++p.stats->regions[p.region].profiled;
    }
    ++m_stats.samples;
    p.counted = true;
    retire_locked(sample.correlation_id, p);
    return true;
}

/// Once recording has stopped, the logs are drained one last time; after that a record whose
/// launch is unknown belongs to a launch made during finalization, which is not recorded. It is
/// dropped at once: draining and retrying the early records for each of them (threads keep
/// launching while the profile is built) would make finalization quadratic.
bool Collector::stopped_and_drained_locked() {
    if (m_recording.load(std::memory_order_relaxed)) {
        return false;
    }
    if (!m_final_drain_done) {
        drain_locked();
        m_final_drain_done = true;
    }
    return true;
}

void Collector::on_duration(const DurationRecord& record) noexcept {
    try {
        const std::lock_guard<std::mutex> lock(m_agg_mutex);
        if ((record.start_ns == 0 && record.end_ns == 0) || record.end_ns < record.start_ns) {
            ++m_stats.invalid_durations; // no timestamps, or an end before the start
            retire_untimed_locked(record.correlation_id);
            return;
        }
        if (apply_duration_locked(record)) {
            return;
        }
        if (stopped_and_drained_locked()) {
            (void)apply_duration_locked(record);
            return;
        }
        drain_locked();
        if (!apply_duration_locked(record) && m_early_durations.size() < k_max_early) {
            m_early_durations.emplace(record.correlation_id,
                                      EarlyDuration{record, m_stats.launches});
        }
    } catch (...) { // allocation failure: this launch stays untimed
    }
}

void Collector::on_counters(const CounterSample& sample) noexcept {
    try {
        const std::lock_guard<std::mutex> lock(m_agg_mutex);
        if (apply_counters_locked(sample)) {
            return;
        }
        if (stopped_and_drained_locked()) {
            (void)apply_counters_locked(sample);
            return;
        }
        drain_locked();
        if (!apply_counters_locked(sample) && m_early_samples.size() < k_max_early) {
            m_early_samples.emplace(sample.correlation_id, sample);
        }
    } catch (...) {
    }
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
    return s;
}

void Collector::fill_profile(model::Profile& profile) {
    const CollectorStats s = stats();
    const std::lock_guard<std::mutex> agg(m_agg_mutex);
    const std::lock_guard<std::mutex> lock(m_mutex);
    Symbolizer symbolizer;
    std::vector<model::KernelRecord> kernels;
    const auto untimed = untimed_launches_locked(); // after timing stopped: counts only
    std::uint64_t untimed_total = 0;
    for (const auto& [key, stats] : m_kernels) {
        (void)key;
        const auto counted = untimed.find(stats.get());
        const std::uint64_t extra = counted != untimed.end() ? counted->second : 0;
        if (stats->launches + extra > 0) {
            kernels.push_back(to_record(*stats, symbolizer, m_callstack));
            kernels.back().launches += extra;
            untimed_total += extra;
        }
    }
    std::sort(kernels.begin(), kernels.end(), [](const auto& a, const auto& b) {
        return a.time_ns.total != b.time_ns.total ? a.time_ns.total > b.time_ns.total
                                                  : a.name < b.name;
    });
    profile.coverage.launches = s.launches + untimed_total;
    profile.coverage.kernels = kernels.size();
    profile.coverage.profiled_launches = s.samples;
    profile.coverage.discarded_samples = m_discarded;
    profile.coverage.invalid_durations = s.invalid_durations;
    // After the backend's flush no record is still coming: launches still untimed are lost too.
    profile.coverage.lost_durations =
        s.lost_durations + static_cast<std::uint64_t>(std::count_if(
                               m_pending.begin(), m_pending.end(),
                               [](const auto& entry) { return !entry.second.timed; }));
    profile.kernels = std::move(kernels);
    for (const auto& [text, times] : m_warnings.counts()) {
        profile.warnings.push_back(text + common::repeat_suffix(times));
    }
    if (s.dropped > 0) {
        profile.warnings.push_back(std::to_string(s.dropped) +
                                   " launches could not be recorded (out of memory)");
    }
    if (s.unmatched_durations > 0) {
        profile.warnings.push_back(std::to_string(s.unmatched_durations) +
                                   " kernel durations had no intercepted launch (not counted)");
    }
    add_nvtx_warnings(profile.warnings);
    if (untimed_total > 0) {
        profile.warnings.push_back(std::to_string(untimed_total) +
                                   " launches after kernel timing stopped were counted only (no "
                                   "duration, no NVTX region)");
    }
    if (m_capture_range && !m_range_opened.load(std::memory_order_relaxed) && s.launches > 0) {
        profile.warnings.push_back("IRF_CAPTURE_RANGE=cudaProfilerApi: the application never "
                                   "called cudaProfilerStart, so no launch was profiled");
    }
    model::roll_up_regions(profile);
    if (s.discarded > 0) {
        profile.warnings.push_back(std::to_string(s.discarded) +
                                   " samples were discarded (coverage.discarded_samples says why)");
    }
    if (profile.coverage.lost_durations > 0) {
        profile.warnings.push_back(std::to_string(profile.coverage.lost_durations) +
                                   " launches never received their duration (activity records "
                                   "dropped; coverage.lost_durations): their time is missing");
    }
    if (s.invalid_durations > 0) {
        profile.warnings.push_back(std::to_string(s.invalid_durations) +
                                   " kernel activity records had zero or reversed timestamps "
                                   "(dropped, coverage.invalid_durations)");
    }
    const std::uint64_t accounted = s.samples + s.discarded + s.declined;
    if (s.profile_decisions > accounted) {
        profile.warnings.push_back(std::to_string(s.profile_decisions - accounted) +
                                   " launches chosen for profiling delivered no counters");
    }
}

} // namespace irf::intercept

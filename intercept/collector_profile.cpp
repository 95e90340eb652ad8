// SPDX-License-Identifier: Apache-2.0
// The collector's aggregation side: durations and counters attributed by correlation id, and
// the kernels and coverage of the profile.
#include <algorithm>

#include "common/inside_irf.hpp"
#include "common/log.hpp"
#include "common/repeats.hpp"
#include "common/time_format.hpp"
#include "intercept/collector.hpp"
#include "intercept/collector_record.hpp"
#include "intercept/nvtx_stack.hpp"
#include "model/profile/duration_clusters.hpp"
#include "model/roofline/regions.hpp"

namespace irf::intercept {
namespace {

/// Bounds on durations and samples waiting for a launch not yet drained (a writer between its
/// append and its publish): a few MB at most, whatever the backend delivers.
constexpr std::size_t k_max_early = 1u << 16;
constexpr std::size_t k_max_early_samples = 1u << 12;

void add_counters(model::Counters& into, const model::Counters& sample) {
    for (const auto& [name, value] : sample) {
        into[name] += value;
    }
}

/// The values a tensor-types sample contributes: tensor ops by input type, and the tensor
/// instructions that scale them to the kernel's other samples (collector_record.cpp).
void add_tensor_types(model::Counters& into, const model::Counters& sample) {
    for (const auto& [name, value] : sample) {
        if (name.rfind("tensor_ops_", 0) == 0 || name == "inst_tensor") {
            into[name] += value;
        }
    }
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

void Collector::drain_locked(bool sweep) {
    std::vector<LaunchLog*> logs;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        for (const auto& log : m_logs) {
            logs.push_back(log.get());
        }
    }
    for (LaunchLog* log : logs) {
        log->drain([this](const LaunchLogEntry& e) { admit_locked(e); });
    }
    if (sweep && m_stats.launches >= m_next_sweep) {
        retire_stale_locked();
    }
}

/// Records that came before their launch was drained are looked up by the launch just drained:
/// a scan of every waiting record on each drain was quadratic with records that never match.
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
    if (p.pass) {
        // Under a pass's instrumentation, up to 40x its unprofiled duration (H200, docs/
        // configuration.md, IRF_REPLAY): imputed like a replayed launch, never clustered.
        p.stats->replayed.add(ns);
        p.stats->passes.add(ns);
        region.replayed.add(ns);
        p.replay_ns = ns;
        note_pass_duration_locked(record.correlation_id);
    } else if (p.profiled) {
        // A replayed launch's duration is one replay pass (with save/restore around it), not
        // the application's kernel: it feeds time_ns of the counters and never min/mean/max.
        // Totals take the launch's own duration from its counters (apply_own_time_locked),
        // else impute it (profiled_time_ns).
        p.stats->replayed.add(ns);
        region.replayed.add(ns);
        if (!p.tensor_types) { // not in the counters the samples' time divides
            (p.cold ? p.stats->cold_profiled_ns : p.stats->profiled_ns) += ns;
        }
        p.replay_ns = ns;
        if (p.measured) {
            ++region.measured_timed;
            region.measured_replay_ns += ns;
        }
    } else {
        add_unprofiled_duration_locked(p, ns);
    }
    p.timed = true;
    note_timed_locked(record.correlation_id);
    retire_locked(record.correlation_id, p);
    return true;
}

/// A profiled launch's own duration, gpu__time_duration in its sample as ncu reports it, counts
/// in totals (docs/output-schema.md, time_ns), so a key of several shapes sums right. It runs
/// longer than unprofiled (H100: about 1 us, 3x with caches the restore left cold, tests/data/
/// gpu/h100/call3/irf), so min/mean/max use it only for a kernel without unprofiled launches.
void Collector::apply_own_time_locked(Pending& p, double ns) {
    RegionStats& region = p.stats->regions[p.region];
    p.measured = true;
    region.time_ns += ns;
    if (p.cold) {
        p.stats->cold.add(ns);
    } else {
        region.own.add(ns);
        p.stats->own.add(ns);
        if (p.tensor_types) {
            // No verdict counters of its own: like an unprofiled launch, its cluster may ask
            // for a sample.
            cluster_duration_locked(*p.stats, ns);
        } else {
            (void)model::add_to_clusters(p.stats->clusters, ns, true);
        }
    }
    if (p.timed) {
        ++region.measured_timed;
        region.measured_replay_ns += p.replay_ns;
    }
}

bool Collector::apply_counters_locked(const CounterSample& sample) {
    const auto found = m_pending.find(sample.correlation_id);
    if (found == m_pending.end() || !found->second.profiled || found->second.counted) {
        return false;
    }
    Pending& p = found->second;
    if (const auto own = sample.counters.find("time_ns");
        !p.pass && own != sample.counters.end() && own->second > 0) { // a pass: its record's
        apply_own_time_locked(p, own->second);
    }
    if (p.tensor_types) {
        add_tensor_types(p.stats->tensor_counters, sample.counters);
        ++p.stats->tensor_profiled;
    } else if (p.cold) {
        add_counters(p.stats->cold_counters, sample.counters);
        ++p.stats->cold_profiled;
        ++p.stats->regions[p.region].cold_profiled;
    } else {
        add_counters(p.stats->counters, sample.counters);
        ++p.stats->profiled;
        if (sample.by_launches) { // the passes ran on several launches (IRF_REPLAY)
            ++p.stats->launch_samples;
            p.stats->pass_launches += sample.launches;
        }
        ++p.stats->regions[p.region].profiled;
    }
    if (!p.tensor_types) {
        request_tensor_types_locked(*p.stats, sample.counters);
    }
    ++m_stats.samples;
    p.counted = true;
    retire_locked(sample.correlation_id, p);
    return true;
}

/// Once recording has stopped, the logs are drained one last time; after that a record whose
/// launch is unknown belongs to a launch made during finalization, which is not recorded. It is
/// dropped at once: draining and retrying the early records for each of them (threads keep
/// launching while the profile is built) would make finalization quadratic. Only a graph node
/// that the final activity flush reports (launched before finalization, its launch just before
/// its duration; tests/data/gpu/h100/hazards) makes the logs worth draining again.
bool Collector::stopped_and_drained_locked() {
    if (m_recording.load(std::memory_order_relaxed)) {
        return false;
    }
    if (!m_final_drain_done || m_late_graph_nodes.exchange(false)) {
        drain_locked();
        m_final_drain_done = true;
    }
    return true;
}

/// On the H100 every launch the range profiler replayed came back with a record without
/// timestamps (tests/data/gpu/h100/irf: invalid_durations equalled profiled_launches in every
/// profile). Its time comes from its counters (apply_own_time_locked): expected, not a loss,
/// so it retires without the invalid-durations warning.
bool Collector::replayed_without_timestamps_locked(const DurationRecord& record) {
    if (record.start_ns != 0 || record.end_ns != 0) {
        return false;
    }
    Pending* p = pending_locked(record.correlation_id);
    if (p == nullptr || !p->profiled || p->timed) {
        return false;
    }
    p->timed = true;
    retire_locked(record.correlation_id, *p);
    return true;
}

void Collector::on_duration(const DurationRecord& record) noexcept {
    if (m_skips && !is_synthetic_id(record.correlation_id) &&
        m_skips->take(record.correlation_id)) {
        m_skipped_records.fetch_add(1, std::memory_order_relaxed); // untimed: IRF_TIMING
        return;
    }
    const common::InsideIrf inside; // see on_warning
    try {
        const std::lock_guard<std::mutex> lock(m_agg_mutex);
        if ((record.start_ns == 0 && record.end_ns == 0) || record.end_ns < record.start_ns) {
            if (replayed_without_timestamps_locked(record)) {
                return;
            }
            ++m_stats.invalid_durations; // no timestamps, or an end before the start
            retire_untimed_locked(record.correlation_id);
            return;
        }
        if (apply_duration_locked(record)) {
            return;
        }
        if (stopped_and_drained_locked()) {
            if (!apply_duration_locked(record) && !apply_late_locked(record)) {
                (void)aggregate_locked(record);
            }
            return;
        }
        drain_locked();
        if (apply_duration_locked(record) || apply_late_locked(record) ||
            aggregate_locked(record)) {
            return;
        }
        if (m_early_durations.size() < k_max_early) {
            m_early_durations.emplace(record.correlation_id,
                                      EarlyDuration{record, m_stats.launches});
        }
    } catch (...) { // allocation failure: this launch stays untimed
    }
}

void Collector::on_counters(const CounterSample& sample) noexcept {
    const common::InsideIrf inside;
    try {
        const std::lock_guard<std::mutex> lock(m_agg_mutex);
        if (sample.by_launches && hold_locked(sample)) {
            return; // applied once its pass launches are timed (collector_replay.cpp)
        }
        if (apply_counters_locked(sample)) {
            return;
        }
        if (stopped_and_drained_locked()) {
            (void)apply_counters_locked(sample);
            return;
        }
        drain_locked();
        if (!apply_counters_locked(sample) && m_early_samples.size() < k_max_early_samples) {
            m_early_samples.emplace(sample.correlation_id, sample);
        }
    } catch (...) {
    }
}

void Collector::fill_profile(model::Profile& profile) {
    {
        const std::lock_guard<std::mutex> agg(m_agg_mutex);
        release_held_locked(); // samples whose pass launches' records never came
    }
    const CollectorStats s = stats();
    const std::lock_guard<std::mutex> agg(m_agg_mutex);
    const std::lock_guard<std::mutex> lock(m_mutex);
    Symbolizer symbolizer;
    std::vector<model::KernelRecord> kernels;
    const auto untimed = counted_launches_locked(false);  // after timing stopped: counts only
    const auto estimated = counted_launches_locked(true); // IRF_TIMING=sampled
    const auto count_of = [](const auto& counts, const KernelStats* stats) {
        const auto found = counts.find(stats);
        return found != counts.end() ? found->second : std::uint64_t{0};
    };
    std::uint64_t untimed_total = 0, estimated_total = 0;
    for (const auto& [key, stats] : m_kernels) {
        (void)key;
        const std::uint64_t extra = count_of(untimed, stats.get());
        const std::uint64_t guessed = count_of(estimated, stats.get());
        if (stats->launches + extra + guessed > 0) {
            kernels.push_back(to_record(*stats, symbolizer, m_callstack));
            kernels.back().launches += extra;
            add_timing_estimate(*stats, guessed, kernels.back());
            untimed_total += extra;
            estimated_total += guessed;
        }
    }
    std::sort(kernels.begin(), kernels.end(), [](const auto& a, const auto& b) {
        return a.time_ns.total != b.time_ns.total ? a.time_ns.total > b.time_ns.total
                                                  : a.name < b.name;
    });
    profile.coverage.launches = s.launches + untimed_total + estimated_total;
    profile.coverage.kernels = kernels.size();
    profile.coverage.profiled_launches = s.samples;
    profile.coverage.discarded_samples = m_discarded;
    profile.coverage.invalid_durations = s.invalid_durations;
    // After the backend's flush no record is still coming: launches still untimed are lost too.
    profile.coverage.lost_durations =
        s.lost_durations + static_cast<std::uint64_t>(std::count_if(
                               m_pending.begin(), m_pending.end(),
                               [](const auto& entry) { return !entry.second.timed; }));
    add_bound_warnings_locked(profile);
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

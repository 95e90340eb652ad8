// SPDX-License-Identifier: Apache-2.0
// The collector's side of samples taken one pass per launch (IRF_REPLAY, docs/configuration.md):
// the launches that ran a later pass, and samples that were deferred or given up.
#include "intercept/collector.hpp"

#include <algorithm>

#include "model/profile/duration_clusters.hpp"

namespace irf::intercept {
namespace {

/// Samples by launches (and their pass launches) waiting for durations at once; past it a
/// sample is applied unchecked. The backend keeps at most 64 open (pass_samples.hpp).
constexpr std::size_t k_max_held = 4096;

/// A shape's discard key (coverage.discarded_samples).
constexpr const char* k_discard_mixed = "mixed_shapes";

/// Unprofiled launches of a kernel, after a sample's passes, whose durations decide whether the
/// kernel runs one shape (as many as the default set's passes on the H100 and H200).
constexpr std::uint64_t k_shape_launches = 4;

/// True when unprofiled durations spread over more than one duration cluster.
bool several_shapes(const DurationAccumulator& warm) {
    return warm.count >= 2 && warm.max > model::k_cluster_ratio * warm.min;
}

} // namespace

// A pass launch (the sample's first included) ran once, as launched, but under counters (a pass
// may instrument the kernel's code): like a profiled launch's own duration
// (apply_own_time_locked) its activity duration counts in the totals and stays out of
// min/mean/max. The counters are the sample's, which come as the first launch's.
void Collector::on_sample_pass(std::uint64_t correlation_id, std::uint64_t sample_id) noexcept {
    try {
        const std::lock_guard<std::mutex> lock(m_agg_mutex);
        Pending* p = pending_locked(correlation_id);
        const bool first = correlation_id == sample_id; // its counters are the sample's
        if (p != nullptr && !p->timed && (first ? p->profiled : !p->profiled)) {
            p->pass = true;
            p->profiled = true;
            p->counted = p->counted || !first; // a later pass brings no counters
            if (m_pass_of.size() < k_max_held) {
                m_pass_of[correlation_id] = sample_id;
                ++m_held[sample_id].untimed;
            }
        }
    } catch (...) {
    }
}

// The configuration did not recur within the backend's bound (or a pass was refused), so the
// passes so far are lost. Its kernel falls back to kernel replay, which needs one launch only,
// and one sample is asked again in place of the lost one.
void Collector::on_sample_abandoned(std::uint64_t sample_id, const char* reason) noexcept {
    try {
        const std::lock_guard<std::mutex> lock(m_agg_mutex);
        ++m_discarded[reason != nullptr ? reason : "unknown"];
        ++m_stats.discarded;
        m_held.erase(sample_id); // its counters will not come
        Pending* p = pending_locked(sample_id);
        if (p == nullptr) {
            return; // retired already: the discard is counted, the kernel not asked again
        }
        KernelStats& k = *p->stats;
        k.unprofiled_why |= k_why_recur;
        k.sampling.kernel_replay.store(true, std::memory_order_relaxed);
        k.sampling.retry_wanted.fetch_add(1, std::memory_order_seq_cst);
        unsaturate_locked(k);
        if (p->profiled && !p->counted) { // a pass ran on it: no counters will come
            p->counted = true;
            retire_locked(sample_id, *p);
        }
    } catch (...) {
    }
}

// Another sample of the configuration still collects its passes (or, for a tensor-types
// sample, samples by launches hold its context's profiler): this launch ran unprofiled, and
// the sample it was to take is asked again for a later launch.
void Collector::on_sample_deferred(std::uint64_t correlation_id) noexcept {
    try {
        const std::lock_guard<std::mutex> lock(m_agg_mutex);
        ++m_stats.declined;
        Pending* p = pending_locked(correlation_id);
        if (p == nullptr || !p->profiled || p->counted) {
            return;
        }
        KernelStats& k = *p->stats;
        const bool tensor_types = p->tensor_types; // its profiler holds samples by launches
        unprofile_locked(correlation_id);
        if (tensor_types) {
            k.sampling.tensor_wanted.store(1, std::memory_order_seq_cst);
        } else {
            k.sampling.retry_wanted.fetch_add(1, std::memory_order_seq_cst);
        }
        unsaturate_locked(k);
    } catch (...) {
    }
}

// One key can run several shapes (a GEMM's grid does not encode K), and each pass of a sample by
// launches runs on another launch: counters merged from launches of different shapes describe
// none of them. The pass launches' own durations cannot tell (each pass runs its own
// instrumentation: on the H200 they differed by pass up to 40x, tests/data/gpu/h200/
// session-2026-11-28/call1/replay), so the sample is held until its pass launches are timed and
// k_shape_launches more unprofiled launches of its kernel are, and discarded (its kernel sampled
// again by kernel replay) when the kernel's unprofiled durations spread over more than one
// duration cluster (docs/configuration.md, IRF_REPLAY). At exit it is judged on what came.
bool Collector::hold_locked(const CounterSample& sample) {
    const auto it = m_held.find(sample.correlation_id);
    if (it == m_held.end() && m_held.size() >= k_max_held) {
        return false;
    }
    HeldSample& held = m_held[sample.correlation_id];
    held.sample = sample;
    held.arrived = true;
    if (it == m_held.end() || held.stats == nullptr) {
        if (Pending* p = pending_locked(sample.correlation_id); p != nullptr) {
            held.stats = p->stats;
            held.warm_goal = p->stats->warm.count + k_shape_launches;
            ++p->stats->held_samples;
        }
    }
    release_if_ready_locked(sample.correlation_id);
    return true;
}

void Collector::note_pass_duration_locked(std::uint64_t correlation_id) {
    const auto pass = m_pass_of.find(correlation_id);
    if (pass == m_pass_of.end()) {
        return;
    }
    const std::uint64_t sample_id = pass->second;
    m_pass_of.erase(pass);
    const auto it = m_held.find(sample_id);
    if (it == m_held.end()) {
        return;
    }
    HeldSample& held = it->second;
    held.untimed -= held.untimed > 0 ? 1 : 0;
    release_if_ready_locked(sample_id);
}

void Collector::release_waiting_locked(const KernelStats& stats) {
    std::vector<std::uint64_t> waiting;
    for (const auto& [id, held] : m_held) {
        if (held.stats == &stats) {
            waiting.push_back(id);
        }
    }
    for (const std::uint64_t id : waiting) {
        release_if_ready_locked(id);
    }
}

void Collector::release_if_ready_locked(std::uint64_t sample_id) {
    const auto it = m_held.find(sample_id);
    if (it == m_held.end() || !it->second.arrived) {
        return;
    }
    const HeldSample& waiting = it->second;
    const bool shapes_known =
        waiting.stats == nullptr || waiting.stats->warm.count >= waiting.warm_goal;
    if (!waiting.final && (waiting.untimed > 0 || !shapes_known)) {
        return;
    }
    const HeldSample held = std::move(it->second);
    m_held.erase(it);
    if (held.stats != nullptr) {
        --held.stats->held_samples;
    }
    if (held.stats != nullptr && several_shapes(held.stats->warm)) {
        ++m_discarded[k_discard_mixed];
        ++m_stats.discarded;
        Pending* p = pending_locked(sample_id);
        if (p != nullptr) {
            KernelStats& k = *p->stats;
            k.sampling.kernel_replay.store(true, std::memory_order_relaxed);
            k.sampling.retry_wanted.fetch_add(1, std::memory_order_seq_cst);
            unsaturate_locked(k);
        }
        resolve_discarded_locked(sample_id);
        return;
    }
    if (!apply_counters_locked(held.sample) && m_early_samples.size() < k_max_held) {
        m_early_samples.emplace(sample_id, held.sample); // its launch not drained yet
    }
}

void Collector::release_held_locked() {
    std::vector<std::uint64_t> ready;
    for (auto& [id, held] : m_held) {
        if (held.arrived) {
            held.final = true; // no record is coming any more: judged on what came
            ready.push_back(id);
        }
    }
    for (const std::uint64_t id : ready) {
        release_if_ready_locked(id);
    }
}

} // namespace irf::intercept

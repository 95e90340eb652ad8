// SPDX-License-Identifier: Apache-2.0
// The collector's side of samples that end without counters: discarded after a replay, or
// declined by the backend before any replay (the launch then ran as the application made it);
// and further samples asked for when a kernel's durations spread over several clusters.
#include "intercept/collector.hpp"

#include <cmath>

#include "common/inside_irf.hpp"

#include "model/profile/duration_clusters.hpp"
#include "model/roofline/counters.hpp"

namespace irf::intercept {

void Collector::on_discarded_sample(std::uint64_t correlation_id, const char* reason) noexcept {
    const common::InsideIrf inside; // see on_warning
    try {
        const std::lock_guard<std::mutex> lock(m_agg_mutex);
        ++m_discarded[reason != nullptr ? reason : "unknown"];
        ++m_stats.discarded;
        resolve_discarded_locked(correlation_id); // no counters will come: let it retire
    } catch (...) {
    }
}

void Collector::on_sample_declined(std::uint64_t correlation_id, const char* reason) noexcept {
    const common::InsideIrf inside;
    try {
        const std::lock_guard<std::mutex> lock(m_agg_mutex);
        if (reason != nullptr) {
            ++m_discarded[reason];
            ++m_stats.discarded;
        } else {
            ++m_stats.declined;
            note_declined_locked(correlation_id);
        }
        unprofile_locked(correlation_id); // it ran unreplayed: an ordinary duration
    } catch (...) {
    }
}

/// Busy counters (or a device that cannot sample) declined it: on_counters_back asks again.
void Collector::note_declined_locked(std::uint64_t correlation_id) {
    Pending* p = pending_locked(correlation_id);
    if (p != nullptr && p->profiled && p->stats != nullptr && !p->stats->declined_listed) {
        m_declined.push_back(p->stats);
        p->stats->declined_listed = true;
    }
}

// On the H200 a kernel whose every sample was declined while ncu held the counters was never
// sampled after ncu ended (7.5 million launches): its samples were spent on the declines.
void Collector::on_counters_back() noexcept {
    try {
        const std::lock_guard<std::mutex> lock(m_agg_mutex);
        for (KernelStats* k : m_declined) {
            k->declined_listed = false;
            k->sampling.retry_wanted.fetch_add(1, std::memory_order_seq_cst);
            unsaturate_locked(*k);
        }
        m_declined.clear();
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

/// One (name, launch configuration) key can run several shapes (a GEMM's grid does not encode
/// K), and the collector learns a launch's duration only after it ran, from an activity buffer
/// that may come many launches later. So a launch cannot be chosen for its shape; instead, when
/// a timed launch falls in a duration cluster holding no sample, the next launch of the key is
/// profiled, and its counters' own duration says which cluster it stands for. Shapes recur in
/// training loops, so a later try lands in the missing cluster; tries stop at IRF_SAMPLES per
/// further cluster (docs/configuration.md, IRF_SAMPLES) and at IRF_LAUNCH_COUNT.
void Collector::cluster_duration_locked(KernelStats& stats, double ns) {
    const std::size_t at = model::add_to_clusters(stats.clusters, ns, false);
    const int budget = static_cast<int>(model::k_max_clusters - 1) * m_sampler.samples();
    if (stats.clusters.size() < 2 || stats.clusters[at].profiled > 0 || stats.profiled == 0 ||
        stats.cluster_requests >= budget ||
        stats.sampling.cluster_wanted.load(std::memory_order_relaxed) > 0) {
        return; // one shape, covered, never sampled (filtered, graph), out of tries, or a try on
                // its way
    }
    ++stats.cluster_requests;
    stats.sampling.cluster_wanted.fetch_add(1, std::memory_order_seq_cst);
    unsaturate_locked(stats);
}

namespace {

/// True when a sample's tensor instructions are too few a warp to be tensor math: nvcc zeroes
/// registers with HFMA2.MMA, which the tensor pipe counts. In the H100 recording the kernels
/// without tensor math issued 1 to 9 a warp, those with it 23 to 1024
/// (docs/validation/h100-known-answers.md); a types sample for the former measures zero ops.
/// Without the CTA count the warps are unknown, and the sample is asked for.
bool register_moves_only(const model::LaunchConfig& launch, const model::Counters& counters,
                         double inst_tensor) {
    constexpr double k_max_moves_per_warp = 16;
    const auto ctas = counters.find("ctas_launched");
    const double threads = static_cast<double>(launch.block[0]) * launch.block[1] * launch.block[2];
    if (ctas == counters.end() || !(ctas->second > 0) || !(threads > 0)) {
        return false;
    }
    const double warps = ctas->second * std::ceil(threads / 32);
    return inst_tensor <= k_max_moves_per_warp * warps;
}

} // namespace

/// Tensor-pipe use needs the ops by input type, which cost replay passes of their own
/// (docs/metrics.md), so the default set leaves them out; one later launch of a kernel that
/// issues tensor instructions is profiled with them alone instead (IRF_TENSOR_TYPES).
void Collector::request_tensor_types_locked(KernelStats& stats, const model::Counters& counters) {
    const auto inst = counters.find("inst_tensor");
    if (!m_tensor_types_auto || stats.tensor_requested || inst == counters.end() ||
        !(inst->second > 0) || model::has_tensor_types(counters) ||
        register_moves_only(stats.launch, counters, inst->second)) {
        return;
    }
    stats.tensor_requested = true;
    stats.sampling.tensor_wanted.store(1, std::memory_order_seq_cst);
    unsaturate_locked(stats);
}

} // namespace irf::intercept

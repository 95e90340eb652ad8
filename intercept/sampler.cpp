// SPDX-License-Identifier: Apache-2.0
// The sampling policy. The common answer (kernel already has its samples) costs two relaxed
// loads; compare-and-swap happens only while a sample is still to be taken.
#include "intercept/sampler.hpp"

#include <limits>

namespace irf::intercept {
namespace {

/// Decrements `counter` unless it is zero; true when it did.
bool take_one(std::atomic<std::uint64_t>& counter) noexcept {
    std::uint64_t left = counter.load(std::memory_order_relaxed);
    while (left > 0) {
        if (counter.compare_exchange_weak(left, left - 1, std::memory_order_relaxed)) {
            return true;
        }
    }
    return false;
}

} // namespace

Sampler::Sampler(int samples, std::uint64_t skip, std::optional<std::uint64_t> count,
                 config::ReplayMode replay) noexcept
    : m_samples(samples), m_replay(replay), m_skip(skip), m_skip_left(skip),
      m_count_left(count.value_or(std::numeric_limits<std::uint64_t>::max())) {}

bool Sampler::take_skip() noexcept {
    return m_skip_left.load(std::memory_order_relaxed) > 0 && take_one(m_skip_left);
}

bool Sampler::take_count() noexcept {
    if (m_count_left.load(std::memory_order_relaxed) == std::numeric_limits<std::uint64_t>::max()) {
        return true; // unlimited: never touch the shared counter
    }
    return take_one(m_count_left);
}

LaunchDecision Sampler::decide(SampleState& state, bool cold) noexcept {
    SkipReason why = SkipReason::none;
    return decide(state, cold, why);
}

LaunchDecision Sampler::decide(SampleState& state, bool cold, SkipReason& why) noexcept {
    if (take_skip()) {
        why = SkipReason::launch_skip;
        return LaunchDecision::time_only;
    }
    if (m_samples <= 0) {
        why = SkipReason::samples_off;
        return LaunchDecision::time_only;
    }
    if (m_count_left.load(std::memory_order_relaxed) == 0) {
        why = SkipReason::budget_spent;
        return LaunchDecision::time_only;
    }
    int claimed = state.warm_claimed.load(std::memory_order_relaxed);
    if (claimed >= m_samples) {
        return cold ? LaunchDecision::time_only : take_requested_sample(state, why);
    }
    if (cold) {
        if (m_replay == config::ReplayMode::launches) {
            why = SkipReason::first_launch; // a later launch takes the sample, if one comes
            return LaunchDecision::time_only;
        }
        if (state.cold_claimed.exchange(true, std::memory_order_relaxed)) {
            return LaunchDecision::time_only;
        }
        return take_count() ? LaunchDecision::profile : LaunchDecision::time_only;
    }
    while (claimed < m_samples) {
        if (state.warm_claimed.compare_exchange_weak(claimed, claimed + 1,
                                                     std::memory_order_relaxed)) {
            if (take_count()) {
                return warm_kind(state);
            }
            state.warm_claimed.fetch_sub(1, std::memory_order_relaxed);
            why = SkipReason::budget_spent;
            return LaunchDecision::time_only;
        }
    }
    return LaunchDecision::time_only;
}

/// A sample the collector asked for (the hot path of a saturated kernel is three relaxed loads
/// of zeros here): a retry of one by launches first (it stands for an IRF_SAMPLES sample and
/// does not take from IRF_LAUNCH_COUNT again), then a duration cluster's, as a verdict outweighs
/// the tensor types, then the tensor-types one. Both come after IRF_SAMPLES, so the second sample
/// never moves a verdict sample onto another launch (shape) of the kernel.
LaunchDecision Sampler::take_requested_sample(SampleState& state, SkipReason& why) noexcept {
    for (int left = state.retry_wanted.load(std::memory_order_relaxed); left > 0;) {
        if (state.retry_wanted.compare_exchange_weak(left, left - 1, std::memory_order_relaxed)) {
            return warm_kind(state); // its budget was spent by the try it repeats
        }
    }
    // A duration cluster's sample stands for one shape: its passes must not run on launches
    // of other shapes, so it is a kernel replay whatever IRF_REPLAY says.
    const LaunchDecision d = take_requested(state.cluster_wanted, LaunchDecision::profile, why);
    if (d != LaunchDecision::time_only || why != SkipReason::none) {
        return d;
    }
    return take_requested(state.tensor_wanted, LaunchDecision::profile_tensor_types, why);
}

/// Claims one of the `wanted` requests: `kind` when the budget allows, time_only with
/// budget_spent when it does not, time_only with no reason when another thread claimed it.
LaunchDecision Sampler::take_requested(std::atomic<int>& wanted, LaunchDecision kind,
                                       SkipReason& why) noexcept {
    int left = wanted.load(std::memory_order_relaxed);
    while (left > 0) {
        if (wanted.compare_exchange_weak(left, left - 1, std::memory_order_relaxed)) {
            if (take_count()) {
                return kind;
            }
            why = SkipReason::budget_spent;
            return LaunchDecision::time_only;
        }
    }
    return LaunchDecision::time_only;
}

LaunchDecision Sampler::warm_kind(const SampleState& state) const noexcept {
    return m_replay == config::ReplayMode::kernel ||
                   state.kernel_replay.load(std::memory_order_relaxed)
               ? LaunchDecision::profile
               : LaunchDecision::profile_launches;
}

bool Sampler::requested(const SampleState& state) noexcept {
    return state.retry_wanted.load(std::memory_order_seq_cst) > 0 ||
           state.cluster_wanted.load(std::memory_order_seq_cst) > 0 ||
           state.tensor_wanted.load(std::memory_order_seq_cst) > 0;
}

bool Sampler::saturated(const SampleState& state) const noexcept {
    return m_samples <= 0 ||
           (state.warm_claimed.load(std::memory_order_relaxed) >= m_samples && !requested(state)) ||
           m_count_left.load(std::memory_order_relaxed) == 0;
}

std::uint64_t Sampler::skipped() const noexcept {
    return m_skip - m_skip_left.load(std::memory_order_relaxed);
}

} // namespace irf::intercept

// SPDX-License-Identifier: Apache-2.0
// The CUPTI backend's constants, per-launch flags and test seam (internal to intercept/cupti).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <cuda.h>
#include <cupti.h>

#include "config/metric_sets.hpp"
#include "intercept/backend.hpp"
#include "intercept/cupti/hooked_launches.hpp"
#include "intercept/cupti/pass_samples.hpp"
#include "intercept/cupti/profiler_seam.hpp"
#include "intercept/cupti/sample_sets.hpp"

namespace irf::intercept::cupti {

/// Per-context ids cached per thread (CUPTI getters are not free); invalidated by an epoch
/// bumped at every context destruction, since context addresses can be reused.
struct ContextIds {
    CUcontext context = nullptr;
    std::uint64_t epoch = 0;
    std::uint32_t context_id = 0;
    std::uint32_t device = 0;
};

/// Longest wait for the sample lock before a launch goes on without it.
constexpr std::chrono::seconds k_lock_wait{10};

/// Longest a sample (start -> stop, decode) may take before that kernel is sampled no more.
constexpr std::chrono::seconds k_sample_budget{30};

/// Launches between two checks that kernel records still arrive (a power of two; buffers hold
/// about 20,000 records): an interval without one means another client took the stream.
constexpr std::uint64_t k_timing_check = std::uint64_t{1} << 20;

/// A range profiler idle this long is released (disabled) at the next release check, so that
/// ncu or DCGM can use the counters between bursts of samples (docs/validation/h100.md item 7).
constexpr std::chrono::seconds k_idle_release{2};

/// How often irf's own release thread looks for an idle range profiler: graph-only and idle
/// processes make no launch that could (docs/cupti-notes.md, "Idle release").
constexpr std::chrono::seconds k_release_period{1};

/// A device whose counters another client holds is tried again after this long.
constexpr std::chrono::seconds k_busy_retry{30};

/// Per-device slots of the busy clock (ordinals beyond share one).
constexpr std::size_t k_device_slots = 64;

/// Longest stop() waits for sink calls in flight (a longer one is a thread a signal stopped).
constexpr std::chrono::milliseconds k_stop_wait{1000};

/// Sample locks: one per device (ordinals beyond share a slot; sharing only serializes more).
constexpr std::size_t k_lock_slots = 16;

/// Bits kept in CUpti_CallbackData::correlationData between a launch's ENTER and EXIT; the
/// device's lock slot is kept above k_slot_shift.
enum LaunchFlags : std::uint64_t {
    k_holds_shared = 1,    ///< this launch holds its device's sample lock shared
    k_holds_exclusive = 2, ///< this launch is being profiled (sample lock exclusive)
    k_started = 4,         ///< the range profiler was started at ENTER
    k_slot_shift = 8,
    k_holds_slots = 16,    ///< a capture start holding several slots shared (mask above)
    k_beside_release = 32, ///< went on during its slot's release, counted in m_release_skips
    k_mask_shift = 32,
};

/// One context's profiler and the metrics it collects: the standard set, or the tensor-types
/// set while a second sample is taken (switched by session_for, docs/cupti-notes.md 4b).
struct ContextSession {
    std::unique_ptr<RangeProfiler> profiler;
    std::vector<config::MetricBinding> bindings;
    std::vector<std::string> metrics;
    std::uint32_t device = 0;
    SampleSet set = SampleSet::standard; ///< the set of `bindings` (also when setup failed)
    /// Set up again once the device's busy time has passed (another client held the counters).
    bool retry = false;
};

/// Test knobs of the sampled path (production uses the defaults).
struct SamplingSeam {
    std::unique_ptr<ProfilerPlatform> platform;
    std::chrono::milliseconds lock_wait = k_lock_wait;
    std::chrono::milliseconds sample_budget = k_sample_budget;
    std::uint64_t timing_check = k_timing_check; ///< a power of two
    std::chrono::milliseconds idle_release = k_idle_release;
    std::uint64_t recur_bound = k_recur_bound; ///< launches (pass_samples.hpp)
    bool stream_destroys_seen = true;          ///< as if the stream-destroy callback were enabled
    std::chrono::milliseconds release_period = k_release_period;
    std::chrono::milliseconds busy_retry = k_busy_retry;
    /// Runs in the release thread between its idle check and its first sample lock (tests).
    std::function<void()> before_release_lock = nullptr;
};

/// A launch on the sampled path: CUPTI's callback data and the id the sink knows the launch by
/// (CUPTI's correlation id, or irf's own under IRF_FAST_INTERCEPT=1, hooked_launches.hpp).
struct LaunchCall {
    const CUpti_CallbackData& data;
    std::uint64_t id = 0;
};

/// Which path a launch seen by libirf_entry.so's hook takes (IRF_FAST_INTERCEPT=1).
enum class HookRoute : std::uint8_t {
    none,     ///< not the hook's (a graph launch, or the hook is off): CUPTI's callbacks see it
    hook,     ///< the hook reported it: a CUPTI callback that fires anyway ignores it
    callback, ///< CUPTI's callbacks are on for a sample: they report it as without the hook
    decided,  ///< the hook reported it and chose it for a sample, which its callback takes
};

/// The launch the calling thread is inside, between the hook's `before` and `after`.
struct HookedCall {
    HookRoute route = HookRoute::none;
    bool entered = false;                                ///< its CUPTI ENTER callback came
    LaunchDecision decision = LaunchDecision::time_only; ///< the decided route's
    std::uint32_t device = 0;                            ///< its context's device
    /// Its irf id (`kept.id`: hook and decided routes, 0 otherwise) and what its record is
    /// matched by, once it is known to run unsampled.
    HookedLaunch kept;
};

/// The calling thread's HookedCall.
[[nodiscard]] HookedCall& hooked_call() noexcept;

} // namespace irf::intercept::cupti

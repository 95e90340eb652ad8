// SPDX-License-Identifier: Apache-2.0
// The Backend interface: the source of launches, counters and durations (CUPTI or a fake).
// Backends call a LaunchSink; the sink (intercept's collector) decides what to profile.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "model/profile/profile.hpp"

namespace irf::intercept {

/// Correlation ids from here up are a backend's own, given to graph nodes (which have no launch
/// callback): CUPTI's ids are 32-bit and wrap, so the two never meet.
constexpr std::uint64_t k_first_synthetic_id = std::uint64_t{1} << 32;

/// One kernel launch as seen by a backend's launch callback (before the kernel runs).
struct LaunchEvent {
    const void* function = nullptr; ///< stable per-kernel handle (CUfunction); cache key
    const char* mangled = nullptr;  ///< kernel symbol; valid only during the callback
    model::LaunchConfig launch;
    std::uint32_t device = 0;
    std::uint64_t context = 0;
    std::uint64_t stream = 0;
    std::uint64_t correlation_id = 0; ///< matches CounterSample and DurationRecord
    bool graph = false;               ///< launched as part of a CUDA graph (timed only)
    /// No duration will come for it: a graph node of a replay timed whole
    /// (IRF_GRAPH_TIMING=graphs), counted and estimated as an untimed launch (time_ns.estimated).
    bool untimed = false;
    /// Graph kernels arrive on the activity thread, whose NVTX stack is not the launcher's:
    /// they carry the path taken at their cuGraphLaunch instead (nvtx_stack.hpp path id).
    bool region_given = false;
    std::uint32_t region = 0; ///< NVTX path id, used only when region_given
    /// Bumped by every module unload: a new kernel at a reused `function` address is a new
    /// function (its name, filter decision and attributes are not inherited).
    std::uint64_t module_epoch = 0;
};

/// What the sink tells the backend to do with a launch.
enum class LaunchDecision : std::uint8_t {
    time_only, ///< just time it (activity record)
    profile,   ///< run it inside a counter range
    /// Run it inside a counter range of the tensor-types set only (tensor ops by input type,
    /// tensor instructions, duration): the second sample of IRF_TENSOR_TYPES=auto.
    profile_tensor_types,
    /// Run the standard set one pass per launch (CUPTI user replay, IRF_REPLAY): this launch
    /// runs the first pass, the configuration's next launches the others (the backend chooses
    /// them and reports each with on_sample_pass); the merged counters come as this launch's.
    /// A backend that cannot may profile the launch as `profile` instead.
    profile_launches,
};

/// True for both kinds of profiled launch.
[[nodiscard]] inline bool profiles(LaunchDecision decision) noexcept {
    return decision != LaunchDecision::time_only;
}

/// Counters of one profiled launch, canonical names (docs/metrics.md).
struct CounterSample {
    std::uint64_t correlation_id = 0;
    model::Counters counters;
    int passes = 0;
    /// The passes ran one per launch (profile_launches) instead of by kernel replay.
    bool by_launches = false;
    std::uint64_t launches = 1; ///< launches the passes ran on (this one and its pass launches)
};

/// Why a sample collected one pass per launch was given up (coverage.discarded_samples keys).
inline constexpr const char* k_discard_not_recurred = "not_recurred";
inline constexpr const char* k_discard_pass_refused = "pass_refused";

/// Duration of one launch from the activity stream.
struct DurationRecord {
    std::uint64_t correlation_id = 0;
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
};

/// Receives everything a backend observes. Implementations must not throw and must be
/// thread-safe: backends call it from application threads and from their own threads.
class LaunchSink {
public:
    virtual ~LaunchSink() = default;
    /// A launch is about to happen; the answer decides whether it is profiled.
    virtual LaunchDecision on_launch(const LaunchEvent& event) noexcept = 0;
    /// Counters of a launch that on_launch asked to profile.
    virtual void on_counters(const CounterSample& sample) noexcept = 0;
    /// Duration of any launch.
    virtual void on_duration(const DurationRecord& record) noexcept = 0;
    /// Something the user should know (goes to the profile's warnings and the log).
    virtual void on_warning(const std::string& message) noexcept = 0;
    /// The application called cudaProfilerStart/cuProfilerStart (`started`) or
    /// cudaProfilerStop/cuProfilerStop: the capture range of IRF_CAPTURE_RANGE=cudaProfilerApi.
    /// Sinks without a capture range ignore it.
    virtual void on_profiler_range(bool started) noexcept { static_cast<void>(started); }
    /// A launch chosen for profiling whose counters were thrown away; `reason` is a short
    /// key (docs/output-schema.md, coverage.discarded_samples). Sinks that do not count
    /// discards may ignore it.
    virtual void on_discarded_sample(std::uint64_t correlation_id, const char* reason) noexcept {
        static_cast<void>(correlation_id);
        static_cast<void>(reason);
    }
    /// A launch chosen for profiling that the backend did not profile: it ran as the
    /// application launched it, so its duration is an ordinary one. `reason` (a discard key,
    /// or null when not worth counting) is counted like a discard.
    virtual void on_sample_declined(std::uint64_t correlation_id, const char* reason) noexcept {
        static_cast<void>(correlation_id);
        static_cast<void>(reason);
    }
    /// Launch `correlation_id` ran one pass of the sample that launch `sample_id` began
    /// (profile_launches; the first pass: `correlation_id == sample_id`): it ran once, as
    /// launched, but under counters, so its activity duration is its own. Reported at the
    /// launch's exit, before its duration. Sinks that do not sample by launches may ignore it.
    virtual void on_sample_pass(std::uint64_t correlation_id, std::uint64_t sample_id) noexcept {
        static_cast<void>(correlation_id);
        static_cast<void>(sample_id);
    }
    /// The sample launch `sample_id` began (profile_launches) will bring no counters: its
    /// configuration did not recur within the backend's bound, or a pass was refused (`reason`,
    /// a discard key). Its configuration should be sampled again by kernel replay.
    virtual void on_sample_abandoned(std::uint64_t sample_id, const char* reason) noexcept {
        static_cast<void>(sample_id);
        static_cast<void>(reason);
    }
    /// The sample launch `correlation_id` was to begin (profile_launches) could not start now:
    /// a sample of its configuration is still collecting passes. The launch ran unprofiled; the
    /// sink should ask again at a later launch.
    virtual void on_sample_deferred(std::uint64_t correlation_id) noexcept {
        static_cast<void>(correlation_id);
    }
    /// Counters are off for the rest of the run (permission, support): stop choosing launches.
    virtual void on_profiling_off() noexcept {}
    /// Counters another client held may be free again: the samples declined while they were
    /// held (on_sample_declined without a reason) should be asked again at later launches.
    virtual void on_counters_back() noexcept {}
    /// Kernel records stopped coming (another CUPTI client took the activity stream): later
    /// unprofiled launches get no duration, so the sink should count rather than keep them.
    virtual void on_timing_stopped() noexcept {}
    /// Kernel records came again after on_timing_stopped: launches are timed again.
    virtual void on_timing_resumed() noexcept {}
};

/// A source of launches. start() may fail; the injection then runs without it (fail closed).
class Backend {
public:
    virtual ~Backend() = default;
    /// Subscribes to launches and begins feeding `sink`; false (with a logged reason) on failure.
    [[nodiscard]] virtual bool start(LaunchSink& sink) noexcept = 0;
    /// Delivers every pending duration and counter sample to the sink (called before writing).
    virtual void flush() noexcept = 0;
    /// Unsubscribes; no sink call happens after it returns. Idempotent.
    virtual void stop() noexcept = 0;
    /// No sink call begins after it returns (it waits a bounded time for those in flight), even
    /// while flush() or stop() are blocked on another thread: the write goes on without them.
    virtual void seal() noexcept = 0;
    /// In a forked child (single-threaded, parent's locks possibly held): forget the sink
    /// without taking a lock or calling CUPTI; nothing reaches the parent's collector again.
    virtual void detach_after_fork() noexcept {}
    /// The GPU the launches ran on (first device used), as far as the backend knows it.
    [[nodiscard]] virtual model::GpuInfo gpu_info() const noexcept = 0;
    /// Replay passes per profiled launch (0 when nothing was profiled).
    [[nodiscard]] virtual int passes() const noexcept = 0;
    /// Where the samples' wall time went (all zero when the backend does not time them).
    [[nodiscard]] virtual model::SamplePhases sample_phases() const noexcept { return {}; }
    /// "cupti" or "fake".
    [[nodiscard]] virtual std::string name() const = 0;
};

} // namespace irf::intercept

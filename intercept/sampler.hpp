// SPDX-License-Identifier: Apache-2.0
// The sampling policy: which launches run under a counter range (IRF_SAMPLES, IRF_LAUNCH_SKIP,
// IRF_LAUNCH_COUNT), lock-free so every application thread can ask.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>

#include "config/env.hpp"
#include "intercept/backend.hpp"

namespace irf::intercept {

/// Per distinct kernel (demangled name + launch configuration) sampling state.
struct SampleState {
    std::atomic<int> warm_claimed{0};      ///< samples claimed on launches after the first
    std::atomic<bool> cold_claimed{false}; ///< the provisional first-launch sample was claimed
    /// Further samples the collector asked for: a duration cluster of this kernel has none yet
    /// (docs/configuration.md, IRF_SAMPLES). Claimed by the next launches, within IRF_LAUNCH_COUNT.
    std::atomic<int> cluster_wanted{0};
    /// 1 while the collector asks for a tensor-types sample (IRF_TENSOR_TYPES=auto): a sample
    /// showed tensor instructions without their per-type ops. Claimed by a later launch once the
    /// kernel's IRF_SAMPLES and the duration clusters' requests are taken.
    std::atomic<int> tensor_wanted{0};
    /// Samples asked for again (IRF_REPLAY): one by launches was deferred while another of this
    /// kernel collected passes, or was given up. Taken before the other requests, within no
    /// budget (the first try spent it).
    std::atomic<int> retry_wanted{0};
    /// A sample by launches was given up (the configuration stopped recurring, or a pass was
    /// refused): this kernel's later samples use kernel replay.
    std::atomic<bool> kernel_replay{false};
};

/// Why a launch of a selected kernel was not profiled (none when its samples are taken).
enum class SkipReason : std::uint8_t {
    none,
    launch_skip,
    budget_spent,
    samples_off,
    first_launch, ///< IRF_REPLAY=launches takes no provisional first-launch sample
};

/// Decides, per launch of a selected kernel, whether to profile it.
///
/// Lazy module loading puts load time into the first launch of each function, and a kernel
/// launched only once must still be profiled, but no one knows at a first launch whether a
/// second will come. So a function's first ("cold") launch is profiled provisionally and does
/// not use up one of the kernel's IRF_SAMPLES; the next launches fill the samples. The collector
/// keeps the cold sample only when no later sample exists. Cost: at most one extra profiled
/// launch per kernel.
///
/// IRF_REPLAY says how a chosen launch is profiled: `profile` (kernel replay) or
/// `profile_launches` (one pass per launch over the configuration's next launches). Under
/// `auto` the cold sample is a kernel replay (the kernel may never run again) and the later
/// ones go by launches; under `launches` no cold sample is taken at all.
class Sampler {
public:
    /// `samples` per kernel; `skip` matching launches first; at most `count` profiled in all;
    /// `replay` the IRF_REPLAY mode (the collector passes its setting; kernel replay otherwise).
    Sampler(int samples, std::uint64_t skip, std::optional<std::uint64_t> count,
            config::ReplayMode replay = config::ReplayMode::kernel) noexcept;

    /// The decision for one launch of a selected kernel; `cold` = first launch of its function.
    [[nodiscard]] LaunchDecision decide(SampleState& state, bool cold) noexcept;
    /// As decide; a time_only answer also says why in `why` when a reason other than "the
    /// kernel has its samples" applies.
    [[nodiscard]] LaunchDecision decide(SampleState& state, bool cold, SkipReason& why) noexcept;

    /// True when no later launch of this kernel can be profiled any more (its samples are taken
    /// and no duration cluster asks for one, or IRF_LAUNCH_COUNT is used up). Callers may cache
    /// it until a cluster asks for a sample (Collector::unsaturate_locked clears the cache).
    [[nodiscard]] bool saturated(const SampleState& state) const noexcept;

    /// True while the collector asks for a further sample of this kernel (a duration cluster's
    /// or a tensor-types one); read after caching "saturated" so that no request is lost.
    [[nodiscard]] static bool requested(const SampleState& state) noexcept;

    /// IRF_SAMPLES.
    [[nodiscard]] int samples() const noexcept { return m_samples; }

    /// Launches skipped by IRF_LAUNCH_SKIP so far.
    [[nodiscard]] std::uint64_t skipped() const noexcept;

private:
    bool take_skip() noexcept;
    bool take_count() noexcept;
    LaunchDecision take_requested_sample(SampleState& state, SkipReason& why) noexcept;
    LaunchDecision take_requested(std::atomic<int>& wanted, LaunchDecision kind,
                                  SkipReason& why) noexcept;
    /// How a later (not cold) sample of `state` runs: by launches unless IRF_REPLAY=kernel or
    /// the kernel fell back to kernel replay.
    [[nodiscard]] LaunchDecision warm_kind(const SampleState& state) const noexcept;

    int m_samples;
    config::ReplayMode m_replay;
    std::uint64_t m_skip;
    std::atomic<std::uint64_t> m_skip_left;
    std::atomic<std::uint64_t> m_count_left; ///< UINT64_MAX when unlimited
};

} // namespace irf::intercept

// SPDX-License-Identifier: Apache-2.0
// Whether a counter sample is the kernel it claims to be (plain C++, no CUPTI types).
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/profile/profile.hpp"

namespace irf::intercept::cupti {

/// What the backend knows about one finished sample.
struct SampleEvidence {
    std::size_t ranges = 0;       ///< ranges in the decoded counter data
    std::size_t dropped = 0;      ///< ranges the profiler dropped
    bool window_breached = false; ///< a launch went on unprotected during the window
    std::uint64_t grid_ctas = 0;  ///< gridDim.x * y * z of the sampled launch
};

/// Discard reasons (keys of the profile's coverage.discarded_samples).
inline constexpr const char* k_discard_dropped = "dropped_ranges";
inline constexpr const char* k_discard_ranges = "extra_ranges";
inline constexpr const char* k_discard_breach = "window_breached";
inline constexpr const char* k_discard_ctas = "ctas_mismatch";
inline constexpr const char* k_discard_budget = "over_time_budget";
inline constexpr const char* k_discard_lock = "lock_timeout";
inline constexpr const char* k_discard_capture = "stream_capture";
inline constexpr const char* k_discard_lost = "counters_lost";

/// Null when the sample is sound, else the discard reason. `ctas_launched` is checked against
/// the grid only when the counter set has it.
[[nodiscard]] const char* sample_problem(const SampleEvidence& evidence,
                                         const model::Counters& counters) noexcept;

/// CTAs of a launch: the product of the grid's three dimensions.
[[nodiscard]] std::uint64_t grid_ctas(const model::LaunchConfig& launch) noexcept;

} // namespace irf::intercept::cupti

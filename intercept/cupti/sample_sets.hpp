// SPDX-License-Identifier: Apache-2.0
// The metric set a sample collects: the IRF_METRICS set, or the tensor-types second sample's.
// Plain C++ (no CUPTI types), so the host-API tests can count its passes.
#pragma once

#include <cstdint>
#include <vector>

#include "config/metric_sets.hpp"
#include "intercept/cupti/cupti_backend.hpp"

namespace irf::intercept::cupti {

/// Which set a context's range profiler holds (intercept/cupti/sample_sessions.cpp), and for a
/// sampled launch also how its passes run.
enum class SampleSet : std::uint8_t {
    standard,     ///< the default set plus the IRF_METRICS groups: a `profile` launch
    tensor_types, ///< the second sample of IRF_TENSOR_TYPES=auto: a `profile_tensor_types` one
    /// The standard set, one pass on this launch (a `profile_launches` one, or a later pass the
    /// backend chose: intercept/cupti/pass_samples.hpp). A profiler holds `standard` then.
    launches,
};

/// The set a launch of `decision` (profile, profile_tensor_types, profile_launches) is
/// profiled with.
[[nodiscard]] SampleSet sample_set_of(LaunchDecision decision) noexcept;

/// The set a profiler holds for a launch of `set` (`launches` runs on the standard one).
[[nodiscard]] SampleSet held_set(SampleSet set) noexcept;

/// The bindings of `set` on `family`: IRF_METRICS's set (`options`), or the tensor group with
/// tensor instructions, the launch's duration and its CTAs (docs/cupti-notes.md).
[[nodiscard]] std::vector<config::MetricBinding>
sample_bindings(config::ChipFamily family, const CuptiOptions& options, SampleSet set);

} // namespace irf::intercept::cupti

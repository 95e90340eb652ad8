// SPDX-License-Identifier: Apache-2.0
// One kernel's stats as the profile's record: times as the application ran them, counters from
// the samples, and why a kernel has none.
#pragma once

#include "intercept/call_site.hpp"
#include "intercept/collector.hpp"

namespace irf::intercept {

/// The profile record of `stats` (call site symbolized with `frames` frames).
model::KernelRecord to_record(const KernelStats& stats, Symbolizer& symbolizer, int frames);

/// Counts `untimed` launches of `stats` left untimed by IRF_TIMING=sampled into `r`: in its
/// launches, and in its total at the mean of its timed launches, with the estimate's standard
/// error (model/profile/timing_estimate.hpp).
void add_timing_estimate(const KernelStats& stats, std::uint64_t untimed, model::KernelRecord& r);

/// The reason a kernel without counters says (docs/output-schema.md, no_counters), from its
/// UnprofiledWhy bits; "" when none applies.
std::string no_counters_reason(std::uint16_t why, bool collective);

} // namespace irf::intercept

// SPDX-License-Identifier: Apache-2.0
// `irf-report compare A B --counters`: every canonical counter of two profiles of one run,
// kernel by kernel, with the relative difference (libirf against ncu in the GPU validation).
#pragma once

#include <string>

#include "model/profile/profile.hpp"

namespace irf::report {

/// One table per kernel matched by name and launch: each canonical counter per profiled launch
/// (clock_hz as recorded) in `a` and `b`, and (b - a) / a; a counter only one side has says so.
/// Kernels only one profile has are listed at the end.
[[nodiscard]] std::string compare_counters_text(const model::Profile& a, const std::string& a_name,
                                                const model::Profile& b, const std::string& b_name);

/// (b - a) / a, or nullopt when a is 0 and b is not (0 and 0 agree: 0).
[[nodiscard]] std::optional<double> relative_difference(double a, double b);

} // namespace irf::report

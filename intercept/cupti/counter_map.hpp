// SPDX-License-Identifier: Apache-2.0
// Evaluated CUPTI metric values -> canonical counters (plain C++, no CUPTI types).
#pragma once

#include <string>
#include <vector>

#include "config/metric_sets.hpp"
#include "model/profile/profile.hpp"

namespace irf::intercept::cupti {

/// Sums, per binding, the values of its metrics (`values[i]` belongs to `names[i]`). A binding
/// with a missing or non-finite value (NaN: unit shared under MIG) is left out of the result.
[[nodiscard]] model::Counters to_counters(const std::vector<config::MetricBinding>& bindings,
                                          const std::vector<std::string>& names,
                                          const std::vector<double>& values);

} // namespace irf::intercept::cupti

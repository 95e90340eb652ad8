// SPDX-License-Identifier: Apache-2.0
// irf-report metrics' access to CUPTI's host API: libirf_metrics_host.so, loaded on first use
// (intercept/cupti/metric_host_api.hpp says why it is not linked).
#pragma once

#include "intercept/cupti/metric_host_api.hpp"

namespace irf::report {

/// The module's table, loaded once from beside this binary, else from <prefix>/<libdir>;
/// an InputError naming the paths tried and dlerror's reason when it cannot be loaded.
[[nodiscard]] const intercept::cupti::MetricHostApi& metric_host_api();

} // namespace irf::report

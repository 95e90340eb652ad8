// SPDX-License-Identifier: Apache-2.0
// The table of host-API metric functions that libirf_metrics_host.so exports, so that a tool
// (irf-report metrics) loads CUPTI's host libraries only when it needs them: libcupti and
// libnvperf_host take seconds to load under a sanitizer and are absent where only the analysis
// tools are installed (docs/reliability.md, "Where CI's time goes").
#pragma once

#include <string>
#include <vector>

#include "intercept/cupti/metric_host.hpp"

namespace irf::intercept::cupti {

/// Bumped when the table changes; the loader refuses a module of another version.
inline constexpr int k_metric_host_api_version = 1;

/// metric_host.hpp's functions, as the module exports them.
struct MetricHostApi {
    int version = k_metric_host_api_version;
    HostStatus (*check_metrics)(const std::string& chip, const std::vector<std::string>& metrics,
                                std::vector<MetricCheck>& checks) = nullptr;
    HostStatus (*count_passes)(const std::string& chip, const std::vector<std::string>& metrics,
                               int& passes) = nullptr;
};

/// The module's file name and its one exported symbol (returns a pointer to a static table).
inline constexpr const char* k_metric_host_module = "libirf_metrics_host.so";
inline constexpr const char* k_metric_host_symbol = "irf_metric_host_api";

} // namespace irf::intercept::cupti

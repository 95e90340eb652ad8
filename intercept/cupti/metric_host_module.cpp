// SPDX-License-Identifier: Apache-2.0
// libirf_metrics_host.so: metric_host.cpp behind one C symbol (metric_host_api.hpp).
#include "intercept/cupti/metric_host_api.hpp"

namespace {

irf::intercept::cupti::HostStatus
count_for_chip(const std::string& chip, const std::vector<std::string>& metrics, int& passes) {
    return irf::intercept::cupti::count_passes(chip, metrics, passes);
}

} // namespace

/// The table irf-report's loader reads (tools/irf_report/metric_host_loader.cpp).
extern "C" __attribute__((visibility("default"))) const irf::intercept::cupti::MetricHostApi*
irf_metric_host_api() {
    static const irf::intercept::cupti::MetricHostApi s_api{
        irf::intercept::cupti::k_metric_host_api_version, &irf::intercept::cupti::check_metrics,
        &count_for_chip};
    return &s_api;
}

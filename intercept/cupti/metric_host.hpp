// SPDX-License-Identifier: Apache-2.0
// Facade over CUPTI's host metric API (cupti_profiler_host.h): works without a GPU or driver.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace irf::intercept::cupti {

/// Result of a host-API call: ok, or the reason it failed (CUPTI error name and call).
struct HostStatus {
    bool ok = true;
    std::string error;
};

/// Validity of one metric name for a chip.
struct MetricCheck {
    std::string metric;
    bool valid = false;
    std::string description; ///< from the metric database; empty if invalid
};

/// The chip names the installed CUPTI's host API accepts.
[[nodiscard]] HostStatus supported_chips(std::vector<std::string>& chips);

/// Checks each metric separately (a bad name makes a whole batch fail).
[[nodiscard]] HostStatus check_metrics(const std::string& chip,
                                       const std::vector<std::string>& metrics,
                                       std::vector<MetricCheck>& checks);

/// Builds the range-profiler config image for `metrics`; `availability` may be empty
/// (offline: all counters assumed available).
[[nodiscard]] HostStatus build_config_image(const std::string& chip,
                                            const std::vector<std::string>& metrics,
                                            const std::vector<std::uint8_t>& availability,
                                            std::vector<std::uint8_t>& image);

/// Replay passes a config image needs.
[[nodiscard]] HostStatus count_passes(const std::vector<std::uint8_t>& image, int& passes);

/// Convenience: passes for `metrics` on `chip` with no availability image.
[[nodiscard]] HostStatus count_passes(const std::string& chip,
                                      const std::vector<std::string>& metrics, int& passes);

} // namespace irf::intercept::cupti

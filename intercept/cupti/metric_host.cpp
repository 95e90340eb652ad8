// SPDX-License-Identifier: Apache-2.0
// Host metric API facade: supported chips, metric validation, config images, pass counts.
#include "intercept/cupti/metric_host.hpp"

#include <cupti.h>
#include <cupti_profiler_host.h>

#include "intercept/cupti/host_object.hpp"

namespace irf::intercept::cupti {
HostStatus supported_chips(std::vector<std::string>& chips) {
    auto p = make_params<CUpti_Profiler_Host_GetSupportedChips_Params>(
        CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE);
    const CUptiResult r = cuptiProfilerHostGetSupportedChips(&p);
    if (r != CUPTI_SUCCESS) {
        return host_fail("cuptiProfilerHostGetSupportedChips", r);
    }
    chips.assign(p.ppChipNames, p.ppChipNames + p.numChips);
    return {};
}

HostStatus check_metrics(const std::string& chip, const std::vector<std::string>& metrics,
                         std::vector<MetricCheck>& checks) {
    checks.clear();
    for (const auto& metric : metrics) {
        // A fresh host object per metric (about 1 ms): ConfigAddMetrics rejects a whole batch
        // with CUPTI_ERROR_INVALID_PARAMETER when one name is unknown.
        HostObject host;
        HostStatus status = host.init(chip, {});
        if (!status.ok) {
            return status;
        }
        MetricCheck check{metric, host.add({metric}).ok, {}};
        if (check.valid) {
            check.description = host.description(metric);
        }
        checks.push_back(std::move(check));
    }
    return {};
}

HostStatus build_config_image(const std::string& chip, const std::vector<std::string>& metrics,
                              const std::vector<std::uint8_t>& availability,
                              std::vector<std::uint8_t>& image) {
    HostObject host;
    HostStatus status = host.init(chip, availability);
    if (status.ok) {
        status = host.add(metrics);
    }
    if (status.ok) {
        status = host.image(image);
    }
    return status;
}

HostStatus count_passes(const std::vector<std::uint8_t>& image, int& passes) {
    std::vector<std::uint8_t> copy = image; // the API takes a non-const pointer
    auto p = make_params<CUpti_Profiler_Host_GetNumOfPasses_Params>(
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
    p.configImageSize = copy.size();
    p.pConfigImage = copy.data();
    const CUptiResult r = cuptiProfilerHostGetNumOfPasses(&p);
    if (r != CUPTI_SUCCESS) {
        return host_fail("cuptiProfilerHostGetNumOfPasses", r);
    }
    passes = static_cast<int>(p.numOfPasses);
    return {};
}

HostStatus count_passes(const std::string& chip, const std::vector<std::string>& metrics,
                        int& passes) {
    std::vector<std::uint8_t> image;
    HostStatus status = build_config_image(chip, metrics, {}, image);
    return status.ok ? count_passes(image, passes) : status;
}

} // namespace irf::intercept::cupti

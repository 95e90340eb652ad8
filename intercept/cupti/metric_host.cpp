// SPDX-License-Identifier: Apache-2.0
// Host metric API facade: supported chips, metric validation, config images, pass counts.
#include "intercept/cupti/metric_host.hpp"

#include <cupti.h>
#include <cupti_profiler_host.h>

#include "intercept/cupti/cupti_errors.hpp"

namespace irf::intercept::cupti {
namespace {

HostStatus fail(const char* call, CUptiResult result) {
    return {false, call_error(call, result)};
}

// Owns a CUPTI host object (one chip, one config); deinitializes it on scope exit.
class HostObject {
public:
    HostObject() = default;
    HostObject(const HostObject&) = delete;
    HostObject& operator=(const HostObject&) = delete;
    ~HostObject() {
        if (m_object != nullptr) {
            auto p = make_params<CUpti_Profiler_Host_Deinitialize_Params>(
                CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
            p.pHostObject = m_object;
            static_cast<void>(cuptiProfilerHostDeinitialize(&p));
        }
    }

    HostStatus init(const std::string& chip, const std::vector<std::uint8_t>& availability) {
        auto p = make_params<CUpti_Profiler_Host_Initialize_Params>(
            CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
        p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        p.pChipName = chip.c_str();
        p.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
        const CUptiResult r = cuptiProfilerHostInitialize(&p);
        if (r != CUPTI_SUCCESS) {
            return fail("cuptiProfilerHostInitialize", r);
        }
        m_object = p.pHostObject;
        return {};
    }

    HostStatus add(const std::vector<std::string>& metrics) {
        std::vector<const char*> names;
        names.reserve(metrics.size());
        for (const auto& m : metrics) {
            names.push_back(m.c_str());
        }
        auto p = make_params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
            CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
        p.pHostObject = m_object;
        p.ppMetricNames = names.data();
        p.numMetrics = names.size();
        const CUptiResult r = cuptiProfilerHostConfigAddMetrics(&p);
        return r == CUPTI_SUCCESS ? HostStatus{} : fail("cuptiProfilerHostConfigAddMetrics", r);
    }

    HostStatus image(std::vector<std::uint8_t>& out) {
        auto sp = make_params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
            CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
        sp.pHostObject = m_object;
        CUptiResult r = cuptiProfilerHostGetConfigImageSize(&sp);
        if (r != CUPTI_SUCCESS) {
            return fail("cuptiProfilerHostGetConfigImageSize", r);
        }
        out.assign(sp.configImageSize, 0);
        auto gp = make_params<CUpti_Profiler_Host_GetConfigImage_Params>(
            CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
        gp.pHostObject = m_object;
        gp.configImageSize = out.size();
        gp.pConfigImage = out.data();
        r = cuptiProfilerHostGetConfigImage(&gp);
        return r == CUPTI_SUCCESS ? HostStatus{} : fail("cuptiProfilerHostGetConfigImage", r);
    }

    std::string description(const std::string& metric) {
        auto p = make_params<CUpti_Profiler_Host_GetMetricProperties_Params>(
            CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE);
        p.pHostObject = m_object;
        p.pMetricName = metric.c_str();
        if (cuptiProfilerHostGetMetricProperties(&p) != CUPTI_SUCCESS ||
            p.pDescription == nullptr) {
            return {};
        }
        return p.pDescription;
    }

private:
    CUpti_Profiler_Host_Object* m_object = nullptr;
};

} // namespace

HostStatus supported_chips(std::vector<std::string>& chips) {
    auto p = make_params<CUpti_Profiler_Host_GetSupportedChips_Params>(
        CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE);
    const CUptiResult r = cuptiProfilerHostGetSupportedChips(&p);
    if (r != CUPTI_SUCCESS) {
        return fail("cuptiProfilerHostGetSupportedChips", r);
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
        return fail("cuptiProfilerHostGetNumOfPasses", r);
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

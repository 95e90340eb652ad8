// SPDX-License-Identifier: Apache-2.0
// RAII owner of a CUPTI host object (internal to intercept/cupti; includes CUPTI headers).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <cupti.h>
#include <cupti_profiler_host.h>

#include "intercept/cupti/cupti_errors.hpp"
#include "intercept/cupti/metric_host.hpp"

namespace irf::intercept::cupti {

/// A failed host-API call as a HostStatus.
inline HostStatus host_fail(const char* call, CUptiResult result) {
    return {false, call_error(call, result)};
}

/// Owns a CUPTI host object (one chip, one config); deinitializes it on scope exit.
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

    /// Creates the host object; keeps its own copy of `availability`, which CUPTI may read
    /// for as long as the host object lives.
    HostStatus init(const std::string& chip, const std::vector<std::uint8_t>& availability) {
        m_availability = availability;
        auto p = make_params<CUpti_Profiler_Host_Initialize_Params>(
            CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
        p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        p.pChipName = chip.c_str();
        p.pCounterAvailabilityImage = m_availability.empty() ? nullptr : m_availability.data();
        const CUptiResult r = cuptiProfilerHostInitialize(&p);
        if (r != CUPTI_SUCCESS) {
            return host_fail("cuptiProfilerHostInitialize", r);
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
        return r == CUPTI_SUCCESS ? HostStatus{}
                                  : host_fail("cuptiProfilerHostConfigAddMetrics", r);
    }

    HostStatus image(std::vector<std::uint8_t>& out) {
        auto sp = make_params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
            CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
        sp.pHostObject = m_object;
        CUptiResult r = cuptiProfilerHostGetConfigImageSize(&sp);
        if (r != CUPTI_SUCCESS) {
            return host_fail("cuptiProfilerHostGetConfigImageSize", r);
        }
        out.assign(sp.configImageSize, 0);
        auto gp = make_params<CUpti_Profiler_Host_GetConfigImage_Params>(
            CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
        gp.pHostObject = m_object;
        gp.configImageSize = out.size();
        gp.pConfigImage = out.data();
        r = cuptiProfilerHostGetConfigImage(&gp);
        return r == CUPTI_SUCCESS ? HostStatus{} : host_fail("cuptiProfilerHostGetConfigImage", r);
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

    /// Evaluates `metrics` for range `range` of a counter-data image into `values`.
    HostStatus evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range,
                        std::vector<const char*>& metrics, std::vector<double>& values) {
        values.assign(metrics.size(), 0.0);
        auto p = make_params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
            CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
        p.pHostObject = m_object;
        p.pCounterDataImage = counter_data.data();
        p.counterDataImageSize = counter_data.size();
        p.rangeIndex = range;
        p.ppMetricNames = metrics.data();
        p.numMetrics = metrics.size();
        p.pMetricValues = values.data();
        const CUptiResult r = cuptiProfilerHostEvaluateToGpuValues(&p);
        return r == CUPTI_SUCCESS ? HostStatus{}
                                  : host_fail("cuptiProfilerHostEvaluateToGpuValues", r);
    }

private:
    CUpti_Profiler_Host_Object* m_object = nullptr;
    std::vector<std::uint8_t> m_availability; ///< outlives every call on m_object
};

} // namespace irf::intercept::cupti

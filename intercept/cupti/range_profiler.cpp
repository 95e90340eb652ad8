// SPDX-License-Identifier: Apache-2.0
// Range Profiler session per context (CUDA 13 cupti_range_profiler.h), docs/cupti-notes.md F5.
#include "intercept/cupti/range_profiler.hpp"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>

#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include "common/log.hpp"

namespace irf::intercept::cupti {
namespace {

ProfilerStatus check(const char* call, CUptiResult r) noexcept {
    if (r == CUPTI_SUCCESS) {
        return {};
    }
    ProfilerFailure failure = ProfilerFailure::other;
    switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        failure = ProfilerFailure::permission;
        break;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
        failure = ProfilerFailure::unsupported;
        break;
    case CUPTI_ERROR_HARDWARE_BUSY: // DCGM's profiling metrics or ncu hold the counters
        failure = ProfilerFailure::busy;
        break;
    default:
        break;
    }
    return {failure, call_error(call, r)};
}

const char* unsupported_reason(const CUpti_Profiler_DeviceSupported_Params& p) noexcept {
    constexpr auto ok = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    if (p.architecture != ok) {
        return "GPU architecture (range profiling needs compute capability 7.5 or newer)";
    }
    if (p.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED) {
        return "vGPU with profiling disabled by the hypervisor";
    }
    if (p.vGpu != ok) {
        return "vGPU";
    }
    if (p.confidentialCompute != ok) {
        return "confidential computing";
    }
    if (p.cmp != ok) {
        return "CMP device";
    }
    if (p.sli != ok) {
        return "SLI";
    }
    return p.wsl != ok ? "WSL" : "this configuration";
}

ProfilerStatus device_supported(CUdevice device) noexcept {
    auto p = make_params<CUpti_Profiler_DeviceSupported_Params>(
        CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
    p.cuDevice = device;
    p.api = CUPTI_PROFILER_RANGE_PROFILING;
    ProfilerStatus status = check("cuptiProfilerDeviceSupported", cuptiProfilerDeviceSupported(&p));
    if (status.ok() && p.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
        const std::string why = unsupported_reason(p);
        status = {ProfilerFailure::unsupported, "range profiling not supported: " + why};
    }
    return status;
}

// Asked before any session is enabled on the context; also the earliest point where missing
// counter permissions show (docs/cupti-notes.md F7).
ProfilerStatus counter_availability(CUcontext context, std::vector<std::uint8_t>& image) noexcept {
    auto p = make_params<CUpti_Profiler_GetCounterAvailability_Params>(
        CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
    p.ctx = context;
    ProfilerStatus status =
        check("cuptiProfilerGetCounterAvailability", cuptiProfilerGetCounterAvailability(&p));
    if (!status.ok()) {
        return status;
    }
    image.assign(p.counterAvailabilityImageSize, 0);
    p.pCounterAvailabilityImage = image.data();
    status = check("cuptiProfilerGetCounterAvailability", cuptiProfilerGetCounterAvailability(&p));
    if (!status.ok()) {
        // A size but no image (another client took the counters between the two calls, as ncu
        // did on the H200): an all-zero image would be kept for the device and refuse every
        // later set-up (cuptiProfilerHostInitialize: NOT_SUPPORTED), so none is kept.
        image.clear();
    }
    return status;
}

ProfilerStatus from_host(const HostStatus& status) {
    return status.ok ? ProfilerStatus{} : ProfilerStatus{ProfilerFailure::other, status.error};
}

/// Stop's outputs, for the first GPU run (IRF_LOG=debug; docs/cupti-notes.md question 13).
void log_stop(std::size_t pass_index, std::size_t nesting, bool all_submitted) noexcept {
    try {
        if (common::log_enabled(common::LogLevel::debug)) {
            common::log_line(common::LogLevel::debug,
                             "range profiler Stop: passIndex " + std::to_string(pass_index) +
                                 ", targetNestingLevel " + std::to_string(nesting) +
                                 ", isAllPassSubmitted " + (all_submitted ? "1" : "0"));
        }
    } catch (...) { // out of memory: no debug line
    }
}

/// A teardown step's result (and time), for a GPU run: a Disable that fails leaves the counters
/// held, and one that waits for the context's work stalls its caller (IRF_LOG=debug).
void log_teardown_step(const char* step, CUptiResult result,
                       std::chrono::steady_clock::duration took = {}) noexcept {
    try {
        if (common::log_enabled(common::LogLevel::debug)) {
            const double ms = std::chrono::duration<double, std::milli>(took).count();
            common::log_line(common::LogLevel::debug,
                             std::string("range profiler teardown: ") + step + " " +
                                 (result == CUPTI_SUCCESS ? "ok" : call_error(step, result)) +
                                 (ms > 0 ? " in " + std::to_string(ms) + " ms" : ""));
        }
    } catch (...) {
    }
}

void say_once_reconfigured(const std::string& error) noexcept {
    static std::atomic<bool> s_said{false};
    try {
        if (!s_said.exchange(true)) {
            common::log_line(common::LogLevel::warn,
                             "range profiler: Start was refused (" + error +
                                 "); its config was set again (pass index 0) and Start retried");
        }
    } catch (...) {
    }
}

} // namespace

ProfilerStatus profiler_status(const char* call, CUptiResult result) noexcept {
    return check(call, result);
}

ProfilerStatus initialize_profiler() noexcept {
    static std::once_flag s_once;
    static ProfilerStatus s_status;
    std::call_once(s_once, [] {
        auto p = make_params<CUpti_Profiler_Initialize_Params>(
            CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
        s_status = check("cuptiProfilerInitialize", cuptiProfilerInitialize(&p));
    });
    return s_status;
}

std::string chip_name(CUdevice device) noexcept {
    auto p =
        make_params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    p.deviceIndex = static_cast<std::size_t>(device);
    if (cuptiDeviceGetChipName(&p) != CUPTI_SUCCESS || p.pChipName == nullptr) {
        return {};
    }
    try {
        return p.pChipName;
    } catch (...) {
        return {};
    }
}

ProfilerStatus ContextProfiler::setup(CUcontext context, CUdevice device, const std::string& chip,
                                      const std::vector<std::string>& metrics,
                                      std::vector<std::uint8_t>& availability) noexcept {
    try {
        m_context = context;
        m_metrics = metrics;
        m_metric_ptrs.clear();
        for (const auto& metric : m_metrics) {
            m_metric_ptrs.push_back(metric.c_str());
        }
        ProfilerStatus status = device_supported(device);
        // One image per device, read once: asking again while another context of the device
        // has a profiler enabled is not allowed (docs/cupti-notes.md F7).
        if (status.ok() && availability.empty()) {
            status = counter_availability(context, availability);
        }
        if (status.ok()) {
            status = from_host(m_host.init(chip, availability));
        }
        if (status.ok()) {
            status = from_host(m_host.add(m_metrics));
        }
        if (status.ok()) {
            status = from_host(m_host.image(m_config));
        }
        int passes = 0;
        if (status.ok()) {
            status = from_host(count_passes(m_config, passes));
            m_passes = passes;
        }
        return status.ok() ? enable_and_configure() : status;
    } catch (...) {
        return {ProfilerFailure::other, "out of memory setting up the range profiler"};
    }
}

ProfilerStatus ContextProfiler::enable_and_configure() noexcept {
    auto ep = make_params<CUpti_RangeProfiler_Enable_Params>(
        CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    ep.ctx = m_context;
    ProfilerStatus status = check("cuptiRangeProfilerEnable", cuptiRangeProfilerEnable(&ep));
    if (!status.ok()) {
        return status;
    }
    m_profiler = ep.pRangeProfilerObject;
    auto sp = make_params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
    sp.pRangeProfilerObject = m_profiler;
    sp.pMetricNames = m_metric_ptrs.data();
    sp.numMetrics = m_metric_ptrs.size();
    sp.maxNumOfRanges = k_max_ranges;
    sp.maxNumRangeTreeNodes = k_max_ranges;
    status =
        check("cuptiRangeProfilerGetCounterDataSize", cuptiRangeProfilerGetCounterDataSize(&sp));
    if (!status.ok()) {
        return status;
    }
    try {
        m_counter_data.assign(sp.counterDataSize, 0);
    } catch (...) {
        return {ProfilerFailure::other, "out of memory for the counter-data image"};
    }
    status = reset_counter_data();
    if (!status.ok()) {
        return status;
    }
    status = set_config(false);
    if (!status.ok() && status.failure == ProfilerFailure::other) {
        // Some drivers refuse irf's nesting values; NVIDIA's range-profiler sample utility
        // passes targetNestingLevel 0 and maxRangesPerPass = the image's ranges (cupti-notes.md).
        const ProfilerStatus retry = set_config(true);
        m_sample_utility_values = retry.ok();
        status = retry.ok() ? retry : status;
    }
    return status;
}

ProfilerStatus ContextProfiler::set_config(bool sample_utility_values) noexcept {
    auto cp = make_params<CUpti_RangeProfiler_SetConfig_Params>(
        CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
    cp.pRangeProfilerObject = m_profiler;
    cp.configSize = m_config.size();
    cp.pConfig = m_config.data();
    cp.counterDataImageSize = m_counter_data.size();
    cp.pCounterDataImage = m_counter_data.data();
    cp.range = CUPTI_AutoRange;
    cp.replayMode = CUPTI_KernelReplay;
    cp.maxRangesPerPass = k_max_ranges;
    cp.numNestingLevels = 1; // must be 1 in auto range
    cp.minNestingLevel = 1;
    cp.passIndex = 0;
    cp.targetNestingLevel = sample_utility_values ? 0 : 1;
    m_configured_pass_image = nullptr;
    return check("cuptiRangeProfilerSetConfig", cuptiRangeProfilerSetConfig(&cp));
}

ProfilerStatus ContextProfiler::reset_counter_data() noexcept {
    auto ip = make_params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
    ip.pRangeProfilerObject = m_profiler;
    ip.counterDataSize = m_counter_data.size();
    ip.pCounterData = m_counter_data.data();
    return check("cuptiRangeProfilerCounterDataImageInitialize",
                 cuptiRangeProfilerCounterDataImageInitialize(&ip));
}

ProfilerStatus ContextProfiler::start() noexcept {
    if (m_profiler == nullptr) {
        return {ProfilerFailure::other, "range profiler not set up"};
    }
    if (m_armed != nullptr) {
        return start_pass();
    }
    // One SetConfig serves every sample while each replay completes; after an incomplete one,
    // or when a later Start is refused, the config (pass index 0) is set again first, as
    // NVIDIA's range-profiling sample does before each session.
    ProfilerStatus status = m_reconfigure ? set_config(m_sample_utility_values) : ProfilerStatus{};
    if (status.ok()) {
        status = start_once();
    }
    if (!status.ok() && status.failure == ProfilerFailure::other && !m_reconfigure) {
        const ProfilerStatus again = set_config(m_sample_utility_values);
        if (again.ok()) {
            say_once_reconfigured(status.error);
            status = start_once();
        }
    }
    m_reconfigure = !status.ok();
    return status;
}

ProfilerStatus ContextProfiler::start_once() noexcept {
    auto p =
        make_params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = m_profiler;
    ProfilerStatus status = check("cuptiRangeProfilerStart", cuptiRangeProfilerStart(&p));
    m_started = status.ok();
    return status;
}

ProfilerStatus ContextProfiler::stop_and_evaluate(std::vector<double>& values,
                                                  RangeReport& report) noexcept {
    if (!m_started) {
        m_armed = nullptr;
        return {ProfilerFailure::other, "range profiler not started"};
    }
    if (m_armed != nullptr) {
        return stop_pass(values, report);
    }
    auto sp =
        make_params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    sp.pRangeProfilerObject = m_profiler;
    ProfilerStatus status = check("cuptiRangeProfilerStop", cuptiRangeProfilerStop(&sp));
    m_started = false;
    if (!status.ok()) {
        m_reconfigure = true;
        return status;
    }
    log_stop(sp.passIndex, sp.targetNestingLevel, sp.isAllPassSubmitted != 0);
    if (sp.isAllPassSubmitted == 0) {
        // Kernel replay should submit every pass before the launch returns; if it did not, the
        // counter data is partial, so the sample is lost and the config is set again.
        m_reconfigure = true;
        static_cast<void>(reset_counter_data());
        return {ProfilerFailure::other, "not every replay pass was submitted (pass index " +
                                            std::to_string(sp.passIndex) + ")"};
    }
    auto dp = make_params<CUpti_RangeProfiler_DecodeData_Params>(
        CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
    dp.pRangeProfilerObject = m_profiler;
    status = check("cuptiRangeProfilerDecodeData", cuptiRangeProfilerDecodeData(&dp));
    auto ip = make_params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
    ip.pCounterDataImage = m_counter_data.data();
    ip.counterDataImageSize = m_counter_data.size();
    if (status.ok()) {
        status = check("cuptiRangeProfilerGetCounterDataInfo",
                       cuptiRangeProfilerGetCounterDataInfo(&ip));
    }
    report.ranges = status.ok() ? ip.numTotalRanges : 0;
    report.dropped = dp.numOfRangeDropped;
    if (status.ok() && ip.numTotalRanges < 1) {
        status = {ProfilerFailure::other,
                  "no range recorded (" + std::to_string(dp.numOfRangeDropped) + " dropped)"};
    }
    if (status.ok()) {
        try {
            status = from_host(m_host.evaluate(m_counter_data, 0, m_metric_ptrs, values));
        } catch (...) {
            status = {ProfilerFailure::other, "out of memory evaluating counters"};
        }
    }
    const ProfilerStatus reset = reset_counter_data();
    return status.ok() ? reset : status;
}

void ContextProfiler::teardown() noexcept {
    if (m_profiler == nullptr) {
        return;
    }
    if (m_started) {
        auto sp = make_params<CUpti_RangeProfiler_Stop_Params>(
            CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
        sp.pRangeProfilerObject = m_profiler;
        log_teardown_step("Stop", cuptiRangeProfilerStop(&sp));
        m_started = false;
    }
    auto dp = make_params<CUpti_RangeProfiler_Disable_Params>(
        CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    dp.pRangeProfilerObject = m_profiler;
    const auto start = std::chrono::steady_clock::now();
    const CUptiResult disabled = cuptiRangeProfilerDisable(&dp);
    log_teardown_step("Disable", disabled, std::chrono::steady_clock::now() - start);
    m_profiler = nullptr;
}

} // namespace irf::intercept::cupti

// SPDX-License-Identifier: Apache-2.0
// One pass per launch (CUPTI user replay) on a context's Range Profiler, for samples that span
// launches (intercept/cupti/pass_samples.hpp, docs/cupti-notes.md "One pass per launch"). Each
// sample has its own counter-data image; SetConfig is given that image and the sample's next
// pass index before its first pass and whenever another sample or a kernel replay configured
// the profiler since, so samples of different kernels advance in turn on one profiler.
// Nothing is saved or restored: pass k runs on the k-th launch as the application made it.
#include <string>

#include "common/log.hpp"
#include "intercept/cupti/range_profiler.hpp"

namespace irf::intercept::cupti {
namespace {

/// Stop's outputs of a pass (IRF_LOG=debug; the GPU run checks them, docs/cupti-notes.md).
void log_pass(std::size_t pass_index, bool all_submitted) noexcept {
    try {
        if (common::log_enabled(common::LogLevel::debug)) {
            common::log_line(common::LogLevel::debug,
                             "range profiler user-replay Stop: passIndex " +
                                 std::to_string(pass_index) + ", isAllPassSubmitted " +
                                 (all_submitted ? "1" : "0"));
        }
    } catch (...) {
    }
}

} // namespace

ProfilerStatus ContextProfiler::arm_pass(PassSample& sample) noexcept {
    if (m_profiler == nullptr) {
        return {ProfilerFailure::other, "range profiler not set up"};
    }
    if (!sample.image) {
        try {
            sample.image = std::make_shared<std::vector<std::uint8_t>>(m_counter_data.size(), 0);
        } catch (...) {
            return {ProfilerFailure::other, "out of memory for a counter-data image"};
        }
        auto ip = make_params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
            CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
        ip.pRangeProfilerObject = m_profiler;
        ip.counterDataSize = sample.image->size();
        ip.pCounterData = sample.image->data();
        const ProfilerStatus status =
            profiler_status("cuptiRangeProfilerCounterDataImageInitialize",
                            cuptiRangeProfilerCounterDataImageInitialize(&ip));
        if (!status.ok()) {
            sample.image.reset();
            return status;
        }
    }
    m_armed = &sample;
    return {};
}

ProfilerStatus ContextProfiler::start_pass() noexcept {
    PassSample& sample = *m_armed;
    ProfilerStatus status;
    // NVIDIA's user-replay sample sets the config once and then runs Start and Stop for each
    // pass. irf set it before every pass, and on the H200 every instrumented counter read 0
    // (docs/cupti-notes.md question 17): now it is set only for a sample's first pass, or when
    // another sample or a kernel replay configured the profiler in between.
    if (m_configured_pass_image != sample.image.get() || sample.next_pass == 0) {
        status = configure_pass(sample);
        m_configured_pass_image = status.ok() ? sample.image.get() : nullptr;
    }
    m_pass_image = sample.image;
    m_reconfigure = true; // a kernel replay's Start sets its own image again first
    if (status.ok()) {
        auto p = make_params<CUpti_RangeProfiler_Start_Params>(
            CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
        p.pRangeProfilerObject = m_profiler;
        status = profiler_status("cuptiRangeProfilerStart", cuptiRangeProfilerStart(&p));
    }
    m_started = status.ok();
    if (!status.ok()) {
        m_configured_pass_image = nullptr;
        m_armed = nullptr;
    }
    return status;
}

ProfilerStatus ContextProfiler::configure_pass(const PassSample& sample) noexcept {
    auto cp = make_params<CUpti_RangeProfiler_SetConfig_Params>(
        CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
    cp.pRangeProfilerObject = m_profiler;
    cp.configSize = m_config.size();
    cp.pConfig = m_config.data();
    cp.counterDataImageSize = sample.image->size();
    cp.pCounterDataImage = sample.image->data();
    cp.range = CUPTI_AutoRange;
    cp.replayMode = CUPTI_UserReplay;
    cp.maxRangesPerPass = k_max_ranges;
    cp.numNestingLevels = 1; // must be 1 in auto range
    cp.minNestingLevel = 1;
    cp.passIndex = sample.next_pass;
    cp.targetNestingLevel = m_sample_utility_values ? 0 : 1;
    return profiler_status("cuptiRangeProfilerSetConfig", cuptiRangeProfilerSetConfig(&cp));
}

ProfilerStatus ContextProfiler::stop_pass(std::vector<double>& values,
                                          RangeReport& report) noexcept {
    PassSample& sample = *m_armed;
    auto sp =
        make_params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    sp.pRangeProfilerObject = m_profiler;
    ProfilerStatus status = profiler_status("cuptiRangeProfilerStop", cuptiRangeProfilerStop(&sp));
    m_started = false;
    if (!status.ok()) {
        m_configured_pass_image = nullptr;
        m_armed = nullptr;
        return status;
    }
    log_pass(sp.passIndex, sp.isAllPassSubmitted != 0);
    // Stop names the pass the next launch runs (the H200, 2026-11-28: 1, 2, 3 after the first
    // three passes of four, then 0 with isAllPassSubmitted 1; docs/cupti-notes.md question 17).
    sample.next_pass = sp.passIndex;
    if (sp.isAllPassSubmitted == 0) {
        values.clear(); // no counters before every pass is in
        report = {1, 0};
        m_armed = nullptr;
        return {};
    }
    sample.complete = true;
    m_configured_pass_image = nullptr;
    status = evaluate_pass(values, report);
    m_armed = nullptr;
    return status;
}

ProfilerStatus ContextProfiler::evaluate_pass(std::vector<double>& values,
                                              RangeReport& report) noexcept {
    std::vector<std::uint8_t>& image = *m_armed->image;
    auto dp = make_params<CUpti_RangeProfiler_DecodeData_Params>(
        CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
    dp.pRangeProfilerObject = m_profiler;
    ProfilerStatus status =
        profiler_status("cuptiRangeProfilerDecodeData", cuptiRangeProfilerDecodeData(&dp));
    auto ip = make_params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
    ip.pCounterDataImage = image.data();
    ip.counterDataImageSize = image.size();
    if (status.ok()) {
        status = profiler_status("cuptiRangeProfilerGetCounterDataInfo",
                                 cuptiRangeProfilerGetCounterDataInfo(&ip));
    }
    report.ranges = status.ok() ? ip.numTotalRanges : 0;
    report.dropped = dp.numOfRangeDropped;
    if (status.ok() && ip.numTotalRanges < 1) {
        return {ProfilerFailure::other,
                "no range recorded (" + std::to_string(dp.numOfRangeDropped) + " dropped)"};
    }
    if (status.ok()) {
        try {
            const HostStatus evaluated = m_host.evaluate(image, 0, m_metric_ptrs, values);
            if (!evaluated.ok) {
                status = {ProfilerFailure::other, evaluated.error};
            }
        } catch (...) {
            status = {ProfilerFailure::other, "out of memory evaluating counters"};
        }
    }
    return status;
}

} // namespace irf::intercept::cupti

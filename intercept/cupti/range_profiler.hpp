// SPDX-License-Identifier: Apache-2.0
// One context's Range Profiler session: auto range + kernel replay, one launch per range; or
// auto range + user replay, one pass per launch for samples that span launches (IRF_REPLAY).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <cuda.h>
#include <cupti.h>
#include <cupti_range_profiler.h>

#include "intercept/cupti/host_object.hpp"
#include "intercept/cupti/profiler_seam.hpp"

namespace irf::intercept::cupti {

/// Ranges one counter-data image holds: a second launch inside the window shows as a second
/// range (discarded sample) instead of silently replacing the first.
constexpr std::size_t k_max_ranges = 2;

/// The RangeProfiler on CUPTI's Range Profiler API (docs/cupti-notes.md F5).
class ContextProfiler final : public RangeProfiler {
public:
    ContextProfiler() = default;
    ContextProfiler(const ContextProfiler&) = delete;
    ContextProfiler& operator=(const ContextProfiler&) = delete;
    ~ContextProfiler() override { teardown(); }

    /// Steps 2-9: support check, availability, config image, enable, counter data, config.
    ProfilerStatus setup(CUcontext context, CUdevice device, const std::string& chip,
                         const std::vector<std::string>& metrics,
                         std::vector<std::uint8_t>& availability) noexcept override;
    /// Step 10, at the launch's ENTER callback.
    ProfilerStatus start() noexcept override;
    /// Steps 11-14 at EXIT: stop, decode (synchronizes the context), evaluate range 0 into
    /// `values` (one per metric), reset the image.
    ProfilerStatus stop_and_evaluate(std::vector<double>& values,
                                     RangeReport& report) noexcept override;
    /// Step 15: stop if started, disable; idempotent. Call at context destruction.
    void teardown() noexcept override;

    /// Replay passes of the config image (0 before setup).
    [[nodiscard]] int passes() const noexcept override { return m_passes; }

    /// The next start/stop_and_evaluate run one pass of `sample` by user replay
    /// (range_profiler_passes.cpp): its own counter-data image, set up here the first time.
    ProfilerStatus arm_pass(PassSample& sample) noexcept override;

private:
    /// SetConfig for the armed sample when needed (user replay, its image and pass index),
    /// then Start.
    ProfilerStatus start_pass() noexcept;
    ProfilerStatus configure_pass(const PassSample& sample) noexcept;
    /// Stop of the armed sample's pass; decode and evaluate once every pass was submitted.
    ProfilerStatus stop_pass(std::vector<double>& values, RangeReport& report) noexcept;
    /// Decodes the armed sample's image (the one configured) and evaluates its range 0.
    ProfilerStatus evaluate_pass(std::vector<double>& values, RangeReport& report) noexcept;

    ProfilerStatus enable_and_configure() noexcept;
    ProfilerStatus set_config(bool sample_utility_values) noexcept;
    ProfilerStatus start_once() noexcept;
    ProfilerStatus reset_counter_data() noexcept;

    CUcontext m_context = nullptr;
    HostObject m_host;
    CUpti_RangeProfiler_Object* m_profiler = nullptr;
    std::vector<std::string> m_metrics;
    std::vector<const char*> m_metric_ptrs;
    std::vector<std::uint8_t> m_config;
    std::vector<std::uint8_t> m_counter_data;
    bool m_started = false;
    bool m_sample_utility_values = false; ///< SetConfig took the sample utility's values
    bool m_reconfigure = false;           ///< set the config again before the next Start
    int m_passes = 0;
    PassSample* m_armed = nullptr; ///< the sample whose pass the next start runs (user replay)
    /// The image CUPTI was last configured with for a pass, kept alive after its sample goes.
    std::shared_ptr<std::vector<std::uint8_t>> m_pass_image;
    /// The sample image SetConfig last configured for user replay (null after a kernel
    /// replay's SetConfig, a failed pass or a completed sample): its next pass needs none.
    const std::vector<std::uint8_t>* m_configured_pass_image = nullptr;
};

/// A failed CUPTI call as a ProfilerStatus (permission, unsupported and busy told apart).
ProfilerStatus profiler_status(const char* call, CUptiResult result) noexcept;

/// Once per process before the first ContextProfiler (cuptiProfilerInitialize).
ProfilerStatus initialize_profiler() noexcept;

/// The CUPTI chip name of a device ordinal ("GH100"); call only with a live driver.
std::string chip_name(CUdevice device) noexcept;

} // namespace irf::intercept::cupti

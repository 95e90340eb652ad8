// SPDX-License-Identifier: Apache-2.0
// One context's Range Profiler session: auto range + kernel replay, one launch per range.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <cuda.h>
#include <cupti.h>
#include <cupti_range_profiler.h>

#include "intercept/cupti/host_object.hpp"

namespace irf::intercept::cupti {

/// Why a profiler step failed: `permission` and `unsupported` disable profiling everywhere.
enum class ProfilerFailure : std::uint8_t { none, permission, unsupported, other };

/// Outcome of a profiler step.
struct ProfilerStatus {
    ProfilerFailure failure = ProfilerFailure::none;
    std::string error;
    [[nodiscard]] bool ok() const noexcept { return failure == ProfilerFailure::none; }
};

/// Counter collection for one CUDA context (cupti.md 3.2). Not thread-safe: the backend
/// serializes every call on it under its sample lock.
class ContextProfiler {
public:
    ContextProfiler() = default;
    ContextProfiler(const ContextProfiler&) = delete;
    ContextProfiler& operator=(const ContextProfiler&) = delete;
    ~ContextProfiler() { teardown(); }

    /// Steps 2-9: support check, availability, config image, enable, counter data, config.
    ProfilerStatus setup(CUcontext context, CUdevice device, const std::string& chip,
                         const std::vector<std::string>& metrics) noexcept;
    /// Step 10, at the launch's ENTER callback.
    ProfilerStatus start() noexcept;
    /// Steps 11-14 at EXIT: stop, decode (synchronizes the context), evaluate range 0 into
    /// `values` (one per metric), reset the image.
    ProfilerStatus stop_and_evaluate(std::vector<double>& values) noexcept;
    /// Step 15: stop if started, disable; idempotent. Call at context destruction.
    void teardown() noexcept;

    /// Replay passes of the config image (0 before setup).
    [[nodiscard]] int passes() const noexcept { return m_passes; }

private:
    ProfilerStatus enable_and_configure() noexcept;
    ProfilerStatus reset_counter_data() noexcept;

    CUcontext m_context = nullptr;
    HostObject m_host;
    CUpti_RangeProfiler_Object* m_profiler = nullptr;
    std::vector<std::string> m_metrics;
    std::vector<const char*> m_metric_ptrs;
    std::vector<std::uint8_t> m_config;
    std::vector<std::uint8_t> m_counter_data;
    bool m_started = false;
    int m_passes = 0;
};

/// Once per process before the first ContextProfiler (cuptiProfilerInitialize).
ProfilerStatus initialize_profiler() noexcept;

/// The CUPTI chip name of a device ordinal ("GH100"); call only with a live driver.
std::string chip_name(CUdevice device) noexcept;

} // namespace irf::intercept::cupti

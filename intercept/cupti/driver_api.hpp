// SPDX-License-Identifier: Apache-2.0
// Driver entry points resolved at run time (libirf.so never links libcuda).
#pragma once

#include <cstdint>
#include <string>

#include <cuda.h>

#include "model/profile/profile.hpp"

namespace irf::intercept::cupti {

/// The few driver functions irf calls, looked up in the already-loaded libcuda.so.1.
/// Any pointer may be null (no driver, or an older one); callers check.
struct DriverApi {
    decltype(&::cuFuncGetAttribute) func_get_attribute = nullptr;
    decltype(&::cuKernelGetAttribute) kernel_get_attribute = nullptr;
    decltype(&::cuCtxGetDevice) ctx_get_device = nullptr;
    decltype(&::cuDeviceGetAttribute) device_get_attribute = nullptr;
    decltype(&::cuDeviceGetName) device_get_name = nullptr;
    decltype(&::cuDeviceTotalMem) device_total_mem = nullptr;
    decltype(&::cuDriverGetVersion) driver_get_version = nullptr;
    decltype(&::cuStreamIsCapturing) stream_is_capturing = nullptr;
    decltype(&::cuStreamIsCapturing) stream_is_capturing_ptsz = nullptr;
    decltype(&::cuCtxGetCurrent) ctx_get_current = nullptr; // IRF_FAST_INTERCEPT's hook
    decltype(&::cuFuncGetName) func_get_name = nullptr;
    decltype(&::cuKernelGetName) kernel_get_name = nullptr;

    /// True when the functions needed for launch attributes were found.
    [[nodiscard]] bool usable() const noexcept {
        return func_get_attribute != nullptr && ctx_get_device != nullptr;
    }
};

/// Resolves the driver functions once (dlopen("libcuda.so.1", RTLD_NOLOAD) then RTLD_DEFAULT).
[[nodiscard]] const DriverApi& driver_api() noexcept;

/// Registers per thread and static shared memory of a launched function; either may be 0
/// when the handle is a CUkernel the driver does not accept as a CUfunction.
struct FunctionAttributes {
    std::uint32_t regs = 0;
    std::uint32_t static_smem = 0;
    /// The mangled name, kept only under IRF_FAST_INTERCEPT=1 (the hook has no CUPTI data).
    const char* name = nullptr;
};

/// Reads the attributes of `function` on `device` (tries cuFuncGetAttribute, then
/// cuKernelGetAttribute for a CUkernel handle).
[[nodiscard]] FunctionAttributes function_attributes(CUfunction function, CUdevice device) noexcept;

/// The calling thread's current context (cuCtxGetCurrent); null when none or no driver.
[[nodiscard]] CUcontext current_context() noexcept;

/// The mangled name of a launch handle (cuFuncGetName, then cuKernelGetName for a CUkernel);
/// null when the driver cannot tell. Owned by the driver while its module is loaded.
[[nodiscard]] const char* function_name(CUfunction function) noexcept;

/// True when `stream` is capturing into a graph (cuStreamIsCapturing; the _ptsz entry for a
/// per-thread-default-stream launch). False when the driver cannot tell.
[[nodiscard]] bool stream_is_capturing(CUstream stream, bool per_thread) noexcept;

/// Name, cc, SMs, clock, L2, memory and driver version of `device` (chip is left empty).
[[nodiscard]] model::GpuInfo device_info(CUdevice device) noexcept;

/// "13.0" from cuDriverGetVersion's 13000.
[[nodiscard]] std::string format_driver_version(int version);

} // namespace irf::intercept::cupti

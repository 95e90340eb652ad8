// SPDX-License-Identifier: Apache-2.0
// Driver entry points resolved with dlsym, so libirf.so loads on machines without a driver.
#include "intercept/cupti/driver_api.hpp"

#include <array>

#include <dlfcn.h>

#include "intercept/cupti/guarded_cbids.hpp"

namespace irf::intercept::cupti {
namespace {

template <class Fn> void resolve(void* handle, const char* name, Fn& out) noexcept {
    void* symbol = handle != nullptr ? dlsym(handle, name) : nullptr;
    if (symbol == nullptr) {
        symbol = dlsym(RTLD_DEFAULT, name);
    }
    // POSIX guarantees that object and function pointers convert through dlsym's void*.
    out = reinterpret_cast<Fn>(symbol);
}

DriverApi load_driver_api() noexcept {
    DriverApi api;
    // RTLD_NOLOAD: the injection runs inside cuInit, so the driver is already mapped; never
    // load it ourselves.
    void* handle = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    resolve(handle, "cuFuncGetAttribute", api.func_get_attribute);
    resolve(handle, "cuKernelGetAttribute", api.kernel_get_attribute);
    resolve(handle, "cuCtxGetDevice", api.ctx_get_device);
    resolve(handle, "cuDeviceGetAttribute", api.device_get_attribute);
    resolve(handle, "cuDeviceGetName", api.device_get_name);
    resolve(handle, "cuDeviceTotalMem_v2", api.device_total_mem);
    resolve(handle, "cuDriverGetVersion", api.driver_get_version);
    resolve(handle, "cuStreamIsCapturing", api.stream_is_capturing);
    resolve(handle, "cuStreamIsCapturing_ptsz", api.stream_is_capturing_ptsz);
    resolve(handle, "cuCtxGetCurrent", api.ctx_get_current);
    resolve(handle, "cuFuncGetName", api.func_get_name);
    resolve(handle, "cuKernelGetName", api.kernel_get_name);
    return api;
}

int device_attribute(CUdevice device, CUdevice_attribute attribute) noexcept {
    const DriverApi& api = driver_api();
    int value = 0;
    if (api.device_get_attribute == nullptr ||
        api.device_get_attribute(&value, attribute, device) != CUDA_SUCCESS) {
        return 0;
    }
    return value;
}

std::uint32_t function_attribute(CUfunction function, CUdevice device,
                                 CUfunction_attribute attribute) noexcept {
    const DriverApi& api = driver_api();
    int value = 0;
    if (api.func_get_attribute != nullptr &&
        api.func_get_attribute(&value, attribute, function) == CUDA_SUCCESS) {
        return static_cast<std::uint32_t>(value);
    }
    // The launch handle may be a CUkernel cast to CUfunction (cuda.h, cuLaunchKernel).
    if (api.kernel_get_attribute != nullptr &&
        api.kernel_get_attribute(&value, attribute, reinterpret_cast<CUkernel>(function), device) ==
            CUDA_SUCCESS) {
        return static_cast<std::uint32_t>(value);
    }
    return 0;
}

} // namespace

const DriverApi& driver_api() noexcept {
    static const DriverApi s_api = load_driver_api();
    return s_api;
}

FunctionAttributes function_attributes(CUfunction function, CUdevice device) noexcept {
    FunctionAttributes attributes;
    if (function == nullptr) {
        return attributes;
    }
    attributes.regs = function_attribute(function, device, CU_FUNC_ATTRIBUTE_NUM_REGS);
    attributes.static_smem =
        function_attribute(function, device, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    return attributes;
}

CUcontext current_context() noexcept {
    const DriverApi& api = driver_api();
    CUcontext context = nullptr;
    if (api.ctx_get_current == nullptr || api.ctx_get_current(&context) != CUDA_SUCCESS) {
        return nullptr;
    }
    return context;
}

const char* function_name(CUfunction function) noexcept {
    const DriverApi& api = driver_api();
    const char* name = nullptr;
    if (function == nullptr) {
        return nullptr;
    }
    if (api.func_get_name != nullptr && api.func_get_name(&name, function) == CUDA_SUCCESS) {
        return name;
    }
    // As for the attributes: the launch handle may be a CUkernel cast to CUfunction.
    if (api.kernel_get_name != nullptr &&
        api.kernel_get_name(&name, reinterpret_cast<CUkernel>(function)) == CUDA_SUCCESS) {
        return name;
    }
    return nullptr;
}

bool stream_is_capturing(CUstream stream, bool per_thread) noexcept {
    const DriverApi& api = driver_api();
    const auto query = per_thread && api.stream_is_capturing_ptsz != nullptr
                           ? api.stream_is_capturing_ptsz
                           : api.stream_is_capturing;
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    return query != nullptr && means_capturing(query(stream, &status), status);
}

std::string format_driver_version(int version) {
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

model::GpuInfo device_info(CUdevice device) noexcept {
    model::GpuInfo info;
    try {
        const DriverApi& api = driver_api();
        std::array<char, 256> name{};
        if (api.device_get_name != nullptr &&
            api.device_get_name(name.data(), static_cast<int>(name.size()), device) ==
                CUDA_SUCCESS) {
            info.name = name.data();
        }
        info.cc =
            std::to_string(device_attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)) +
            "." +
            std::to_string(device_attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
        info.sms = device_attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
        info.clock_hz = 1e3 * device_attribute(device, CU_DEVICE_ATTRIBUTE_CLOCK_RATE); // kHz
        info.l2_bytes =
            static_cast<std::uint64_t>(device_attribute(device, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
        std::size_t bytes = 0;
        if (api.device_total_mem != nullptr &&
            api.device_total_mem(&bytes, device) == CUDA_SUCCESS) {
            info.memory_bytes = bytes;
        }
        int version = 0;
        if (api.driver_get_version != nullptr && api.driver_get_version(&version) == CUDA_SUCCESS) {
            info.driver = "CUDA " + format_driver_version(version);
        }
    } catch (...) {
        // std::string allocation failure: return what we have.
    }
    return info;
}

} // namespace irf::intercept::cupti

// SPDX-License-Identifier: Apache-2.0
// open_device: CUDA runtime queries for the calibrated GPU.
#include "calibrate/device_info.hpp"

#include <cuda_runtime_api.h>

namespace irf::calibrate {
namespace {

std::string version_text(int v) {
    // CUDA encodes versions as 1000 x major + 10 x minor.
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

int attribute(cudaDeviceAttr attr, int device) {
    int value = 0;
    check_cuda(cudaDeviceGetAttribute(&value, attr, device), "cudaDeviceGetAttribute");
    return value;
}

} // namespace

void check_cuda(int status, const std::string& what) {
    if (status != cudaSuccess) {
        throw std::runtime_error(what + ": " +
                                 cudaGetErrorString(static_cast<cudaError_t>(status)));
    }
}

DeviceInfo open_device(int index) {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        throw NoDevice(cudaGetErrorString(err));
    }
    if (count == 0) {
        throw NoDevice("the CUDA runtime reports no device");
    }
    if (index < 0 || index >= count) {
        throw NoDevice("device " + std::to_string(index) + " does not exist (" +
                       std::to_string(count) + " found)");
    }
    if (cudaSetDevice(index) != cudaSuccess) {
        throw NoDevice("cannot select device " + std::to_string(index));
    }
    cudaDeviceProp prop{};
    check_cuda(cudaGetDeviceProperties(&prop, index), "cudaGetDeviceProperties");
    DeviceInfo d;
    d.index = index;
    d.name = prop.name;
    d.cc_major = prop.major;
    d.cc_minor = prop.minor;
    d.sms = prop.multiProcessorCount;
    d.l2_bytes = static_cast<std::uint64_t>(prop.l2CacheSize);
    d.memory_bytes = prop.totalGlobalMem;
    // CUDA 13 dropped clockRate from cudaDeviceProp: use the attribute (kHz).
    d.max_clock_mhz = attribute(cudaDevAttrClockRate, index) / 1e3;
    std::size_t free_bytes = 0;
    std::size_t total = 0;
    check_cuda(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
    d.free_bytes = free_bytes;
    int v = 0;
    check_cuda(cudaDriverGetVersion(&v), "cudaDriverGetVersion");
    d.driver = version_text(v);
    check_cuda(cudaRuntimeGetVersion(&v), "cudaRuntimeGetVersion");
    d.runtime = version_text(v);
    return d;
}

} // namespace irf::calibrate

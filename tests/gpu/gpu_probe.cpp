// SPDX-License-Identifier: Apache-2.0
// Device probe through the driver API loaded at run time, so test binaries start without it.
#include "tests/gpu/gpu_probe.hpp"

#include <cstdlib>
#include <cstring>

#include <dlfcn.h>

namespace irf::test {
namespace {

// The two driver entry points we need, declared by hand so the tests need no cuda.h; both
// return CUresult, where 0 is CUDA_SUCCESS.
using CuInitFn = int (*)(unsigned int);
using CuDeviceGetCountFn = int (*)(int*);

DeviceProbe run_probe() {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
        const char* why = dlerror();
        return {false, std::string("no CUDA driver: cannot load libcuda.so.1: ") +
                           (why != nullptr ? why : "unknown error")};
    }
    // dlsym returns void*; the driver exports these with exactly the signatures above.
    auto cu_init = reinterpret_cast<CuInitFn>(dlsym(lib, "cuInit"));
    auto cu_count = reinterpret_cast<CuDeviceGetCountFn>(dlsym(lib, "cuDeviceGetCount"));
    if (cu_init == nullptr || cu_count == nullptr) {
        return {false, "no CUDA driver: libcuda.so.1 lacks cuInit or cuDeviceGetCount"};
    }
    const int init = cu_init(0);
    if (init != 0) {
        return {false, "no CUDA device: cuInit failed with CUresult " + std::to_string(init)};
    }
    int count = 0;
    const int got = cu_count(&count);
    if (got != 0 || count == 0) {
        return {false, "no CUDA device: cuDeviceGetCount found none"};
    }
    // The library stays loaded: unloading the driver while CUDA state exists is not safe.
    return {true, ""};
}

} // namespace

const DeviceProbe& probe_device() {
    static const DeviceProbe s_probe = run_probe();
    return s_probe;
}

Unmet on_unmet_condition() {
    return device_required() ? Unmet::fail : Unmet::skip;
}

bool device_required() {
    const char* v = std::getenv("IRF_GPU_TESTS_REQUIRE");
    return v != nullptr && std::strcmp(v, "1") == 0;
}

} // namespace irf::test

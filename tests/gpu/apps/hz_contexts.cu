// SPDX-License-Identifier: Apache-2.0
// Hazard app: hz_increment runs 3 times in the primary context, then 3 times in a second context
// created on the same device (cuCtxCreate). Expected: 6 launches, each context's counter 3.
#include <cuda.h>

#include "hz_common.cuh"

namespace {

constexpr const char* k_app = "irf-hz-contexts";
constexpr unsigned k_launches = 3;

void check_cu(CUresult r, const char* what) {
    if (r != CUDA_SUCCESS) {
        std::printf("%s: FAIL: %s: CUresult %d\n", k_app, what, static_cast<int>(r));
        std::exit(ka::k_exit_wrong);
    }
}

/// Launches hz_increment k_launches times in the current context; returns its counter.
unsigned count_in_current_context() {
    unsigned* counter = hz::device_counter(k_app);
    hz::launch_increments(counter, k_launches, false, k_app);
    const unsigned value = hz::read_counter(counter, k_app);
    ka::check(cudaFree(counter), "cudaFree", k_app);
    return value;
}

} // namespace

int main(int argc, char**) {
    hz::no_arguments(argc, k_app);
    ka::require_device(k_app);
    const unsigned primary = count_in_current_context();
    CUdevice device = 0;
    check_cu(cuDeviceGet(&device, 0), "cuDeviceGet");
    CUcontext second = nullptr;
    check_cu(cuCtxCreate(&second, nullptr, 0, device), "cuCtxCreate");
    const unsigned other = count_in_current_context(); // the runtime uses the current context
    check_cu(cuCtxDestroy(second), "cuCtxDestroy");
    std::printf("%s: primary context counter %u, second context counter %u\n", k_app, primary,
                other);
    return hz::finish(k_app, primary + other, 2 * k_launches);
}

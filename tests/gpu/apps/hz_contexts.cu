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
    // The driver API through the runtime's entry-point query: no link to libcuda, so the app
    // still starts (and exits 77) where no driver is installed.
    using CtxCreate = CUresult (*)(CUcontext*, CUctxCreateParams*, unsigned, CUdevice);
    using CtxDestroy = CUresult (*)(CUcontext);
    void* create = nullptr;
    void* destroy = nullptr;
    cudaDriverEntryPointQueryResult found{};
    ka::check(
        cudaGetDriverEntryPointByVersion("cuCtxCreate", &create, 13000, cudaEnableDefault, &found),
        "entry point cuCtxCreate", k_app);
    ka::check(cudaGetDriverEntryPointByVersion("cuCtxDestroy", &destroy, 13000, cudaEnableDefault,
                                               &found),
              "entry point cuCtxDestroy", k_app);
    CUcontext second = nullptr;
    check_cu(reinterpret_cast<CtxCreate>(create)(&second, nullptr, 0, 0), "cuCtxCreate");
    const unsigned other = count_in_current_context(); // the runtime uses the current context
    check_cu(reinterpret_cast<CtxDestroy>(destroy)(second), "cuCtxDestroy");
    std::printf("%s: primary context counter %u, second context counter %u\n", k_app, primary,
                other);
    return hz::finish(k_app, primary + other, 2 * k_launches);
}

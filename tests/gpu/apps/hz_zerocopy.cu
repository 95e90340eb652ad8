// SPDX-License-Identifier: Apache-2.0
// Hazard app: a sampled kernel atomically increments a counter in zero-copy (mapped) host
// memory. Kernel replay restores device memory but not host memory, so a replayed sample would
// add more than 1 per launch. Expected: the counter equals the number of launches.
#include "hz_common.cuh"

namespace {

constexpr const char* k_app = "irf-hz-zerocopy";
constexpr unsigned k_launches = 5;

} // namespace

int main(int argc, char**) {
    hz::no_arguments(argc, k_app);
    ka::require_device(k_app);
    unsigned* host_counter = nullptr;
    ka::check(cudaHostAlloc(&host_counter, sizeof(unsigned), cudaHostAllocMapped),
              "cudaHostAlloc mapped", k_app);
    *host_counter = 0;
    unsigned* device_view = nullptr;
    ka::check(cudaHostGetDevicePointer(&device_view, host_counter, 0), "device pointer", k_app);
    hz::launch_increments(device_view, k_launches, true, k_app);
    const unsigned value = *static_cast<volatile unsigned*>(host_counter);
    ka::check(cudaFreeHost(host_counter), "cudaFreeHost", k_app);
    return hz::finish(k_app, value, k_launches);
}

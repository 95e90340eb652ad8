// SPDX-License-Identifier: Apache-2.0
// Hazard app: three synchronized launches of hz_increment, run under CUDA_MODULE_LOADING=EAGER
// and =LAZY (tests/gpu/hazards.json). Expected in both: counter 3, the kernel named and sampled
// (with LAZY the module loads inside the first launch).
#include "hz_common.cuh"

namespace {

constexpr const char* k_app = "irf-hz-loading";
constexpr unsigned k_launches = 3;

} // namespace

int main(int argc, char**) {
    unsigned* counter = hz::begin(argc, k_app);
    hz::launch_increments(counter, k_launches, true, k_app);
    return hz::finish(k_app, hz::read_counter(counter, k_app), k_launches);
}

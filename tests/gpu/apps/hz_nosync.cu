// SPDX-License-Identifier: Apache-2.0
// Hazard app: three launches of hz_increment, then main returns without a synchronize (the
// kernels may still be queued at exit). Expected: exit 0 and a whole profile with 3 launches.
#include "hz_common.cuh"

namespace {

constexpr const char* k_app = "irf-hz-nosync";
constexpr unsigned k_launches = 3;

} // namespace

int main(int argc, char**) {
    unsigned* counter = hz::begin(argc, k_app);
    hz::launch_increments(counter, k_launches, false, k_app);
    std::printf("%s: ok: %u launches queued, exiting without a synchronize\n", k_app, k_launches);
    return 0;
}

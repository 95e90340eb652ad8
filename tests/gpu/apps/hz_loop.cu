// SPDX-License-Identifier: Apache-2.0
// Hazard app: launches hz_increment in a loop until a signal ends it (run under `timeout -s TERM`
// or `-s INT`; at most 10 minutes on its own). No handler of its own: expected is death by that
// signal (exit 128+N under `timeout --preserve-status`), no hang, and a profile whole or absent.
#include <chrono>

#include "hz_common.cuh"

namespace {

constexpr const char* k_app = "irf-hz-loop";
constexpr auto k_longest = std::chrono::minutes(10);

} // namespace

int main(int argc, char**) {
    unsigned* counter = hz::begin(argc, k_app);
    const auto start = std::chrono::steady_clock::now();
    for (unsigned i = 0; std::chrono::steady_clock::now() - start < k_longest; ++i) {
        hz::hz_increment<<<1, 32>>>(counter);
        ka::check(cudaGetLastError(), "launch", k_app);
        if (i == 0) {
            ka::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", k_app);
            std::printf("%s: looping\n", k_app);
            std::fflush(stdout);
        }
    }
    std::printf("%s: FAIL: no signal came in %d minutes\n", k_app, 10);
    return ka::k_exit_wrong;
}

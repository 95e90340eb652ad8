// SPDX-License-Identifier: Apache-2.0
// Hazard app: launches hz_increment in a loop until a signal ends it (run under `timeout -s TERM`
// or `-s INT`; at most 10 minutes on its own). No handler of its own: expected is death by that
// signal (exit 128+N under `timeout --preserve-status`), no hang, and a profile whole or absent.
// HZ_LOOP_WIDEN_AFTER_S=S: after S seconds the launches take 2 blocks, a launch configuration
// irf has not seen, which wants a sample (the pick-up of counters another client held).
// HZ_LOOP_SYNC_EVERY=N: a cudaDeviceSynchronize every N launches (the queue drains; without it
// the work of a loop like this one never does).
#include <chrono>

#include "hz_spin.cuh"

namespace {

constexpr const char* k_app = "irf-hz-loop";
constexpr auto k_longest = std::chrono::minutes(10);

} // namespace

int main(int argc, char**) {
    unsigned* counter = hz::begin(argc, k_app);
    const auto start = std::chrono::steady_clock::now();
    const auto widen = std::chrono::seconds(
        hz::env_knob("HZ_LOOP_WIDEN_AFTER_S", std::chrono::seconds(k_longest).count(), k_app));
    const auto sync = static_cast<unsigned>(hz::env_knob("HZ_LOOP_SYNC_EVERY", 0, k_app));
    unsigned blocks = 1;
    for (unsigned i = 0; std::chrono::steady_clock::now() - start < k_longest; ++i) {
        if (blocks == 1 && std::chrono::steady_clock::now() - start >= widen) {
            blocks = 2;
            std::printf("%s: widened to 2 blocks\n", k_app);
            std::fflush(stdout);
        }
        hz::hz_increment<<<blocks, 32>>>(counter);
        ka::check(cudaGetLastError(), "launch", k_app);
        if (sync > 0 && i % sync == sync - 1) {
            ka::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", k_app);
        }
        if (i == 0) {
            ka::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", k_app);
            std::printf("%s: looping\n", k_app);
            std::fflush(stdout);
        }
    }
    std::printf("%s: FAIL: no signal came in %d minutes\n", k_app, 10);
    return ka::k_exit_wrong;
}

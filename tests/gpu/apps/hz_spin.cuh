// SPDX-License-Identifier: Apache-2.0
// Shared parts of the hazard apps of issue 58 (irf-hz-release, irf-hz-capsample): a kernel that
// spins for a set time on one warp, host timing, the apps' environment knobs and driver entry
// points reached through the runtime (no link to libcuda, so the apps still exit 77 without a
// driver).
#pragma once

#include <chrono>
#include <cstdlib>
#include <string>

#include <cuda.h>

#include "hz_common.cuh"

namespace hz {

/// Spins on one SM until `cycles` SM clocks have passed, then adds 1 to `*done` (a replayed
/// launch restores `*done`, so it still ends 1 higher per launch).
__global__ void hz_spin(long long cycles, unsigned* done) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        atomicAdd(done, 1u);
    }
}

/// SM clocks in `ms` milliseconds at the device's peak clock: a slower clock only spins longer.
inline long long spin_cycles(int ms, const char* app) {
    int device = 0;
    int khz = 0;
    ka::check(cudaGetDevice(&device), "cudaGetDevice", app);
    ka::check(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device), "clock rate", app);
    return static_cast<long long>(khz) * ms;
}

/// Launches hz_spin for about `ms` milliseconds on `stream` (one warp: the other SMs stay free
/// for concurrent kernels) and returns how long the launch call itself took, in seconds.
inline double launch_spin(int ms, unsigned* done, cudaStream_t stream, const char* app) {
    const long long cycles = spin_cycles(ms, app);
    const auto t0 = std::chrono::steady_clock::now();
    hz_spin<<<1, 32, 0, stream>>>(cycles, done);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - t0;
    ka::check(cudaGetLastError(), "spin launch", app);
    return took.count();
}

/// Seconds since `t0` on the steady clock.
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The integer value of environment variable `name` (an HZ_ knob that hazards.json sets), or
/// `fallback` when unset; exits with the usage code when it is not a number in [1, 600000].
inline long env_knob(const char* name, long fallback, const char* app) {
    const char* text = std::getenv(name);
    if (text == nullptr || *text == '\0') {
        return fallback;
    }
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < 1 || value > 600000) {
        std::printf("%s: FAIL: %s=%s is not a whole number from 1 to 600000\n", app, name, text);
        std::exit(ka::k_exit_usage);
    }
    return value;
}

/// The driver entry point `name` (CUDA 13 ABI) through the runtime, as type `Fn`.
template <typename Fn> Fn driver_entry(const char* name, const char* app) {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    const std::string what = std::string("entry point ") + name;
    ka::check(cudaGetDriverEntryPointByVersion(name, &fn, 13000, cudaEnableDefault, &found),
              what.c_str(), app);
    if (fn == nullptr || found != cudaDriverEntryPointSuccess) {
        std::printf("%s: FAIL: %s not found\n", app, what.c_str());
        std::exit(ka::k_exit_wrong);
    }
    return reinterpret_cast<Fn>(fn);
}

/// Exits with the failing driver call and its CUresult.
inline void check_cu(CUresult r, const char* what, const char* app) {
    if (r != CUDA_SUCCESS) {
        std::printf("%s: FAIL: %s: CUresult %d\n", app, what, static_cast<int>(r));
        std::exit(ka::k_exit_wrong);
    }
}

} // namespace hz

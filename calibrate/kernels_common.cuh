// SPDX-License-Identifier: Apache-2.0
// Device helpers shared by the calibration kernels: clock sampling and launch bookkeeping.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "calibrate/kernels.hpp"

namespace irf::calibrate {

/// Reads the global nanosecond timer (same time base on every SM).
__device__ __forceinline__ std::uint64_t global_ns() {
    std::uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/// Thread 0 of block 0 records where it starts.
__device__ __forceinline__ void clock_begin(ClockSample* s) {
    if (s != nullptr && blockIdx.x == 0 && threadIdx.x == 0) {
        s->ns_begin = global_ns();
        s->cycles_begin = static_cast<std::uint64_t>(clock64());
    }
}

/// Thread 0 of block 0 records where it ends.
__device__ __forceinline__ void clock_end(ClockSample* s) {
    if (s != nullptr && blockIdx.x == 0 && threadIdx.x == 0) {
        s->cycles_end = static_cast<std::uint64_t>(clock64());
        s->ns_end = global_ns();
    }
}

/// Grid of `sms` x resident blocks per SM for `kernel`, so every SM is full and none waits for
/// a second wave.
template <typename Kernel>
LaunchInfo full_grid(Kernel kernel, int sms, int threads, std::size_t smem = 0) {
    LaunchInfo info;
    int per_sm = 0;
    const cudaError_t err =
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem);
    if (err != cudaSuccess || per_sm < 1) {
        info.error = err != cudaSuccess ? cudaGetErrorString(err) : "kernel cannot be resident";
        return info;
    }
    info.blocks = static_cast<std::int64_t>(sms) * per_sm;
    info.threads = threads;
    return info;
}

/// Fills `info.error` from the launch status.
inline LaunchInfo& checked(LaunchInfo& info) {
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        info.error = cudaGetErrorString(err);
    }
    return info;
}

} // namespace irf::calibrate

// SPDX-License-Identifier: Apache-2.0
// Arithmetic microbenchmarks: issue rate (FFMA + IADD interleaved), per-pipe rates and
// FMA / no-FMA FLOP rates for FP32, FP64, FP16x2, and INT32 adds.
#include <cuda_fp16.h>

#include "calibrate/kernels_common.cuh"

namespace irf::calibrate {
namespace {

constexpr int k_threads = 256;
constexpr int k_chains = 8;  // independent dependency chains per thread (covers ~4-cycle latency)
constexpr int k_unroll = 16; // chain steps per loop iteration

// Inline PTX keeps the compiler from folding or reassociating the chains; every statement is
// one instruction of the measured pipe.
__device__ __forceinline__ void step(ComputeOp op, float* f, double* d, unsigned* u) {
    switch (op) {
    case ComputeOp::issue_mix:
#pragma unroll
        for (int k = 0; k < k_chains; ++k) {
            asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(f[k]) : "f"(0.9999f), "f"(1e-4f));
            asm volatile("add.u32 %0, %0, %1;" : "+r"(u[k]) : "r"(u[(k + 1) % k_chains]));
        }
        break;
    case ComputeOp::fp32_fma:
#pragma unroll
        for (int k = 0; k < k_chains; ++k) {
            asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(f[k]) : "f"(0.9999f), "f"(1e-4f));
        }
        break;
    case ComputeOp::fp32_add:
#pragma unroll
        for (int k = 0; k < k_chains; ++k) {
            asm volatile("add.rn.f32 %0, %0, %1;" : "+f"(f[k]) : "f"(1e-7f));
        }
        break;
    case ComputeOp::fp64_fma:
#pragma unroll
        for (int k = 0; k < k_chains; ++k) {
            asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(d[k]) : "d"(0.9999), "d"(1e-4));
        }
        break;
    case ComputeOp::fp64_add:
#pragma unroll
        for (int k = 0; k < k_chains; ++k) {
            asm volatile("add.rn.f64 %0, %0, %1;" : "+d"(d[k]) : "d"(1e-12));
        }
        break;
    case ComputeOp::fp16_fma:
#pragma unroll
        for (int k = 0; k < k_chains; ++k) {
            // half2 {0.9995, 0.9995} * x + {6.1e-5, 6.1e-5}: stays finite.
            asm volatile("fma.rn.f16x2 %0, %0, %1, %2;"
                         : "+r"(u[k])
                         : "r"(0x3BFF3BFFu), "r"(0x04000400u));
        }
        break;
    case ComputeOp::fp16_add:
#pragma unroll
        for (int k = 0; k < k_chains; ++k) {
            asm volatile("add.rn.f16x2 %0, %0, %1;" : "+r"(u[k]) : "r"(0x00010001u));
        }
        break;
    case ComputeOp::int32_add:
#pragma unroll
        for (int k = 0; k < k_chains; ++k) {
            // The addend is another chain's current value, so no two adds can be merged.
            asm volatile("add.u32 %0, %0, %1;" : "+r"(u[k]) : "r"(u[(k + 1) % k_chains]));
        }
        break;
    }
}

template <ComputeOp Op>
__global__ void __launch_bounds__(k_threads)
    compute_kernel(long long iters, ClockSample* clock, float* sink) {
    clock_begin(clock);
    float f[k_chains];
    double d[k_chains];
    unsigned u[k_chains];
    const unsigned seed = threadIdx.x + blockIdx.x * blockDim.x;
#pragma unroll
    for (int k = 0; k < k_chains; ++k) {
        f[k] = 1.0f + static_cast<float>((seed + k) & 7) * 1e-3f;
        d[k] = 1.0 + static_cast<double>((seed + k) & 7) * 1e-3;
        u[k] = Op == ComputeOp::fp16_fma || Op == ComputeOp::fp16_add ? 0x3C003C00u + k
                                                                      : seed * 7u + k;
    }
#pragma unroll 1
    for (long long i = 0; i < iters; ++i) {
#pragma unroll
        for (int s = 0; s < k_unroll; ++s) {
            step(Op, f, d, u);
        }
    }
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < k_chains; ++k) {
        acc += f[k] + static_cast<float>(d[k]) + static_cast<float>(u[k]);
    }
    // Never true at run time, but the compiler cannot know: keeps every chain live.
    if (acc == -1.2345f) {
        sink[seed] = acc;
    }
    clock_end(clock);
}

template <ComputeOp Op>
LaunchInfo launch(int sms, std::int64_t iters, ClockSample* clock, float* sink) {
    LaunchInfo info = full_grid(compute_kernel<Op>, sms, k_threads);
    if (info.error.empty()) {
        compute_kernel<Op><<<static_cast<unsigned>(info.blocks), k_threads>>>(iters, clock, sink);
        checked(info);
    }
    return info;
}

} // namespace

int compute_insts_per_iter(ComputeOp op) {
    return (op == ComputeOp::issue_mix ? 2 : 1) * k_chains * k_unroll;
}

LaunchInfo launch_compute(ComputeOp op, int sms, std::int64_t iters, ClockSample* clock,
                          float* sink) {
    switch (op) {
    case ComputeOp::issue_mix:
        return launch<ComputeOp::issue_mix>(sms, iters, clock, sink);
    case ComputeOp::fp32_fma:
        return launch<ComputeOp::fp32_fma>(sms, iters, clock, sink);
    case ComputeOp::fp32_add:
        return launch<ComputeOp::fp32_add>(sms, iters, clock, sink);
    case ComputeOp::fp64_fma:
        return launch<ComputeOp::fp64_fma>(sms, iters, clock, sink);
    case ComputeOp::fp64_add:
        return launch<ComputeOp::fp64_add>(sms, iters, clock, sink);
    case ComputeOp::fp16_fma:
        return launch<ComputeOp::fp16_fma>(sms, iters, clock, sink);
    case ComputeOp::fp16_add:
        return launch<ComputeOp::fp16_add>(sms, iters, clock, sink);
    case ComputeOp::int32_add:
        return launch<ComputeOp::int32_add>(sms, iters, clock, sink);
    }
    LaunchInfo info;
    info.error = "unknown compute benchmark";
    return info;
}

} // namespace irf::calibrate

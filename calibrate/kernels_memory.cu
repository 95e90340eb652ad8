// SPDX-License-Identifier: Apache-2.0
// Memory microbenchmarks: L1 (per-block resident slice), L2 (ld.global.cg over a working set
// below / above one partition), DRAM read / write / copy / triad with 16-byte accesses and
// several loads in flight per thread, and shared memory with a bank-conflict stride ladder.
#include "calibrate/kernels_common.cuh"

namespace irf::calibrate {
namespace {

constexpr int k_threads = 256;
constexpr int k_l1_threads = 1024;
constexpr std::int64_t k_l1_slice = 16 * 1024; // bytes each block re-reads (L1-resident)
constexpr int k_inflight = 4;                  // independent 16-byte loads per thread per step

__device__ __forceinline__ float4 load_ca(const float4* p) {
    float4 v;
    asm volatile("ld.global.ca.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
    return v;
}

__device__ __forceinline__ float4 load_cg(const float4* p) {
    float4 v;
    asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
    return v;
}

__device__ __forceinline__ float fold(float4 v) {
    return v.x + v.y + v.z + v.w;
}

/// Each block re-reads its own 16 KB slice; `zero` (0 at run time) is added to the base every
/// rep so the compiler cannot hoist the loads out of the loop.
__global__ void __launch_bounds__(k_l1_threads)
    l1_kernel(const float4* a, int reps, long long zero, ClockSample* clock, float* sink) {
    clock_begin(clock);
    constexpr int n = static_cast<int>(k_l1_slice / 16); // 1024 vectors
    const float4* slice = a + static_cast<long long>(blockIdx.x) * n;
    float acc = 0.0f;
#pragma unroll 1
    for (int r = 0; r < reps; ++r) {
        const float4* p = slice + zero * r;
#pragma unroll
        for (int u = 0; u < 16; ++u) {
            acc += fold(load_ca(p + ((threadIdx.x + u * 64) & (n - 1))));
        }
    }
    if (acc == -1.2345f) {
        sink[threadIdx.x] = acc;
    }
    clock_end(clock);
}

/// Grid-stride pass over `n` vectors, `reps` times, k_inflight loads in flight per thread;
/// ld.global.cg caches in L2 only, so L1 never serves a re-read.
__global__ void __launch_bounds__(k_threads)
    read_kernel(const float4* a, long long n, int reps, long long zero, ClockSample* clock,
                float* sink) {
    clock_begin(clock);
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    const long long first = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    float acc = 0.0f;
#pragma unroll 1
    for (int r = 0; r < reps; ++r) {
        const float4* p = a + zero * r;
        long long i = first;
        for (; i + (k_inflight - 1) * stride < n; i += k_inflight * stride) {
            float4 v[k_inflight];
#pragma unroll
            for (int k = 0; k < k_inflight; ++k) {
                v[k] = load_cg(p + i + k * stride);
            }
#pragma unroll
            for (int k = 0; k < k_inflight; ++k) {
                acc += fold(v[k]);
            }
        }
        for (; i < n; i += stride) {
            acc += fold(load_cg(p + i));
        }
    }
    if (acc == -1.2345f) {
        sink[first & 1023] = acc;
    }
    clock_end(clock);
}

/// Streams: 0 write a = s, 1 copy b = a, 2 triad a = b + s * c.
template <int Kind>
__global__ void __launch_bounds__(k_threads)
    stream_kernel(float4* a, float4* b, const float4* c, long long n, int reps, float s,
                  ClockSample* clock) {
    clock_begin(clock);
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    const long long first = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
#pragma unroll 1
    for (int r = 0; r < reps; ++r) {
        for (long long i = first; i < n; i += stride) {
            if constexpr (Kind == 0) {
                a[i] = make_float4(s, s, s, s);
            } else if constexpr (Kind == 1) {
                b[i] = a[i];
            } else {
                const float4 x = b[i];
                const float4 y = c[i];
                a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
            }
        }
    }
    clock_end(clock);
}

constexpr int k_smem_words = 8192; // 32 KB of shared memory per block
constexpr int k_smem_loads = 16;   // warp load instructions per warp per rep

/// 4-byte shared loads at `stride` words (gcd(stride, 32)-way conflicts) or 16-byte loads.
template <bool Vector>
__global__ void __launch_bounds__(k_threads)
    shared_kernel(int stride, int reps, ClockSample* clock, float* sink) {
    __shared__ unsigned words[k_smem_words];
    for (int i = threadIdx.x; i < k_smem_words; i += blockDim.x) {
        words[i] = i * 2654435761u;
    }
    __syncthreads();
    clock_begin(clock);
    const unsigned lane = threadIdx.x & 31;
    const unsigned warp = threadIdx.x >> 5;
    const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(words));
    unsigned acc = 0;
#pragma unroll 1
    for (int r = 0; r < reps; ++r) {
#pragma unroll
        for (int u = 0; u < k_smem_loads; ++u) {
            if constexpr (Vector) {
                // Thread t reads words 4t..4t+3: each quarter warp covers all 32 banks once.
                const unsigned idx = (threadIdx.x * 4 + u * 1024 + r) & (k_smem_words - 4);
                unsigned x, y, z, w;
                asm volatile("ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
                             : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                             : "r"(base + idx * 4));
                acc += x ^ y ^ z ^ w;
            } else {
                // Lane l reads word l * stride (+ a bank-preserving offset): the gcd(stride, 32)
                // lanes that share a bank conflict.
                const unsigned idx =
                    (lane * stride + (u + warp) * 32 * stride + r * 32) & (k_smem_words - 1);
                unsigned x;
                asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x) : "r"(base + idx * 4));
                acc += x;
            }
        }
    }
    if (acc == 0x12345678u) {
        sink[threadIdx.x] = static_cast<float>(acc);
    }
    clock_end(clock);
}

} // namespace

std::int64_t l1_slice_bytes() {
    return k_l1_slice;
}

LaunchInfo launch_memory(MemoryOp op, int sms, std::int64_t elements, int reps, void* a, void* b,
                         void* c, ClockSample* clock, float* sink) {
    auto* fa = static_cast<float4*>(a);
    auto* fb = static_cast<float4*>(b);
    const auto* fc = static_cast<const float4*>(c);
    const long long zero = 0;
    LaunchInfo info;
    switch (op) {
    case MemoryOp::l1_read:
        info.blocks = sms;
        info.threads = k_l1_threads;
        l1_kernel<<<sms, k_l1_threads>>>(fa, reps, zero, clock, sink);
        return checked(info);
    case MemoryOp::l2_read:
    case MemoryOp::dram_read:
        info = full_grid(read_kernel, sms, k_threads);
        if (info.error.empty()) {
            read_kernel<<<static_cast<unsigned>(info.blocks), k_threads>>>(fa, elements, reps, zero,
                                                                           clock, sink);
        }
        return checked(info);
    case MemoryOp::dram_write:
        info = full_grid(stream_kernel<0>, sms, k_threads);
        if (info.error.empty()) {
            stream_kernel<0><<<static_cast<unsigned>(info.blocks), k_threads>>>(
                fa, fb, fc, elements, reps, 1.0f, clock);
        }
        return checked(info);
    case MemoryOp::dram_copy:
        info = full_grid(stream_kernel<1>, sms, k_threads);
        if (info.error.empty()) {
            stream_kernel<1><<<static_cast<unsigned>(info.blocks), k_threads>>>(
                fa, fb, fc, elements, reps, 1.0f, clock);
        }
        return checked(info);
    case MemoryOp::dram_triad:
        info = full_grid(stream_kernel<2>, sms, k_threads);
        if (info.error.empty()) {
            stream_kernel<2><<<static_cast<unsigned>(info.blocks), k_threads>>>(
                fa, fb, fc, elements, reps, 0.5f, clock);
        }
        return checked(info);
    }
    info.error = "unknown memory benchmark";
    return info;
}

LaunchInfo launch_shared(int stride, bool vector, int sms, int reps, ClockSample* clock,
                         float* sink, int& loads) {
    loads = k_smem_loads;
    LaunchInfo info = vector ? full_grid(shared_kernel<true>, sms, k_threads)
                             : full_grid(shared_kernel<false>, sms, k_threads);
    if (!info.error.empty()) {
        return info;
    }
    if (vector) {
        shared_kernel<true>
            <<<static_cast<unsigned>(info.blocks), k_threads>>>(stride, reps, clock, sink);
    } else {
        shared_kernel<false>
            <<<static_cast<unsigned>(info.blocks), k_threads>>>(stride, reps, clock, sink);
    }
    return checked(info);
}

} // namespace irf::calibrate

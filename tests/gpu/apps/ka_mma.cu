// SPDX-License-Identifier: Apache-2.0
// Known-answer app: tensor-core MMA (fp16 inputs, fp32 accumulate) by inline PTX mma.sync.
//
// Each warp accumulates k_iters products of constant 16x16 (A) and 16x8 (B) fp16 tiles into a
// 16x8 fp32 tile. On cc >= 8.0 one m16n8k16 is one HMMA warp instruction (k_iters per warp);
// cc 7.5 lacks m16n8k16 and issues two m16n8k8 instead. Every output element equals
// k_iters * 16 * a * b, exact in fp32.
#include <cuda_fp16.h>

#include <string>
#include <vector>

#include "ka_common.cuh"

namespace {

constexpr const char* k_app = "irf-ka-mma";
constexpr int k_block = 128; // 4 warps
constexpr int k_blocks = 512;
constexpr int k_warps = k_blocks * k_block / 32;
constexpr int k_tile_elems = 16 * 8; // fp32 outputs per warp
constexpr int k_iters = 1024;

__global__ void mma_f16_f32(float* out, __half a, __half b, int iters) {
    const __half2 a2 = __halves2half2(a, a);
    const __half2 b2 = __halves2half2(b, b);
    const unsigned ra = *reinterpret_cast<const unsigned*>(&a2);
    const unsigned rb = *reinterpret_cast<const unsigned*>(&b2);
    float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    for (int i = 0; i < iters; ++i) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                     : "r"(ra), "r"(ra), "r"(ra), "r"(ra), "r"(rb), "r"(rb));
#elif defined(__CUDA_ARCH__)
        for (int half = 0; half < 2; ++half) {
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
                         "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                         : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                         : "r"(ra), "r"(ra), "r"(rb));
        }
#endif
    }
    const int warp = int(blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int lane = int(threadIdx.x) & 31;
    float* tile = out + std::size_t(warp) * k_tile_elems + std::size_t(lane) * 4;
    tile[0] = c0;
    tile[1] = c1;
    tile[2] = c2;
    tile[3] = c3;
}

} // namespace

int main(int argc, char** argv) {
    const char* sel = argc > 1 ? argv[1] : nullptr;
    if (ka::bad_selection(argc, sel, {"mma"})) {
        return ka::usage(k_app, "mma");
    }
    ka::require_device(k_app);
    const std::size_t n = std::size_t(k_warps) * k_tile_elems;
    float* d_out = nullptr;
    ka::check(cudaMalloc(&d_out, n * sizeof(float)), "cudaMalloc", k_app);
    const float a = 1.0f;
    const float b = 0.5f;
    for (int i = 0; i < ka::k_launches; ++i) {
        mma_f16_f32<<<k_blocks, k_block>>>(d_out, __float2half(a), __float2half(b), k_iters);
        ka::check(cudaGetLastError(), "launch mma_f16_f32", k_app);
    }
    ka::check(cudaDeviceSynchronize(), "mma_f16_f32", k_app);
    std::vector<float> out(n);
    ka::check(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost), "copy back",
              k_app);
    ka::check(cudaFree(d_out), "cudaFree", k_app);
    const float want = float(k_iters) * 16.0f * a * b;
    for (std::size_t i = 0; i < n; ++i) {
        if (out[i] != want) {
            ka::report_wrong(k_app, "mma", "element", i, out[i], want);
            return ka::k_exit_wrong;
        }
    }
    ka::report(k_app, "mma", true, "");
    return 0;
}

// SPDX-License-Identifier: Apache-2.0
// Known-answer app: a branch taken by half of each warp vs the same result by arithmetic select.
//
// branch_half runs a chain of k_fmas dependent FMAs only in the even lanes, so about half of
// the thread slots of the work are predicated off (predication ~0.5, docs/model.md: IRM
// GSRB_BRANCH). select_half computes the chain in every lane and keeps it in the even lanes by
// masking the bits (predication 1.0, twice the FMAs: GSRB_FP). Both write identical results.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ka_common.cuh"

namespace {

constexpr const char* k_app = "irf-ka-branch";
constexpr int k_block = 256;
constexpr int k_blocks = 256;
constexpr int k_threads = k_block * k_blocks;
constexpr int k_fmas = 1024;

__host__ __device__ float input_value(int g) {
    return float(g % 1000) * 0.001f;
}

__device__ float chain(float x, float a, float b) {
    for (int i = 0; i < k_fmas; ++i) {
        x = fmaf(x, a, b);
    }
    return x;
}

__global__ void branch_half(float* out, float a, float b) {
    const int g = int(blockIdx.x * blockDim.x + threadIdx.x);
    float x = input_value(g);
    if ((threadIdx.x & 1u) == 0) {
        x = chain(x, a, b);
    }
    out[g] = x;
}

__global__ void select_half(float* out, float a, float b) {
    const int g = int(blockIdx.x * blockDim.x + threadIdx.x);
    const float x = input_value(g);
    const float y = chain(x, a, b);
    // All-ones in even lanes, zero in odd lanes: a select by bit arithmetic, not a branch.
    const unsigned keep_y = 0u - ((threadIdx.x & 1u) ^ 1u);
    out[g] = __uint_as_float((__float_as_uint(y) & keep_y) | (__float_as_uint(x) & ~keep_y));
}

float host_chain(float x, float a, float b) {
    for (int i = 0; i < k_fmas; ++i) {
        x = std::fma(x, a, b);
    }
    return x;
}

using Kernel = void (*)(float*, float, float);

bool run_variant(const char* variant, Kernel kernel, float* d_out) {
    const float a = 0.999f;
    const float b = 0.001f;
    for (int i = 0; i < ka::k_launches; ++i) {
        kernel<<<k_blocks, k_block>>>(d_out, a, b);
        ka::check(cudaGetLastError(), "launch", k_app);
    }
    ka::check(cudaDeviceSynchronize(), variant, k_app);
    std::vector<float> out(k_threads);
    ka::check(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost),
              "copy back", k_app);
    for (int g = 0; g < k_threads; ++g) {
        const float x = input_value(g);
        const float want = (g & 1) == 0 ? host_chain(x, a, b) : x;
        if (out[std::size_t(g)] != want) {
            return ka::report_wrong(k_app, variant, "thread", g, out[std::size_t(g)], want);
        }
    }
    return ka::report(k_app, variant, true, "");
}

} // namespace

int main(int argc, char** argv) {
    const char* sel = argc > 1 ? argv[1] : nullptr;
    if (ka::bad_selection(argc, sel, {"branch", "select"})) {
        return ka::usage(k_app, "branch select");
    }
    ka::require_device(k_app);
    float* d_out = nullptr;
    ka::check(cudaMalloc(&d_out, std::size_t(k_threads) * sizeof(float)), "cudaMalloc", k_app);
    bool ok = true;
    if (ka::selected(sel, "branch"))
        ok &= run_variant("branch", branch_half, d_out);
    if (ka::selected(sel, "select"))
        ok &= run_variant("select", select_half, d_out);
    ka::check(cudaFree(d_out), "cudaFree", k_app);
    return ok ? 0 : ka::k_exit_wrong;
}

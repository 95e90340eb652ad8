// SPDX-License-Identifier: Apache-2.0
// Known-answer app: a STREAM triad (HBM-bound) and an FMA-bound kernel.
//
// triad: a[i] = b[i] + s * c[i] over 2^25 floats (384 MiB in all, far beyond L2): per warp two
// unit-stride loads and one store of 4 sectors each, one FFMA per thread.
// fma_chains: 8 independent chains of 512 dependent FMAs per thread (exactly 4096 FFMA), then
// 7 FADDs to combine them and one store: issue-bound with no memory traffic to speak of.
#include <cmath>
#include <string>
#include <vector>

#include "ka_common.cuh"

namespace {

constexpr const char* k_app = "irf-ka-bound";
constexpr int k_block = 256;
constexpr std::size_t k_triad_n = std::size_t{1} << 25;
constexpr int k_fma_blocks = 1024;
constexpr int k_fma_threads = k_fma_blocks * k_block;
constexpr int k_chains = 8;
constexpr int k_chain_len = 512;

__global__ void stream_triad(float* a, const float* b, const float* c, float s) {
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    a[i] = b[i] + s * c[i];
}

__host__ __device__ float chain_start(int g, int k) {
    return float((g + k) & 1023);
}

__global__ void fma_chains(float* out, float a, float b) {
    const int g = int(blockIdx.x * blockDim.x + threadIdx.x);
    float x[k_chains];
#pragma unroll
    for (int k = 0; k < k_chains; ++k) {
        x[k] = chain_start(g, k);
    }
    for (int i = 0; i < k_chain_len; ++i) {
#pragma unroll
        for (int k = 0; k < k_chains; ++k) {
            x[k] = fmaf(x[k], a, b);
        }
    }
    float sum = x[0];
#pragma unroll
    for (int k = 1; k < k_chains; ++k) {
        sum += x[k];
    }
    out[g] = sum;
}

bool run_triad() {
    const std::size_t bytes = k_triad_n * sizeof(float);
    std::vector<float> b(k_triad_n);
    std::vector<float> c(k_triad_n);
    for (std::size_t i = 0; i < k_triad_n; ++i) {
        b[i] = float(i % 5);
        c[i] = float(i % 3);
    }
    float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
    ka::check(cudaMalloc(&d_a, bytes), "cudaMalloc", k_app);
    ka::check(cudaMalloc(&d_b, bytes), "cudaMalloc", k_app);
    ka::check(cudaMalloc(&d_c, bytes), "cudaMalloc", k_app);
    ka::check(cudaMemcpy(d_b, b.data(), bytes, cudaMemcpyHostToDevice), "copy in", k_app);
    ka::check(cudaMemcpy(d_c, c.data(), bytes, cudaMemcpyHostToDevice), "copy in", k_app);
    const unsigned blocks = unsigned(k_triad_n / k_block);
    for (int i = 0; i < ka::k_launches; ++i) {
        stream_triad<<<blocks, k_block>>>(d_a, d_b, d_c, 2.0f);
        ka::check(cudaGetLastError(), "launch stream_triad", k_app);
    }
    ka::check(cudaDeviceSynchronize(), "stream_triad", k_app);
    std::vector<float> a(k_triad_n);
    ka::check(cudaMemcpy(a.data(), d_a, bytes, cudaMemcpyDeviceToHost), "copy back", k_app);
    for (float* p : {d_a, d_b, d_c}) {
        ka::check(cudaFree(p), "cudaFree", k_app);
    }
    for (std::size_t i = 0; i < k_triad_n; ++i) {
        if (a[i] != b[i] + 2.0f * c[i]) {
            return ka::report(k_app, "triad", false, "element " + std::to_string(i) + " wrong");
        }
    }
    return ka::report(k_app, "triad", true, "");
}

bool run_fma() {
    const float a = 0.999f;
    const float b = 0.001f;
    float* d_out = nullptr;
    ka::check(cudaMalloc(&d_out, std::size_t(k_fma_threads) * sizeof(float)), "cudaMalloc", k_app);
    for (int i = 0; i < ka::k_launches; ++i) {
        fma_chains<<<k_fma_blocks, k_block>>>(d_out, a, b);
        ka::check(cudaGetLastError(), "launch fma_chains", k_app);
    }
    ka::check(cudaDeviceSynchronize(), "fma_chains", k_app);
    std::vector<float> out(static_cast<std::size_t>(k_fma_threads));
    ka::check(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost),
              "copy back", k_app);
    ka::check(cudaFree(d_out), "cudaFree", k_app);
    // Every 97th thread is recomputed with the same operation order (FMA is exactly rounded).
    for (int g = 0; g < k_fma_threads; g += 97) {
        float x[k_chains];
        for (int k = 0; k < k_chains; ++k) {
            x[k] = chain_start(g, k);
            for (int i = 0; i < k_chain_len; ++i) {
                x[k] = std::fma(x[k], a, b);
            }
        }
        float want = x[0];
        for (int k = 1; k < k_chains; ++k) {
            want += x[k];
        }
        if (out[std::size_t(g)] != want) {
            return ka::report_wrong(k_app, "fma", "thread", g, out[std::size_t(g)], want);
        }
    }
    return ka::report(k_app, "fma", true, "");
}

} // namespace

int main(int argc, char** argv) {
    const char* sel = argc > 1 ? argv[1] : nullptr;
    if (ka::bad_selection(argc, sel, {"triad", "fma"})) {
        return ka::usage(k_app, "triad fma");
    }
    ka::require_device(k_app);
    bool ok = true;
    if (ka::selected(sel, "triad"))
        ok &= run_triad();
    if (ka::selected(sel, "fma"))
        ok &= run_fma();
    return ok ? 0 : ka::k_exit_wrong;
}

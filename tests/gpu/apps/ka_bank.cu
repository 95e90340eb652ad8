// SPDX-License-Identifier: Apache-2.0
// Known-answer app: shared-memory loads with 1, 2, 4, 8, 16 and 32-way bank conflicts.
//
// A block fills a 1024-word shared array with k_stores conflict-free stores per thread (one
// wavefront per warp store), then every thread issues k_loads loads of word
// (lane * K + r * 33) mod 1024. The 32 lanes of a load touch 32 distinct words of which K share
// each bank (r * 33 only rotates the banks and keeps consecutive loads from merging), so each
// warp load needs exactly K wavefronts.
#include <string>
#include <vector>

#include "ka_common.cuh"

namespace {

constexpr const char* k_app = "irf-ka-bank";
constexpr int k_block = 256;
constexpr int k_blocks = 128;
constexpr int k_threads = k_block * k_blocks;
constexpr int k_words = 1024;
constexpr int k_stores = k_words / k_block; // 4 shared stores per thread
constexpr int k_loads = 64;                 // shared loads per thread

__host__ __device__ constexpr int word_value(int i) {
    return i & 7;
}
__host__ __device__ constexpr int load_index(int lane, int r, int ways) {
    return (lane * ways + r * 33) & (k_words - 1);
}

template <int K> __global__ void bank_conflict(float* out) {
    __shared__ float words[k_words];
#pragma unroll
    for (int j = 0; j < k_stores; ++j) {
        const int i = int(threadIdx.x) + j * k_block;
        words[i] = float(word_value(i));
    }
    __syncthreads();
    const int lane = int(threadIdx.x) & 31;
    float sum = 0;
#pragma unroll
    for (int r = 0; r < k_loads; ++r) {
        sum += words[load_index(lane, r, K)];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

template <int K> bool run_variant(const char* variant, float* d_out) {
    for (int i = 0; i < ka::k_launches; ++i) {
        bank_conflict<K><<<k_blocks, k_block>>>(d_out);
        ka::check(cudaGetLastError(), "launch bank_conflict", k_app);
    }
    ka::check(cudaDeviceSynchronize(), "bank_conflict", k_app);
    std::vector<float> out(k_threads);
    ka::check(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost),
              "copy back", k_app);
    for (int g = 0; g < k_threads; ++g) {
        int want = 0;
        for (int r = 0; r < k_loads; ++r) {
            want += word_value(load_index(g & 31, r, K));
        }
        if (out[std::size_t(g)] != float(want)) {
            return ka::report_wrong(k_app, variant, "thread", g, out[std::size_t(g)], want);
        }
    }
    return ka::report(k_app, variant, true, "");
}

} // namespace

int main(int argc, char** argv) {
    const char* sel = argc > 1 ? argv[1] : nullptr;
    if (ka::bad_selection(argc, sel, {"ways1", "ways2", "ways4", "ways8", "ways16", "ways32"})) {
        return ka::usage(k_app, "ways1 ways2 ways4 ways8 ways16 ways32");
    }
    ka::require_device(k_app);
    float* d_out = nullptr;
    ka::check(cudaMalloc(&d_out, std::size_t(k_threads) * sizeof(float)), "cudaMalloc", k_app);
    bool ok = true;
    if (ka::selected(sel, "ways1"))
        ok &= run_variant<1>("ways1", d_out);
    if (ka::selected(sel, "ways2"))
        ok &= run_variant<2>("ways2", d_out);
    if (ka::selected(sel, "ways4"))
        ok &= run_variant<4>("ways4", d_out);
    if (ka::selected(sel, "ways8"))
        ok &= run_variant<8>("ways8", d_out);
    if (ka::selected(sel, "ways16"))
        ok &= run_variant<16>("ways16", d_out);
    if (ka::selected(sel, "ways32"))
        ok &= run_variant<32>("ways32", d_out);
    ka::check(cudaFree(d_out), "cudaFree", k_app);
    return ok ? 0 : ka::k_exit_wrong;
}

// SPDX-License-Identifier: Apache-2.0
// Known-answer app: an integer-only Smith-Waterman-like dynamic program, one alignment a thread.
//
// Each thread scores two 32-base sequences (2 bits a base, derived from an integer hash of its
// index) with match +2, mismatch -1, linear gap -1, keeping one DP row in registers. No
// floating-point instruction, no global load, one global store per thread: issue-bound, integer
// pipes only (docs/model.md: IRM section 4.4, ADEPT).
#include <cstdint>
#include <string>
#include <vector>

#include "ka_common.cuh"

namespace {

constexpr const char* k_app = "irf-ka-sw";
constexpr int k_block = 128;
constexpr int k_blocks = 512;
constexpr int k_threads = k_block * k_blocks;
constexpr int k_len = 32; // bases per sequence: 2 bits each in one 64-bit word

__host__ __device__ std::uint32_t mix(std::uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__host__ __device__ std::uint64_t sequence(std::uint32_t seed) {
    return (std::uint64_t(mix(seed)) << 32) | mix(seed ^ 0x9e3779b9u);
}

__host__ __device__ int imax(int a, int b) {
    return a > b ? a : b;
}

/// Best local alignment score of sequences `a` and `b`.
__host__ __device__ int sw_score(std::uint64_t a, std::uint64_t b) {
    int row[k_len + 1] = {}; // H[i-1][j]
    int best = 0;
    for (int i = 0; i < k_len; ++i) {
        const int ai = int((a >> (2 * i)) & 3u);
        int diag = 0; // H[i-1][j-1]
        int left = 0; // H[i][j-1]
#ifdef __CUDA_ARCH__  // keeps the DP row in registers; the host compiler has no such pragma
#pragma unroll
#endif
        for (int j = 1; j <= k_len; ++j) {
            const int bj = int((b >> (2 * (j - 1))) & 3u);
            const int up = row[j];
            const int h = imax(0, imax(diag + (ai == bj ? 2 : -1), imax(up, left) - 1));
            diag = up;
            row[j] = h;
            left = h;
            best = imax(best, h);
        }
    }
    return best;
}

__global__ void sw_align(int* out) {
    const int g = int(blockIdx.x * blockDim.x + threadIdx.x);
    out[g] = sw_score(sequence(2u * unsigned(g)), sequence(2u * unsigned(g) + 1u));
}

} // namespace

int main(int argc, char** argv) {
    const char* sel = argc > 1 ? argv[1] : nullptr;
    if (ka::bad_selection(argc, sel, {"sw"})) {
        return ka::usage(k_app, "sw");
    }
    ka::require_device(k_app);
    int* d_out = nullptr;
    ka::check(cudaMalloc(&d_out, std::size_t(k_threads) * sizeof(int)), "cudaMalloc", k_app);
    for (int i = 0; i < ka::k_launches; ++i) {
        sw_align<<<k_blocks, k_block>>>(d_out);
        ka::check(cudaGetLastError(), "launch sw_align", k_app);
    }
    ka::check(cudaDeviceSynchronize(), "sw_align", k_app);
    std::vector<int> out(k_threads);
    ka::check(cudaMemcpy(out.data(), d_out, out.size() * sizeof(int), cudaMemcpyDeviceToHost),
              "copy back", k_app);
    ka::check(cudaFree(d_out), "cudaFree", k_app);
    for (int g = 0; g < k_threads; ++g) {
        const int want = sw_score(sequence(2u * unsigned(g)), sequence(2u * unsigned(g) + 1u));
        if (out[std::size_t(g)] != want) {
            ka::report_wrong(k_app, "sw", "thread", g, out[std::size_t(g)], want);
            return ka::k_exit_wrong;
        }
    }
    ka::report(k_app, "sw", true, "");
    return 0;
}

// SPDX-License-Identifier: Apache-2.0
// Known-answer app: warp global loads at stride 0, 1, 2, 4, 8 and 32 words, fp32 and fp64.
//
// Every thread issues k_loads loads; lane l of a warp reads word (r * N * max(S, 1) + g * S) of
// load r, so one warp load instruction touches 32 words S apart: 1 sector at S = 0, else
// min(32, S * sizeof(T)) sectors of 32 bytes (the allocation is 256-byte aligned and each warp's
// first word is a multiple of 32 words). The warp's sums are reduced by shuffles and stored by
// lane 0 (one store instruction and one sector a warp), so stride 0 sits exactly on its wall.
#include <cstdint>
#include <string>
#include <vector>

#include "ka_common.cuh"

namespace {

constexpr const char* k_app = "irf-ka-stride";
constexpr int k_block = 256;
constexpr int k_blocks = 128;
constexpr std::size_t k_threads = std::size_t{k_block} * k_blocks; // N = 32768
constexpr std::size_t k_warps = k_threads / 32;
constexpr int k_loads = 8; // loads per thread
constexpr int k_max_stride = 32;

/// Word index of load `r` of global thread `g` at stride `s`.
__host__ __device__ constexpr std::size_t word_index(int r, std::size_t g, int s) {
    return std::size_t(r) * k_threads * std::size_t(s > 0 ? s : 1) + g * std::size_t(s);
}

template <typename T, int S> __global__ void stride_load(const T* in, T* out) {
    const std::size_t g = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    T sum = 0;
#pragma unroll
    for (int r = 0; r < k_loads; ++r) {
        sum += in[word_index(r, g, S)];
    }
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    }
    if ((threadIdx.x & 31u) == 0) {
        out[g / 32] = sum;
    }
}

/// Runs stride_load<T, S> k_launches times on `in` and checks every output on the host.
template <typename T, int S>
bool run_variant(const char* variant, const T* d_in, T* d_out, const std::vector<T>& h_in) {
    for (int i = 0; i < ka::k_launches; ++i) {
        stride_load<T, S><<<k_blocks, k_block>>>(d_in, d_out);
        ka::check(cudaGetLastError(), "launch stride_load", k_app);
    }
    ka::check(cudaDeviceSynchronize(), "stride_load", k_app);
    std::vector<T> out(k_warps);
    ka::check(cudaMemcpy(out.data(), d_out, k_warps * sizeof(T), cudaMemcpyDeviceToHost),
              "copy back", k_app);
    for (std::size_t w = 0; w < k_warps; ++w) {
        T want = 0; // small integers: exact in any order
        for (std::size_t g = w * 32; g < w * 32 + 32; ++g) {
            for (int r = 0; r < k_loads; ++r) {
                want += h_in[word_index(r, g, S)];
            }
        }
        if (out[w] != want) {
            return ka::report_wrong(k_app, variant, "warp", w, out[w], want);
        }
    }
    return ka::report(k_app, variant, true, "");
}

/// Runs the selected variants of one word type; returns false if any host check failed.
template <typename T> bool run_type(const char* prefix, const char* selection) {
    const std::size_t words = std::size_t(k_loads) * k_threads * k_max_stride;
    std::vector<T> h_in(words);
    for (std::size_t i = 0; i < words; ++i) {
        h_in[i] = T(i % 7); // small integers: every sum is exact in fp32 and fp64
    }
    T* d_in = nullptr;
    T* d_out = nullptr;
    ka::check(cudaMalloc(&d_in, words * sizeof(T)), "cudaMalloc in", k_app);
    ka::check(cudaMalloc(&d_out, k_warps * sizeof(T)), "cudaMalloc out", k_app);
    ka::check(cudaMemcpy(d_in, h_in.data(), words * sizeof(T), cudaMemcpyHostToDevice), "copy in",
              k_app);
    bool ok = true;
    const std::string p(prefix);
    auto want = [&](const char* s) { return ka::selected(selection, (p + s).c_str()); };
    if (want("-s0"))
        ok &= run_variant<T, 0>((p + "-s0").c_str(), d_in, d_out, h_in);
    if (want("-s1"))
        ok &= run_variant<T, 1>((p + "-s1").c_str(), d_in, d_out, h_in);
    if (want("-s2"))
        ok &= run_variant<T, 2>((p + "-s2").c_str(), d_in, d_out, h_in);
    if (want("-s4"))
        ok &= run_variant<T, 4>((p + "-s4").c_str(), d_in, d_out, h_in);
    if (want("-s8"))
        ok &= run_variant<T, 8>((p + "-s8").c_str(), d_in, d_out, h_in);
    if (want("-s32"))
        ok &= run_variant<T, 32>((p + "-s32").c_str(), d_in, d_out, h_in);
    ka::check(cudaFree(d_in), "cudaFree", k_app);
    ka::check(cudaFree(d_out), "cudaFree", k_app);
    return ok;
}

bool is_known(const std::string& v) {
    for (const char* t : {"fp32", "fp64"}) {
        for (const char* s : {"-s0", "-s1", "-s2", "-s4", "-s8", "-s32"}) {
            if (v == std::string(t) + s)
                return true;
        }
    }
    return false;
}

} // namespace

int main(int argc, char** argv) {
    const char* selection = argc > 1 ? argv[1] : nullptr;
    if (argc > 2 || (selection != nullptr && !is_known(selection))) {
        return ka::usage(k_app, "fp32-s{0,1,2,4,8,32} fp64-s{0,1,2,4,8,32}");
    }
    ka::require_device(k_app);
    bool ok = true;
    if (selection == nullptr || std::strncmp(selection, "fp32", 4) == 0) {
        ok &= run_type<float>("fp32", selection);
    }
    if (selection == nullptr || std::strncmp(selection, "fp64", 4) == 0) {
        ok &= run_type<double>("fp64", selection);
    }
    return ok ? 0 : ka::k_exit_wrong;
}

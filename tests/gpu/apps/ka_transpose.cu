// SPDX-License-Identifier: Apache-2.0
// Known-answer app: 1024 x 1024 fp32 transpose, naive, tiled (32x32) and padded (32x33).
//
// 32 x 8 threads move a 32 x 32 tile, four rows each (docs/model.md: IRM section 4.3).
// Per warp: 4 global loads and 4 global stores; the tiled kernels add 4 shared stores (rows,
// conflict-free) and 4 shared loads (columns: 32-way conflicts at row pitch 32, none at 33).
// Naive stores hit one sector per lane (row pitch 4096 bytes).
#include <string>
#include <vector>

#include "ka_common.cuh"

namespace {

constexpr const char* k_app = "irf-ka-transpose";
constexpr int k_n = 1024;
constexpr int k_tile = 32;
constexpr int k_rows = 8;

__global__ void transpose_naive(const float* in, float* out) {
    const int x = int(blockIdx.x) * k_tile + int(threadIdx.x);
    const int y = int(blockIdx.y) * k_tile + int(threadIdx.y);
    for (int j = 0; j < k_tile; j += k_rows) {
        out[x * k_n + (y + j)] = in[(y + j) * k_n + x];
    }
}

/// Tiled transpose through shared memory; PITCH 32 conflicts on the column reads, 33 does not.
template <int PITCH> __device__ void transpose_tiled_body(const float* in, float* out) {
    __shared__ float tile[k_tile * PITCH];
    int x = int(blockIdx.x) * k_tile + int(threadIdx.x);
    int y = int(blockIdx.y) * k_tile + int(threadIdx.y);
    for (int j = 0; j < k_tile; j += k_rows) {
        tile[(int(threadIdx.y) + j) * PITCH + int(threadIdx.x)] = in[(y + j) * k_n + x];
    }
    __syncthreads();
    x = int(blockIdx.y) * k_tile + int(threadIdx.x);
    y = int(blockIdx.x) * k_tile + int(threadIdx.y);
    for (int j = 0; j < k_tile; j += k_rows) {
        out[(y + j) * k_n + x] = tile[int(threadIdx.x) * PITCH + int(threadIdx.y) + j];
    }
}

__global__ void transpose_tiled(const float* in, float* out) {
    transpose_tiled_body<k_tile>(in, out);
}

__global__ void transpose_padded(const float* in, float* out) {
    transpose_tiled_body<k_tile + 1>(in, out);
}

using Kernel = void (*)(const float*, float*);

bool run_variant(const char* variant, Kernel kernel, const float* d_in, float* d_out,
                 const std::vector<float>& h_in) {
    ka::check(cudaMemset(d_out, 0, h_in.size() * sizeof(float)), "cudaMemset", k_app);
    const dim3 grid(k_n / k_tile, k_n / k_tile);
    const dim3 block(k_tile, k_rows);
    for (int i = 0; i < ka::k_launches; ++i) {
        kernel<<<grid, block>>>(d_in, d_out);
        ka::check(cudaGetLastError(), "launch transpose", k_app);
    }
    ka::check(cudaDeviceSynchronize(), "transpose", k_app);
    std::vector<float> out(h_in.size());
    ka::check(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost),
              "copy back", k_app);
    for (int r = 0; r < k_n; ++r) {
        for (int c = 0; c < k_n; ++c) {
            if (out[std::size_t(c) * k_n + r] != h_in[std::size_t(r) * k_n + c]) {
                return ka::report(k_app, variant, false,
                                  "element (" + std::to_string(r) + ", " + std::to_string(c) +
                                      ") not transposed");
            }
        }
    }
    return ka::report(k_app, variant, true, "");
}

} // namespace

int main(int argc, char** argv) {
    const char* sel = argc > 1 ? argv[1] : nullptr;
    if (ka::bad_selection(argc, sel, {"naive", "tiled", "padded"})) {
        return ka::usage(k_app, "naive tiled padded");
    }
    ka::require_device(k_app);
    std::vector<float> h_in(std::size_t(k_n) * k_n);
    for (std::size_t i = 0; i < h_in.size(); ++i) {
        h_in[i] = float(i); // distinct and exact below 2^24
    }
    float* d_in = nullptr;
    float* d_out = nullptr;
    const std::size_t bytes = h_in.size() * sizeof(float);
    ka::check(cudaMalloc(&d_in, bytes), "cudaMalloc", k_app);
    ka::check(cudaMalloc(&d_out, bytes), "cudaMalloc", k_app);
    ka::check(cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice), "copy in", k_app);
    bool ok = true;
    if (ka::selected(sel, "naive"))
        ok &= run_variant("naive", transpose_naive, d_in, d_out, h_in);
    if (ka::selected(sel, "tiled"))
        ok &= run_variant("tiled", transpose_tiled, d_in, d_out, h_in);
    if (ka::selected(sel, "padded")) {
        ok &= run_variant("padded", transpose_padded, d_in, d_out, h_in);
    }
    ka::check(cudaFree(d_in), "cudaFree", k_app);
    ka::check(cudaFree(d_out), "cudaFree", k_app);
    return ok ? 0 : ka::k_exit_wrong;
}

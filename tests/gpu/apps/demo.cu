// SPDX-License-Identifier: Apache-2.0
// irf-demo: a small deterministic CUDA program with distinct kernels for the README quick start.
//
// Five kernels with different Instruction Roofline verdicts, each launched k_launches times so
// that irf can profile a launch other than the first: a naive transpose (strided stores), a
// padded tiled transpose (unit stride, no bank conflicts), a STREAM triad (HBM-bound), an FMA
// chain (issue-bound, fp32) and an integer hash (issue-bound, integer only). Each result is
// checked on the host. Exit codes: 0 all correct, 1 a wrong result or CUDA error, 2 usage,
// 77 no usable CUDA device (one line saying why). It is also a known-answer app of the gpu tests
// (expected.json), so it lives beside them and shares their helpers (ka_common.cuh).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ka_common.cuh"

namespace {

using ka::k_exit_usage;
using ka::k_exit_wrong;
using ka::k_launches;

constexpr const char* k_app = "irf-demo";
constexpr int k_n = 1024;          // transpose edge
constexpr int k_tile = 32;         // transpose tile edge
constexpr int k_rows = 8;          // transpose block rows
constexpr int k_triad_n = 1 << 24; // triad elements (192 MiB over three arrays)
constexpr int k_threads = 1 << 16; // threads of the FMA and integer kernels
constexpr int k_fmas = 256;        // FMA chain length
constexpr int k_hash_rounds = 64;  // integer hash rounds

void check(cudaError_t err, const char* what) {
    ka::check(err, what, k_app);
}

__global__ void transpose_naive(const float* in, float* out) {
    const int x = int(blockIdx.x) * k_tile + int(threadIdx.x);
    const int y = int(blockIdx.y) * k_tile + int(threadIdx.y);
    for (int j = 0; j < k_tile; j += k_rows) {
        out[x * k_n + (y + j)] = in[(y + j) * k_n + x];
    }
}

__global__ void transpose_padded(const float* in, float* out) {
    __shared__ float tile[k_tile][k_tile + 1];
    int x = int(blockIdx.x) * k_tile + int(threadIdx.x);
    int y = int(blockIdx.y) * k_tile + int(threadIdx.y);
    for (int j = 0; j < k_tile; j += k_rows) {
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * k_n + x];
    }
    __syncthreads();
    x = int(blockIdx.y) * k_tile + int(threadIdx.x);
    y = int(blockIdx.x) * k_tile + int(threadIdx.y);
    for (int j = 0; j < k_tile; j += k_rows) {
        out[(y + j) * k_n + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

__global__ void stream_triad(float* a, const float* b, const float* c, float s) {
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    a[i] = b[i] + s * c[i];
}

__global__ void fma_chain(float* out, float a, float b) {
    const int g = int(blockIdx.x * blockDim.x + threadIdx.x);
    float x = float(g & 1023);
    for (int i = 0; i < k_fmas; ++i) {
        x = fmaf(x, a, b);
    }
    out[g] = x;
}

__host__ __device__ std::uint32_t hash_rounds(std::uint32_t x) {
    for (int i = 0; i < k_hash_rounds; ++i) {
        x ^= x >> 16;
        x *= 0x7feb352du;
        x ^= x >> 15;
        x *= 0x846ca68bu;
    }
    return x;
}

__global__ void int_hash(std::uint32_t* out) {
    const std::uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    out[g] = hash_rounds(g);
}

/// Prints the kernel's verdict line and returns whether it was correct.
bool report(const char* kernel, bool ok) {
    std::printf("irf-demo: %-16s %s (%d launches)\n", kernel, ok ? "ok" : "FAIL", k_launches);
    return ok;
}

using TransposeKernel = void (*)(const float*, float*);

bool run_transpose(const char* name, TransposeKernel kernel) {
    const std::size_t count = std::size_t(k_n) * k_n;
    std::vector<float> in(count);
    for (std::size_t i = 0; i < count; ++i) {
        in[i] = float(i);
    }
    float *d_in = nullptr, *d_out = nullptr;
    check(cudaMalloc(&d_in, count * sizeof(float)), "cudaMalloc");
    check(cudaMalloc(&d_out, count * sizeof(float)), "cudaMalloc");
    check(cudaMemcpy(d_in, in.data(), count * sizeof(float), cudaMemcpyHostToDevice), "copy");
    for (int i = 0; i < k_launches; ++i) {
        kernel<<<dim3(k_n / k_tile, k_n / k_tile), dim3(k_tile, k_rows)>>>(d_in, d_out);
        check(cudaGetLastError(), name);
    }
    std::vector<float> out(count);
    check(cudaMemcpy(out.data(), d_out, count * sizeof(float), cudaMemcpyDeviceToHost), name);
    check(cudaFree(d_in), "cudaFree");
    check(cudaFree(d_out), "cudaFree");
    bool ok = true;
    for (std::size_t r = 0; r < std::size_t(k_n) && ok; ++r) {
        for (std::size_t c = 0; c < std::size_t(k_n) && ok; ++c) {
            ok = out[c * k_n + r] == in[r * k_n + c];
        }
    }
    return report(name, ok);
}

bool run_triad() {
    const std::size_t bytes = std::size_t(k_triad_n) * sizeof(float);
    std::vector<float> b(k_triad_n), c(k_triad_n), a(k_triad_n);
    for (int i = 0; i < k_triad_n; ++i) {
        b[std::size_t(i)] = float(i % 5);
        c[std::size_t(i)] = float(i % 3);
    }
    float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
    check(cudaMalloc(&d_a, bytes), "cudaMalloc");
    check(cudaMalloc(&d_b, bytes), "cudaMalloc");
    check(cudaMalloc(&d_c, bytes), "cudaMalloc");
    check(cudaMemcpy(d_b, b.data(), bytes, cudaMemcpyHostToDevice), "copy");
    check(cudaMemcpy(d_c, c.data(), bytes, cudaMemcpyHostToDevice), "copy");
    for (int i = 0; i < k_launches; ++i) {
        stream_triad<<<k_triad_n / 256, 256>>>(d_a, d_b, d_c, 2.0f);
        check(cudaGetLastError(), "stream_triad");
    }
    check(cudaMemcpy(a.data(), d_a, bytes, cudaMemcpyDeviceToHost), "stream_triad");
    for (float* p : {d_a, d_b, d_c}) {
        check(cudaFree(p), "cudaFree");
    }
    bool ok = true;
    for (std::size_t i = 0; i < a.size() && ok; ++i) {
        ok = a[i] == b[i] + 2.0f * c[i];
    }
    return report("stream_triad", ok);
}

bool run_fma() {
    const float a = 0.999f, b = 0.001f;
    float* d_out = nullptr;
    check(cudaMalloc(&d_out, std::size_t(k_threads) * sizeof(float)), "cudaMalloc");
    for (int i = 0; i < k_launches; ++i) {
        fma_chain<<<k_threads / 256, 256>>>(d_out, a, b);
        check(cudaGetLastError(), "fma_chain");
    }
    std::vector<float> out(k_threads);
    check(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost),
          "fma_chain");
    check(cudaFree(d_out), "cudaFree");
    bool ok = true;
    for (int g = 0; g < k_threads && ok; g += 61) { // a sample; FMA is exactly rounded
        float x = float(g & 1023);
        for (int i = 0; i < k_fmas; ++i) {
            x = std::fma(x, a, b);
        }
        ok = out[std::size_t(g)] == x;
    }
    return report("fma_chain", ok);
}

bool run_int() {
    std::uint32_t* d_out = nullptr;
    check(cudaMalloc(&d_out, std::size_t(k_threads) * sizeof(std::uint32_t)), "cudaMalloc");
    for (int i = 0; i < k_launches; ++i) {
        int_hash<<<k_threads / 256, 256>>>(d_out);
        check(cudaGetLastError(), "int_hash");
    }
    std::vector<std::uint32_t> out(k_threads);
    check(cudaMemcpy(out.data(), d_out, out.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
          "int_hash");
    check(cudaFree(d_out), "cudaFree");
    bool ok = true;
    for (std::uint32_t g = 0; g < std::uint32_t(k_threads) && ok; ++g) {
        ok = out[g] == hash_rounds(g);
    }
    return report("int_hash", ok);
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1) {
        const bool help = std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0;
        std::printf("usage: irf-demo\nRuns five small CUDA kernels (transpose naive and padded, "
                    "STREAM triad, FMA chain, integer hash) %d times each and checks them.\n",
                    k_launches);
        return help ? 0 : k_exit_usage;
    }
    ka::require_device(k_app);
    bool ok = run_transpose("transpose_naive", transpose_naive);
    ok &= run_transpose("transpose_padded", transpose_padded);
    ok &= run_triad();
    ok &= run_fma();
    ok &= run_int();
    std::printf("irf-demo: %s\n", ok ? "all kernels correct" : "FAIL: a kernel was wrong");
    return ok ? 0 : k_exit_wrong;
}

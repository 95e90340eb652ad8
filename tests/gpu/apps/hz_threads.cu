// SPDX-License-Identifier: Apache-2.0
// Hazard app: four threads launch hz_increment on one context (each on its own stream) while a
// fifth thread runs cudaMemsetAsync. Expected: every launch counted, no hang, no crash.
#include <thread>
#include <vector>

#include "hz_common.cuh"

namespace {

constexpr const char* k_app = "irf-hz-threads";
constexpr int k_threads = 4;
constexpr unsigned k_launches_per_thread = 50;
constexpr int k_memsets = 100;
constexpr std::size_t k_memset_bytes = std::size_t{1} << 20;

void launcher(unsigned* counter) {
    cudaStream_t stream = nullptr;
    ka::check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream", k_app);
    for (unsigned i = 0; i < k_launches_per_thread; ++i) {
        hz::hz_increment<<<1, 32, 0, stream>>>(counter);
        ka::check(cudaGetLastError(), "launch", k_app);
    }
    ka::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize", k_app);
    ka::check(cudaStreamDestroy(stream), "cudaStreamDestroy", k_app);
}

void memsetter(void* buffer) {
    cudaStream_t stream = nullptr;
    ka::check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream", k_app);
    for (int i = 0; i < k_memsets; ++i) {
        ka::check(cudaMemsetAsync(buffer, i & 0xff, k_memset_bytes, stream), "memset", k_app);
    }
    ka::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize", k_app);
    ka::check(cudaStreamDestroy(stream), "cudaStreamDestroy", k_app);
}

} // namespace

int main(int argc, char**) {
    unsigned* counter = hz::begin(argc, k_app);
    void* buffer = nullptr;
    ka::check(cudaMalloc(&buffer, k_memset_bytes), "cudaMalloc buffer", k_app);
    std::vector<std::thread> threads;
    threads.emplace_back(memsetter, buffer);
    for (int t = 0; t < k_threads; ++t) {
        threads.emplace_back(launcher, counter);
    }
    for (std::thread& t : threads) {
        t.join();
    }
    return hz::finish(k_app, hz::read_counter(counter, k_app), k_threads * k_launches_per_thread);
}

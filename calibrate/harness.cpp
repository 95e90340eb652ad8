// SPDX-License-Identifier: Apache-2.0
// Timing harness: CUDA events around single launches, clock from the kernel's own sample.
#include "calibrate/harness.hpp"

#include <algorithm>
#include <stdexcept>

#include <cuda_runtime_api.h>

#include "calibrate/device_info.hpp"

namespace irf::calibrate {
namespace {

cudaEvent_t event(void* e) {
    return static_cast<cudaEvent_t>(e);
}

double median_of(std::vector<double> v) {
    if (v.empty()) {
        return 0;
    }
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

} // namespace

void summarize(Measurement& m) {
    if (m.rates.empty()) {
        return;
    }
    m.best = *std::max_element(m.rates.begin(), m.rates.end());
    m.worst = *std::min_element(m.rates.begin(), m.rates.end());
    m.median = median_of(m.rates);
    m.spread_pct = m.best > 0 ? (m.best - m.worst) / m.best * 100.0 : 0.0;
}

Harness::Harness(HarnessOptions options) : m_options(options) {
    void* clock = nullptr;
    void* sink = nullptr;
    check_cuda(cudaMalloc(&clock, sizeof(ClockSample)), "cudaMalloc");
    check_cuda(cudaMalloc(&sink, 64 << 20), "cudaMalloc"); // indexed by any thread id
    m_clock = static_cast<ClockSample*>(clock);
    m_sink = static_cast<float*>(sink);
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    check_cuda(cudaEventCreate(&start), "cudaEventCreate");
    check_cuda(cudaEventCreate(&stop), "cudaEventCreate");
    m_start = start;
    m_stop = stop;
}

Harness::~Harness() {
    cudaEventDestroy(event(m_start));
    cudaEventDestroy(event(m_stop));
    cudaFree(m_sink);
    cudaFree(m_clock);
}

Harness::Timed Harness::run_once(const LaunchFn& launch, std::int64_t iters) {
    Timed t;
    check_cuda(cudaMemset(m_clock, 0, sizeof(ClockSample)), "cudaMemset");
    check_cuda(cudaEventRecord(event(m_start)), "cudaEventRecord");
    t.info = launch(iters, m_clock);
    if (!t.info.error.empty()) {
        throw std::runtime_error("launch failed: " + t.info.error);
    }
    check_cuda(cudaEventRecord(event(m_stop)), "cudaEventRecord");
    check_cuda(cudaEventSynchronize(event(m_stop)), "kernel");
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, event(m_start), event(m_stop)), "cudaEventElapsedTime");
    t.ms = ms;
    ClockSample s;
    check_cuda(cudaMemcpy(&s, m_clock, sizeof s, cudaMemcpyDeviceToHost), "cudaMemcpy");
    if (s.unsupported != 0) {
        throw std::runtime_error("instruction not compiled in for this device's architecture "
                                 "(rebuild with its CMAKE_CUDA_ARCHITECTURES)");
    }
    // globaltimer ticks coarsely on some GPUs: only trust spans of at least a millisecond.
    const auto ns = static_cast<double>(s.ns_end - s.ns_begin);
    if (s.ns_end > s.ns_begin && ns >= 1e6 && s.cycles_end > s.cycles_begin) {
        t.clock_mhz = static_cast<double>(s.cycles_end - s.cycles_begin) / ns * 1e3;
    }
    return t;
}

Measurement Harness::measure(const LaunchFn& launch, const WorkFn& work, std::int64_t first_iters) {
    Measurement m;
    std::int64_t iters = std::max<std::int64_t>(first_iters, 1);
    // Warm-up: lazy module loading, page mapping and clock ramp-up land here, not in a sample.
    Timed t = run_once(launch, iters);
    for (int step = 0; step < 12 && t.ms < m_options.target_ms * 0.5; ++step) {
        const double grow = t.ms > 0 ? m_options.target_ms / t.ms : 1000.0;
        iters =
            static_cast<std::int64_t>(static_cast<double>(iters) * std::clamp(grow, 2.0, 1000.0));
        iters = std::min<std::int64_t>(iters, std::int64_t{1} << 40);
        t = run_once(launch, iters);
    }
    m.iters = iters;
    std::vector<double> clocks;
    for (int i = 0; i < m_options.samples; ++i) {
        t = run_once(launch, iters);
        m.rates.push_back(work(t.info, iters) / (t.ms * 1e-3));
        if (t.clock_mhz > 0) {
            clocks.push_back(t.clock_mhz);
        }
    }
    m.clock_mhz = median_of(clocks);
    summarize(m);
    return m;
}

std::vector<double> Harness::time_ops(const std::function<void()>& op, int samples) {
    std::vector<double> out;
    op(); // warm-up
    check_cuda(cudaDeviceSynchronize(), "warm-up");
    for (int i = 0; i < samples; ++i) {
        check_cuda(cudaEventRecord(event(m_start)), "cudaEventRecord");
        op();
        check_cuda(cudaEventRecord(event(m_stop)), "cudaEventRecord");
        check_cuda(cudaEventSynchronize(event(m_stop)), "copy");
        float ms = 0;
        check_cuda(cudaEventElapsedTime(&ms, event(m_start), event(m_stop)),
                   "cudaEventElapsedTime");
        out.push_back(ms);
    }
    return out;
}

} // namespace irf::calibrate

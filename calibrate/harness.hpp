// SPDX-License-Identifier: Apache-2.0
// Timing harness: sizes each benchmark to a target duration, then keeps the best of N samples
// with their spread and the SM clock each sample ran at.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "calibrate/kernels.hpp"

namespace irf::calibrate {

/// Work done by one launch (in the benchmark's unit: instructions, flops, bytes) given the grid
/// it ran with and its iteration count.
using WorkFn = std::function<double(const LaunchInfo&, std::int64_t iters)>;

/// Enqueues one launch with `iters` iterations, writing its clock sample to `clock`.
using LaunchFn = std::function<LaunchInfo(std::int64_t iters, ClockSample* clock)>;

/// Best-of-N result of one benchmark; rates in work units per second.
struct Measurement {
    std::vector<double> rates; ///< one per sample
    double clock_mhz = 0;      ///< median SM clock observed (0 = not measurable)
    std::int64_t iters = 0;    ///< iterations per launch after sizing
    double best = 0;
    double median = 0;
    double worst = 0;
    double spread_pct = 0; ///< (best - worst) / best x 100
};

/// How long and how often to measure.
struct HarnessOptions {
    int samples = 10;        ///< timed launches kept (best-of-N)
    double target_ms = 20.0; ///< duration each timed launch is sized to
};

/// Owns the device scratch (clock sample, sink) and CUDA events; one per run.
class Harness {
public:
    explicit Harness(HarnessOptions options);
    ~Harness();
    Harness(const Harness&) = delete;
    Harness& operator=(const Harness&) = delete;

    /// Sizes `launch` to the target duration, warms it up, and times `samples` launches.
    /// Throws std::runtime_error with the CUDA or launch error on failure.
    [[nodiscard]] Measurement measure(const LaunchFn& launch, const WorkFn& work,
                                      std::int64_t first_iters = 1);

    /// Device scratch the kernels write "impossible" results to (never read).
    [[nodiscard]] float* sink() const { return m_sink; }

    /// Times a host-side operation enqueued by `op` on the default stream (e.g. a memcpy):
    /// best-of-N milliseconds, in sample order.
    [[nodiscard]] std::vector<double> time_ops(const std::function<void()>& op, int samples);

private:
    struct Timed {
        double ms = 0;
        double clock_mhz = 0;
        LaunchInfo info;
    };
    Timed run_once(const LaunchFn& launch, std::int64_t iters);

    HarnessOptions m_options;
    ClockSample* m_clock = nullptr;
    float* m_sink = nullptr;
    void* m_start = nullptr; ///< cudaEvent_t (kept opaque: no CUDA types in this header)
    void* m_stop = nullptr;
};

/// Fills best/median/worst/spread from `rates` (larger is better).
void summarize(Measurement& m);

} // namespace irf::calibrate

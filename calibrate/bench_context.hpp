// SPDX-License-Identifier: Apache-2.0
// Internal to calibrate/: what every benchmark runner gets, and how a Measurement becomes a
// measured ceilings value with its provenance.
#pragma once

#include <ostream>
#include <string>

#include "calibrate/benchmarks.hpp"
#include "calibrate/harness.hpp"
#include "config/ceilings.hpp"

namespace irf::calibrate {

/// Shared state of one calibration run.
struct Context {
    const DeviceInfo& device;
    const RunSettings& settings;
    Harness& harness;
    config::Ceilings& out;
    std::ostream& log;

    /// Turns a measurement (rates in unit-per-second x `scale`) into a measured Quantity:
    /// value = best / scale, best-of-N stats, observed clock, per-SM-per-clock rate.
    [[nodiscard]] config::Quantity quantity(const Measurement& m, double scale,
                                            const std::string& unit,
                                            const std::string& method) const;

    /// Prints "[irf-calibrate] name: value unit (best of N, spread, clock)" to the log.
    void report(const std::string& name, const config::Quantity& q) const;
};

/// Runs the compute benchmark `name` (issue, fp32, ..., int32).
void run_compute(Context& ctx, const std::string& name);
/// Runs the tensor benchmark `name` (tensor_fp16, ...).
void run_tensor(Context& ctx, const std::string& name);
/// Runs the memory or link benchmark `name` (l1, shared, l2, hbm, pcie).
void run_memory(Context& ctx, const std::string& name);

} // namespace irf::calibrate

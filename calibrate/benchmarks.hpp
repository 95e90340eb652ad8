// SPDX-License-Identifier: Apache-2.0
// The list of calibration benchmarks, --only selection, and running them into a Ceilings value.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "calibrate/device_info.hpp"
#include "config/ceilings.hpp"

namespace irf::calibrate {

/// One selectable benchmark.
struct BenchmarkSpec {
    std::string name;        ///< --only name, e.g. "hbm"
    std::string group;       ///< compute, tensor, memory or link (also selectable)
    std::string description; ///< what it measures and where the result goes
};

/// Every benchmark, in run order.
[[nodiscard]] const std::vector<BenchmarkSpec>& benchmark_specs();

/// Expands a comma list of names and groups ("" or "all" = everything) to benchmark names in
/// run order; throws std::invalid_argument naming the first unknown item.
[[nodiscard]] std::vector<std::string> select_benchmarks(const std::string& only);

/// Run settings.
struct RunSettings {
    bool quick = false;      ///< fewer samples, shorter launches, smaller buffers (< 1 minute)
    int samples = 10;        ///< best-of-N
    double target_ms = 20.0; ///< per timed launch
    std::string tool;        ///< "irf-calibrate <version>", the source of measured values
    std::string date;        ///< ISO date of the run
};

/// Runs `names` on the current device, adding measured values to `out`; progress lines go to
/// `log`. Returns "name: reason" for each benchmark that could not run.
[[nodiscard]] std::vector<std::string> run_benchmarks(const DeviceInfo& device,
                                                      const std::vector<std::string>& names,
                                                      const RunSettings& settings,
                                                      config::Ceilings& out, std::ostream& log);

} // namespace irf::calibrate

// SPDX-License-Identifier: Apache-2.0
// `irf trajectory --sms 25%,50%,100% -- app args`: one profiled run per SM share, the shares
// below 100% under a CUDA MPS active-thread limit (docs/trajectories.md).
#pragma once

#include <string>
#include <vector>

#include "tools/irf/launch.hpp"

namespace irf::launcher {

/// One point of `--sms`: a percentage of the GPU's SMs, or an absolute SM count.
struct SmShare {
    double value = 0;
    bool percent = true;
};

/// The largest absolute SM count `--sms` accepts (as a ceilings file's gpu.sms).
inline constexpr double k_max_sm_count = 4096;

/// Parses "25%,50%,100%" or "33,66,132" (mixing allowed; plain decimals only); throws
/// UsageError naming the item, or when no share is below 100%.
[[nodiscard]] std::vector<SmShare> parse_sm_shares(const std::string& list);

/// The MPS active-thread percentage (1-100) of a share on a GPU with `total_sms` SMs; an
/// absolute count is rounded up so that the run gets at least that many SMs.
[[nodiscard]] int mps_percentage(const SmShare& share, int total_sms);

/// Options of `irf trajectory`: the SM shares, the output stem and the `irf run` options.
struct TrajectoryOptions {
    std::string sms = "25%,50%,75%,100%";
    std::string output = "irf-trajectory";
    RunOptions run;
};

/// Runs the application once on the whole GPU (counters) and once per share below 100% under
/// MPS (times only: CUPTI counters are not supported under MPS), then builds the trajectory with
/// `irf-report trajectory` found at `report_bin`. Returns the exit code; prints one line per
/// failure (the MPS daemon it started is stopped on every path).
int run_trajectory(const TrajectoryOptions& options, const std::string& library,
                   const std::string& report_bin);

} // namespace irf::launcher

// SPDX-License-Identifier: Apache-2.0
// The hazard apps' expected outcomes, read from tests/gpu/hazards.json.
#pragma once

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace irf::test {

/// What the profile must hold for one kernel of a hazard run.
struct KernelCheck {
    std::string kernel; ///< substring of the kernel's name (exactly one kernel may match)
    int launches = 0;   ///< the kernel's launch count in the profile
    int profiled_min = 0;
    std::optional<int> profiled_max;
    std::string region; ///< NVTX path holding all `launches`; "" = no region check
};

/// One hazard run: the app, its environment, how it ends and what the profile must hold.
struct HazardCase {
    std::string id;  ///< unique, a gtest parameter name
    std::string app; ///< binary name in IRF_GPU_APPS_DIR
    std::map<std::string, std::string> env;
    std::string signal;           ///< "TERM"/"INT": sent by `timeout` after `after_s`; "" = none
    int after_s = 0;              ///< seconds before the signal
    int exit_code = 0;            ///< expected exit status (128+N when killed by signal N)
    std::string stdout_has;       ///< text the app's stdout must contain
    bool profile_required = true; ///< "whole": must exist and parse; else whole or absent
    /// The case's top-level `kernel` check, then those of its `also` list; empty = none.
    std::vector<KernelCheck> kernels;
};

/// Prints a case as its id (gtest parameter display).
void PrintTo(const HazardCase& c, std::ostream* os);

/// Every case of IRF_GPU_HAZARDS; throws std::runtime_error naming the file on bad input.
[[nodiscard]] const std::vector<HazardCase>& hazard_cases();

/// The distinct hazard app names, in first-seen order.
[[nodiscard]] std::vector<std::string> hazard_apps();

/// The command line that runs `c` (under `timeout --preserve-status -s SIG` when it has one).
[[nodiscard]] std::vector<std::string> hazard_command(const HazardCase& c,
                                                      const std::string& app_path);

} // namespace irf::test

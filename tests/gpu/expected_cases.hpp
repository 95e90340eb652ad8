// SPDX-License-Identifier: Apache-2.0
// The known answers of the gpu apps, read from tests/gpu/expected.json (see expected_gen.py).
#pragma once

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace irf::test {

/// A cache-dependent counter: accepted when value x ratio lies in [min_ratio, max_ratio].
struct ApproxCount {
    double value = 0, min_ratio = 0, max_ratio = 0;
};

/// A counter accepted when its per-launch value lies in [min, max] (bounds from the source).
struct CountRange {
    double min = 0, max = 0;
};

/// One kernel of one app with its expected per-launch counts and verdicts.
struct ExpectedCase {
    std::string id;  ///< unique, usable as a gtest parameter name after sanitizing
    std::string app; ///< binary name (irf-demo or irf-ka-*)
    std::vector<std::string> args;
    std::map<std::string, std::string> env; ///< set for the run (e.g. IRF_METRICS=pipe_mix)
    std::string kernel;                     ///< substring of the demangled kernel name
    int launches = 0;                       ///< the kernel's launch count in the profile
    std::map<std::string, double> counts;   ///< canonical counter -> expected value a launch
    double tolerance = 0.01;                ///< relative tolerance of `counts`
    std::map<std::string, ApproxCount> approx;
    std::map<std::string, CountRange> ranges; ///< inst_warp and inst_thread a launch
    nlohmann::json verdict; ///< global_pattern, shared_conflict_ways, predication, ...
    std::optional<std::pair<int, int>> min_cc; ///< counts hold from this (major, minor)
};

/// Prints a case as its id (gtest shows parameters with it; the default would dump bytes).
void PrintTo(const ExpectedCase& c, std::ostream* os);

/// The environment variable `name` when set and non-empty, else the compiled-in default (so a
/// build tree used from another path can still find its files).
[[nodiscard]] std::string setting(const char* name, const char* compiled);

/// Every case of IRF_GPU_EXPECTED; throws std::runtime_error naming the file on bad input.
[[nodiscard]] const std::vector<ExpectedCase>& expected_cases();

/// The distinct app names of expected_cases(), in first-seen order.
[[nodiscard]] std::vector<std::string> expected_apps();

/// Path of an app binary (irf-demo and the irf-ka-* apps alike) in IRF_GPU_APPS_DIR.
[[nodiscard]] std::string app_path(const std::string& app);

/// libirf.so to inject (IRF_LIBIRF_PATH, else the compiled-in path; "" when none was built).
[[nodiscard]] std::string libirf_path();

/// The environment of a run under libirf.so: `env` plus CUDA_INJECTION64_PATH, IRF_OUTPUT=`stem`,
/// IRF_SUMMARY=file and IRF_LOG=info ($IRF_GPU_LOG instead when set: the validation keeps debug
/// logs of the hazard runs).
[[nodiscard]] std::map<std::string, std::string>
irf_environment(std::map<std::string, std::string> env, const std::string& stem);

/// Copies `stem`.json and `stem`.txt (profile and summary) and the run's exit status and output
/// to <dir>/<id>.{json,txt,log}, where dir is the environment variable `dir_variable`; nothing
/// when it is unset (scripts/gpu-validate.sh sets it to keep the raw results of a GPU session).
void keep_run_outputs(const char* dir_variable, const std::string& id, const std::string& stem,
                      int exit_code, int signal, const std::string& out, const std::string& err);

/// `id` with every character outside [A-Za-z0-9_] replaced by '_' (gtest parameter names).
[[nodiscard]] std::string gtest_name(const std::string& id);

} // namespace irf::test

// SPDX-License-Identifier: Apache-2.0
// `irf run`: turns launcher options into the environment of a profiled application.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/cli.hpp"

namespace irf::launcher {

/// A bad option value: printed as one line, exit code 2.
class UsageError : public common::BadInput {
public:
    using common::BadInput::BadInput;
};

/// The options of `irf run`; an empty optional leaves the variable as the environment has it.
/// Values stay text: libirf's own option table (config/env.hpp) parses and checks them.
struct RunOptions {
    std::optional<std::string> kernels;       ///< IRF_KERNELS (RE2 regex, ncu's regex: prefix)
    std::optional<std::string> exclude;       ///< IRF_EXCLUDE (RE2 regex)
    std::vector<std::string> nvtx_include;    ///< IRF_NVTX_INCLUDE, joined with ';'
    std::vector<std::string> nvtx_exclude;    ///< IRF_NVTX_EXCLUDE, joined with ';'
    std::optional<std::string> capture_range; ///< IRF_CAPTURE_RANGE (none, cudaProfilerApi)
    std::optional<std::string> launch_skip;   ///< IRF_LAUNCH_SKIP
    std::optional<std::string> launch_count;  ///< IRF_LAUNCH_COUNT
    std::optional<std::string> samples;       ///< IRF_SAMPLES (0 = timing only)
    std::optional<std::string> output;        ///< IRF_OUTPUT (path stem with placeholders)
    std::optional<std::string> targets;       ///< IRF_TARGETS (comma list, all, none)
    std::optional<std::string> ceilings;      ///< IRF_CEILINGS (shipped name or YAML file)
    std::optional<std::string> callstack;     ///< IRF_CALLSTACK (0 to 64 frames)
    std::optional<std::string> log;           ///< IRF_LOG (error, warn, info, debug)
    std::optional<std::string> summary;       ///< IRF_SUMMARY (stderr, file, both, none)
    std::optional<std::string> metrics;       ///< IRF_METRICS (default, all, pipe_mix, ...)
    std::optional<std::string> lib;           ///< libirf.so to inject instead of the one found
    bool fast_intercept = false;      ///< --fast-intercept: IRF_FAST_INTERCEPT=1, LD_PRELOAD
    std::vector<std::string> command; ///< the application and its arguments
};

/// Replaces the process with `command` (execvp, no shell). Returns only when that fails, after
/// one line on stderr, with the shell's exit code for it: 127 when not found, else 126.
[[nodiscard]] int exec_application(const std::vector<std::string>& command);

/// Checks every option value, and every IRF_* variable the application would inherit, with
/// the parsers libirf.so itself uses (config::parse_env); throws UsageError with one line
/// naming the option (or variable) and the value.
void validate(const RunOptions& options);

/// The checks that need the file system, as libirf.so makes them at load: shipped names and
/// files of --ceilings and --targets (database found from `library`'s directory) and the
/// output directory of this process's stem. Throws UsageError; returns "<stem>.json", where
/// the profile will go (the application keeps irf's pid, exec replaces the process).
[[nodiscard]] std::string check_before_exec(const RunOptions& options, const std::string& library);

/// The variables to set in the application's environment (name, value), in a fixed order:
/// CUDA_INJECTION64_PATH and NVTX_INJECTION64_PATH = `library` (made absolute) and one IRF_* per
/// option given. The stem is passed on unchanged: libirf.so itself adds "-r%r" under a launcher
/// that sets a rank variable, so the ranks of `mpirun -np N irf run` write distinct files.
/// With --fast-intercept also IRF_FAST_INTERCEPT=1 and, when `entry` is given, LD_PRELOAD with
/// `entry` first (the inherited LD_PRELOAD after it).
[[nodiscard]] std::vector<std::pair<std::string, std::string>>
build_environment(const RunOptions& options, const std::string& library,
                  const std::string& entry = "");

/// libirf_entry.so for --fast-intercept: beside `library`, else `build_tree_path` (may be
/// empty); throws UsageError naming the places looked at when neither exists.
[[nodiscard]] std::string find_entry_library(const std::string& library,
                                             const std::string& build_tree_path);

/// One line per injection variable (CUDA_INJECTION64_PATH, NVTX_INJECTION64_PATH) in `vars`
/// that `lookup` (getenv) shows already set to another value: that tool loses it to irf.
[[nodiscard]] std::vector<std::string>
replaced_injection_notes(const std::vector<std::pair<std::string, std::string>>& vars,
                         const char* (*lookup)(const char*));

/// The libirf.so to inject: the first existing file among `candidates`; throws UsageError
/// listing the places looked at when there is none.
[[nodiscard]] std::string find_library(const std::vector<std::string>& candidates);

/// Where an installed or build-tree irf looks for libirf.so: next to `exe_dir` in
/// ../<libdir>/ and ../lib/, then `build_tree_path` (baked in at build time; may be empty).
[[nodiscard]] std::vector<std::string> library_candidates(const std::string& exe_dir,
                                                          const std::string& libdir,
                                                          const std::string& build_tree_path);

} // namespace irf::launcher

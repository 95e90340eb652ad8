// SPDX-License-Identifier: Apache-2.0
// Shared helpers of the fault-matrix tests: run the fault harness with IRF_* settings.
#pragma once

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "tests/integration/harness_support.hpp"

namespace irf::test {

/// Runs fault_harness on libirf.so with `env` (see isolated_run_options) and `modes` (see
/// fault_harness.cpp), in `cwd` when not empty, killed after `timeout_s`.
inline ProcessResult run_fault_harness(const std::map<std::string, std::string>& env,
                                       const std::vector<std::string>& modes = {},
                                       const std::string& cwd = "", double timeout_s = 60) {
    RunOptions options = isolated_run_options(env);
    options.cwd = cwd;
    options.timeout_s = timeout_s;
    std::vector<std::string> argv = {IRF_FAULT_HARNESS_BIN, IRF_LIBIRF};
    argv.insert(argv.end(), modes.begin(), modes.end());
    return run_process(argv, options);
}

/// The environment of a fake-backend run of basic.json (14 launches) writing <dir>/<stem>.json.
inline std::map<std::string, std::string> fake_run_env(const std::filesystem::path& dir,
                                                       const std::string& stem = "out") {
    return {{"IRF_BACKEND", "fake:" + fake_script("basic.json")},
            {"IRF_OUTPUT", (dir / stem).string()},
            {"IRF_SUMMARY", "none"}};
}

/// `env` with ThreadSanitizer told to stop at its first report (exit 66), so that a race in a
/// signal or exit path changes the status the test checks (the outer TSAN_OPTIONS are kept).
inline std::map<std::string, std::string> halting_on_races(std::map<std::string, std::string> env) {
    const char* outer = std::getenv("TSAN_OPTIONS");
    env["TSAN_OPTIONS"] = std::string(outer != nullptr ? outer : "") + ":halt_on_error=1";
    return env;
}

/// True when a sanitizer reported something on `err` (the child's stderr).
inline bool has_sanitizer_report(const std::string& err) {
    return err.find("WARNING: ThreadSanitizer") != std::string::npos ||
           err.find("ERROR: AddressSanitizer") != std::string::npos ||
           err.find("runtime error:") != std::string::npos;
}

/// Lines of `text` that start with "[irf]" and contain `needle`.
inline std::vector<std::string> irf_lines_with(const std::string& text, const std::string& needle) {
    std::vector<std::string> out;
    for (const std::string& line : irf_lines(text)) {
        if (line.find(needle) != std::string::npos) {
            out.push_back(line);
        }
    }
    return out;
}

/// Names in `dir` that look like temporaries of write_file_atomic (".tmp.").
inline std::vector<std::string> temporaries_in(const std::filesystem::path& dir) {
    std::vector<std::string> out;
    for (const std::string& name : files_in(dir)) {
        if (name.find(".tmp") != std::string::npos) {
            out.push_back(name);
        }
    }
    return out;
}

} // namespace irf::test

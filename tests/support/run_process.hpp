// SPDX-License-Identifier: Apache-2.0
// Test helper: run a program with arguments and extra environment, capturing its output.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace irf::test {

/// What a finished child process left behind.
struct ProcessResult {
    int exit_code = -1; ///< exit status, or -1 when killed by a signal
    int signal = 0;     ///< terminating signal, 0 when it exited
    std::string out;    ///< standard output
    std::string err;    ///< standard error
    bool timed_out = false;
};

/// Options for run_process.
struct RunOptions {
    std::map<std::string, std::string> env; ///< set (or override) in the child's environment
    std::vector<std::string> unset;         ///< removed from the child's environment
    std::string cwd;                        ///< working directory ("" = inherit)
    double timeout_s = 60;                  ///< the child is killed (SIGKILL) after this
    std::string stdin_text;                 ///< fed to the child's standard input
    /// A child line starting "[irf] error" or "<tool>: error: " (irf, irf-report, irf-calibrate,
    /// irf-plot) fails the calling test unless this is set: a test that provokes an error says
    /// so, and no other test passes over one unnoticed.
    bool expect_irf_error = false;
};

/// While one is alive, run_process calls of this thread expect error lines, as if each set
/// RunOptions::expect_irf_error: for a test whose every run provokes an error on purpose.
class ExpectIrfErrors {
public:
    ExpectIrfErrors();
    ~ExpectIrfErrors();
    ExpectIrfErrors(const ExpectIrfErrors&) = delete;
    ExpectIrfErrors& operator=(const ExpectIrfErrors&) = delete;
};

/// Runs argv[0] (a path, or a name looked up in PATH) with argv, waits for it, and returns its
/// status and output. Adds a test failure when the child wrote an error line (see expect_irf_error)
/// and the options do not expect one.
[[nodiscard]] ProcessResult run_process(const std::vector<std::string>& argv,
                                        const RunOptions& options = {});

} // namespace irf::test

// SPDX-License-Identifier: Apache-2.0
// The command-line pattern of irf, irf-report and irf-calibrate: parsing, --help/--version and
// exit codes (docs/tools.md "Exit codes"), the same in all three tools.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

namespace irf::common {

/// Exit codes shared by the tools.
enum ExitCode : int {
    exit_ok = 0,        ///< done (also --help and --version)
    exit_failed = 1,    ///< the work could not be done (no device, a benchmark or write failed)
    exit_bad_input = 2, ///< bad command line, file or value: one "<tool>: error: " line
    exit_internal = 3,  ///< a bug: an unexpected exception, "<tool>: internal error: "
};

/// Bad input named in one line (exit 2); tools derive their own input errors from it.
class BadInput : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A CLI11 check that the value is a whole number from `min` to `max`; the error reads as people
/// write it ("must be a whole number between 1 and 1000", or "1 or more" when `max` is absent),
/// not CLI11's "not in range [1 - 1000]".
[[nodiscard]] CLI::Validator whole_number(long long min, std::optional<long long> max = {});

/// Adds --version ("<tool> <version>") to `app`.
void set_version(CLI::App& app, const std::string& tool, const std::string& version);

/// Parses argv with `app`. Returns the exit code when the tool is done (--help/--version: 0 with
/// CLI11's text; a parse error: 2 with "<tool>: <what> (<hint>)"), std::nullopt to go on.
[[nodiscard]] std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv,
                                                    const std::string& tool,
                                                    const std::string& hint);

/// Runs `action` and returns its exit code; BadInput -> 2 ("<tool>: error: <what>"), any other
/// exception -> 3 ("<tool>: internal error: <what>").
[[nodiscard]] int run_tool(const std::string& tool, const std::function<int()>& action);

} // namespace irf::common

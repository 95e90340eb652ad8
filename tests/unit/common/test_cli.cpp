// SPDX-License-Identifier: Apache-2.0
// The tools' command-line pattern: exit codes of parse_command_line and run_tool.
#include <new>

#include <gtest/gtest.h>

#include "common/cli.hpp"
#include "common/whole_number.hpp"

namespace test_cli {
namespace {

using namespace irf::common;

std::optional<int> parse(CLI::App& app, std::vector<std::string> args) {
    std::vector<char*> argv;
    for (auto& arg : args) {
        argv.push_back(arg.data());
    }
    return parse_command_line(app, static_cast<int>(argv.size()), argv.data(), "t", "see t --help");
}

TEST(Cli, HelpAndVersionExitZeroAndBadOptionsExitTwo) {
    CLI::App app{"t", "t"};
    set_version(app, "t", "1.0");
    int n = 0;
    app.add_option("--n", n);
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    EXPECT_EQ(parse(app, {"t", "--version"}), 0);
    EXPECT_EQ(parse(app, {"t", "--help"}), 0);
    EXPECT_EQ(parse(app, {"t", "--bogus"}), 2);
    EXPECT_EQ(parse(app, {"t", "--n", "x"}), 2);
    const std::string out = testing::internal::GetCapturedStdout();
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(out.find("t 1.0"), std::string::npos) << out;
    EXPECT_NE(err.find("t: "), std::string::npos) << err;
    EXPECT_NE(err.find("(see t --help)"), std::string::npos) << err;
    EXPECT_EQ(parse(app, {"t", "--n", "4"}), std::nullopt);
    EXPECT_EQ(n, 4);
}

TEST(Cli, RunToolMapsExceptionsToExitCodes) {
    testing::internal::CaptureStderr();
    EXPECT_EQ(run_tool("t", [] { return 0; }), exit_ok);
    EXPECT_EQ(run_tool("t", [] { return 1; }), exit_failed);
    EXPECT_EQ(run_tool("t", []() -> int { throw BadInput("bad value"); }), exit_bad_input);
    EXPECT_EQ(run_tool("t", []() -> int { throw std::logic_error("bug"); }), exit_internal);
    // Out of memory is bad input (too large for the limit), not an abort (issue #39 item 8).
    EXPECT_EQ(run_tool("t", []() -> int { throw std::bad_alloc(); }), exit_bad_input);
    EXPECT_EQ(run_tool("t", []() -> int { throw 7; }), exit_internal);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(err, "t: error: bad value\nt: internal error: bug\nt: error: out of memory (input "
                   "too large for this process's memory limit)\nt: internal error: unknown "
                   "exception\n");
}

TEST(Cli, WholeNumberRuleReadsAsPeopleWriteIt) {
    EXPECT_EQ(whole_number_rule(0, 1000), "must be a whole number between 0 and 1000");
    EXPECT_EQ(whole_number_rule(1), "must be a whole number, 1 or more");
    // The CLI check words its error with the same rule.
    CLI::App app{"t", "t"};
    int n = 0;
    app.add_option("--n", n)->check(whole_number(1, 64));
    testing::internal::CaptureStderr();
    EXPECT_EQ(parse(app, {"t", "--n", "65"}), 2);
    EXPECT_EQ(parse(app, {"t", "--n", "-3"}), 2);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("'65' must be a whole number between 1 and 64"), std::string::npos) << err;
    EXPECT_NE(err.find("'-3' must be a whole number between 1 and 64"), std::string::npos) << err;
}

} // namespace
} // namespace test_cli

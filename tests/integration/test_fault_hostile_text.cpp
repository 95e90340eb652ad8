// SPDX-License-Identifier: Apache-2.0
// Fault matrix, hostile text through libirf.so (issue 22 items 2, 5, 8 and 12): bytes that are
// not UTF-8 never cost the profile, control characters never reach the terminal as such, an
// empty %q{VAR} never writes a hidden or root-level file, and a FIFO named by IRF_CEILINGS or
// IRF_TARGETS never hangs the application.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "tests/integration/fault_support.hpp"

namespace irf::test {
namespace test_fault_hostile_text {
namespace {

class FaultHostileText : public TempDirTest {};

TEST_F(FaultHostileText, OutputStemThatIsNotUtf8StillWritesTheProfile) {
    // IRF_OUTPUT lands in the profile's `config`; nlohmann's strict dump threw type_error.316
    // and the whole profile was lost.
    auto env = fake_run_env(m_tmp.path(), "out\xE9-%q{IRF_TEST_LATIN1}");
    env["IRF_TEST_LATIN1"] = "caf\xE9";
    const ProcessResult r = run_fault_harness(env);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string name = "out\xE9-caf\xE9.json";
    ASSERT_EQ(files_in(m_tmp.path()), std::vector<std::string>{name}) << r.err;
    const auto json = read_json(m_tmp / name);
    EXPECT_EQ(json["coverage"]["launches"], 14);
    EXPECT_EQ(json["config"]["IRF_OUTPUT"],
              (m_tmp / "out\xEF\xBF\xBD-%q{IRF_TEST_LATIN1}").string());
    // The log line names the file with the byte escaped, never raw.
    EXPECT_EQ(irf_lines_with(r.err, "out\\xE9-caf\\xE9.json").size(), 1u) << r.err;
    EXPECT_EQ(r.err.find('\xE9'), std::string::npos);
}

/// No line of `err` starts with a forged "[irf] forged", and no ESC or BEL reaches it.
void expect_no_forgery(const std::string& err) {
    for (const std::string& line : irf_lines(err)) {
        EXPECT_NE(line.rfind("[irf] forged", 0), 0u) << err;
    }
    EXPECT_EQ(err.find('\x1b'), std::string::npos) << err;
    EXPECT_EQ(err.find('\x07'), std::string::npos) << err;
}

TEST_F(FaultHostileText, ControlCharactersInSettingsCannotForgeLinesOrDriveTheTerminal) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    auto env = fake_run_env(m_tmp.path());
    env["IRF_KERNELS"] = "x(\n[irf] forged";         // invalid regex: quoted in a line
    env["IRF_EXCLUDE"] = "(\x1b]0;pwned\x07\x1b[2J"; // OSC title + clear screen
    const ProcessResult r = run_fault_harness(env);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_no_forgery(r.err);
    EXPECT_EQ(irf_lines_with(r.err, "IRF_KERNELS=x(\\n[irf] forged").size(), 1u) << r.err;
    EXPECT_EQ(irf_lines_with(r.err, "IRF_EXCLUDE=(\\x1B]0;pwned\\x07").size(), 1u) << r.err;
}

TEST_F(FaultHostileText, ControlCharactersInTheSummaryAreEscaped) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    // An unknown target is noticed at exit: a log line and the summary's Warnings quote it.
    auto env = fake_run_env(m_tmp.path());
    env["IRF_TARGETS"] = "nosuch\n[irf] forged\x1b[2J";
    env["IRF_SUMMARY"] = "stderr";
    const ProcessResult r = run_fault_harness(env);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_no_forgery(r.err);
    EXPECT_NE(r.err.find("  IRF_TARGETS=nosuch\\n[irf] forged\\x1B[2J"), std::string::npos)
        << r.err;
}

TEST_F(FaultHostileText, EmptyQPlaceholderWritesNoHiddenOrRootFile) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    for (const std::string stem : {"%q{IRF_TEST_UNSET}", "%q{IRF_TEST_UNSET}/p"}) {
        auto env = fake_run_env(m_tmp.path());
        env["IRF_OUTPUT"] = stem;
        const ProcessResult r = run_fault_harness(env, {}, m_tmp.path().string());
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_TRUE(files_in(m_tmp.path()).empty()) << stem; // no ".json"
        EXPECT_FALSE(std::filesystem::exists("/p.json"));
        EXPECT_EQ(irf_lines_with(r.err, "expands to an empty path component").size(), 1u) << r.err;
    }
}

TEST_F(FaultHostileText, FifoAsCeilingsOrTargetsNeverHangs) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    const std::filesystem::path fifo = m_tmp / "fifo.yaml";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const char* variable : {"IRF_CEILINGS", "IRF_TARGETS"}) {
        auto env = fake_run_env(m_tmp.path() / "o");
        std::filesystem::create_directories(m_tmp.path() / "o");
        env[variable] = fifo.string();
        RunOptions options = isolated_run_options(env);
        options.timeout_s = 30;
        const ProcessResult r =
            run_process({IRF_FAULT_HARNESS_BIN, IRF_LIBIRF}, options); // hung forever before
        EXPECT_FALSE(r.timed_out) << variable;
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(irf_lines_with(r.err, "not a regular file").size(), 1u) << variable << r.err;
        EXPECT_TRUE(std::filesystem::exists(m_tmp / "o" / "out.json")) << variable << r.err;
        std::filesystem::remove_all(m_tmp / "o");
    }
}

} // namespace
} // namespace test_fault_hostile_text
} // namespace irf::test

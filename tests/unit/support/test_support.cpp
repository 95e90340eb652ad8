// SPDX-License-Identifier: Apache-2.0
// The test helpers themselves: temp dirs, golden files, child processes.
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "tests/support/golden.hpp"
#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace test_support {
namespace {

using irf::test::TempDirTest;

TEST_F(TempDirTest, WriteThenReadRoundTrips) {
    irf::test::write_file(m_tmp / "a/b.txt", "hello\n");
    EXPECT_EQ(irf::test::read_file(m_tmp / "a/b.txt"), "hello\n");
}

TEST(TempDir, IsRemovedAtScopeEnd) {
    std::filesystem::path kept;
    {
        irf::test::TempDir dir;
        kept = dir.path();
        EXPECT_TRUE(std::filesystem::is_directory(kept));
    }
    EXPECT_FALSE(std::filesystem::exists(kept));
}

TEST(RunProcess, CapturesOutputExitCodeAndEnvironment) {
    irf::test::RunOptions options;
    options.env["IRF_PROBE"] = "42";
    const auto r = irf::test::run_process(
        {"/bin/sh", "-c", "echo out $IRF_PROBE; echo err >&2; exit 3"}, options);
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_EQ(r.out, "out 42\n");
    EXPECT_EQ(r.err, "err\n");
}

TEST(RunProcess, ReportsTheKillingSignal) {
    const auto r = irf::test::run_process({"/bin/sh", "-c", "kill -TERM $$"});
    EXPECT_EQ(r.signal, 15);
    EXPECT_EQ(r.exit_code, -1);
}

TEST(RunProcess, TimesOut) {
    irf::test::RunOptions options;
    options.timeout_s = 0.2;
    const auto r = irf::test::run_process({"/bin/sleep", "5"}, options);
    EXPECT_TRUE(r.timed_out);
}

/// IRF_UPDATE_GOLDEN unset while alive, restored after: the Golden tests check the comparison,
/// so under an update run they must neither pass by "updating" nor write into tests/data/golden.
class NoGoldenUpdate {
public:
    NoGoldenUpdate() {
        const char* value = std::getenv("IRF_UPDATE_GOLDEN");
        m_was_set = value != nullptr;
        m_value = m_was_set ? value : "";
        ::unsetenv("IRF_UPDATE_GOLDEN");
    }
    ~NoGoldenUpdate() {
        if (m_was_set) {
            ::setenv("IRF_UPDATE_GOLDEN", m_value.c_str(), 1);
        }
    }
    NoGoldenUpdate(const NoGoldenUpdate&) = delete;
    NoGoldenUpdate& operator=(const NoGoldenUpdate&) = delete;

private:
    bool m_was_set = false;
    std::string m_value;
};

TEST(Golden, MissingGoldenFails) {
    const NoGoldenUpdate no_update;
    EXPECT_FALSE(irf::test::matches_golden("does-not-exist.txt", "x"));
    EXPECT_FALSE(std::filesystem::exists(irf::test::data_path("golden/does-not-exist.txt")));
}

// IRF_UPDATE_GOLDEN=1 writes the actual text and still fails, so an update run never passes.
TEST_F(TempDirTest, GoldenUpdateWritesTheFileAndFails) {
    const NoGoldenUpdate restore_afterwards;
    ::setenv("IRF_UPDATE_GOLDEN", "1", 1);
    const std::string path = (m_tmp / "g.txt").string();
    const auto r = irf::test::matches_golden_file(path, "new\n");
    ::unsetenv("IRF_UPDATE_GOLDEN");
    EXPECT_FALSE(r);
    EXPECT_EQ(irf::test::read_file(path), "new\n");
    EXPECT_TRUE(irf::test::matches_golden_file(path, "new\n")); // without the update: equal
}

TEST(Golden, MatchesAndReportsFirstDifference) {
    const NoGoldenUpdate no_update;
    ASSERT_TRUE(irf::test::matches_golden("selftest.txt", "line one\nline two\n"));
    const auto r = irf::test::matches_golden("selftest.txt", "line one\nline 2\n");
    ASSERT_FALSE(r);
    EXPECT_NE(std::string(r.message()).find("line 2"), std::string::npos);
}

TEST(RunProcess, AnUnexpectedIrfErrorLineFailsTheTest) {
    EXPECT_NONFATAL_FAILURE(
        (void)irf::test::run_process({"/bin/sh", "-c", "echo '[irf] error: x' >&2"}),
        "[irf] error: x");
    EXPECT_NONFATAL_FAILURE(
        (void)irf::test::run_process({"/bin/sh", "-c", "echo 'irf-report: error: y'"}),
        "irf-report: error: y");
}

TEST(RunProcess, AnExpectedIrfErrorLinePasses) {
    irf::test::RunOptions options;
    options.expect_irf_error = true;
    const auto r = irf::test::run_process({"/bin/sh", "-c", "echo '[irf] error: x' >&2"}, options);
    EXPECT_EQ(r.err, "[irf] error: x\n");
    // Other lines that mention an error are not error lines of irf.
    const auto other = irf::test::run_process(
        {"/bin/sh", "-c", "echo 'note: irf: error: quoted'; echo '[irf] warning: error soon'"});
    EXPECT_EQ(other.exit_code, 0);
}

TEST_F(TempDirTest, GoldenUpdateModeRewritesTheFileAndFails) {
    const std::string path = (m_tmp / "g.txt").string();
    irf::test::write_file(path, "old\n");
    ::setenv("IRF_UPDATE_GOLDEN", "1", 1);
    const auto updated = irf::test::matches_golden_file(path, "new\n");
    ::unsetenv("IRF_UPDATE_GOLDEN");
    EXPECT_FALSE(updated);
    EXPECT_NE(std::string(updated.message()).find("updated, re-run"), std::string::npos);
    EXPECT_EQ(irf::test::read_file(path), "new\n");
    EXPECT_TRUE(irf::test::matches_golden_file(path, "new\n"));
}

} // namespace
} // namespace test_support

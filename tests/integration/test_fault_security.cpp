// SPDX-License-Identifier: Apache-2.0
// Fault matrix, security (end to end): libirf.so creates its files with the application's
// umask, neither follows nor replaces a symlink planted at the output name, and
// treats text from the environment as data (never as a format).
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "tests/integration/fault_support.hpp"

namespace irf::test {
namespace test_fault_security {
namespace {

class FaultSecurity : public TempDirTest {};

TEST_F(FaultSecurity, OutputFilesGetTheApplicationsUmask) {
    auto env = fake_run_env(m_tmp.path());
    env["IRF_SUMMARY"] = "file";
    const ProcessResult r = run_fault_harness(env, {"umask:027"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* name : {"out.json", "out.txt"}) {
        struct stat st {};
        ASSERT_EQ(::stat((m_tmp / name).c_str(), &st), 0) << name;
        EXPECT_EQ(st.st_mode & 0777, 0640u) << name; // 0666 & ~027
    }
}

TEST_F(FaultSecurity, SymlinkPlantedAtTheOutputNameIsNeitherFollowedNorReplaced) {
    const ExpectIrfErrors expect_errors; // refused: the point of this test is an error line
    const std::filesystem::path victim = m_tmp / "victim";
    write_file(victim, "precious");
    std::filesystem::create_symlink(victim, m_tmp / "out.json");
    std::filesystem::create_symlink(victim, m_tmp / "out.json.tmp");
    const ProcessResult r = run_fault_harness(fake_run_env(m_tmp.path()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(victim), "precious");
    EXPECT_TRUE(std::filesystem::is_symlink(m_tmp / "out.json"));
    EXPECT_EQ(irf_lines_with(r.err, "profile not written").size(), 1u) << r.err;
    EXPECT_NE(r.err.find("symbolic link"), std::string::npos) << r.err;
    EXPECT_TRUE(std::filesystem::is_symlink(m_tmp / "out.json.tmp"));
}

// Issue #39 item 3: a stem whose .json is a link to a device (as /dev/stdout and /dev/null are)
// is written through; before, the rename replaced the link (as root, the device node itself).
TEST_F(FaultSecurity, OutputThatIsALinkToADeviceIsWrittenThroughAndKept) {
    std::filesystem::create_symlink("/dev/null", m_tmp / "out.json");
    const ProcessResult r = run_fault_harness(fake_run_env(m_tmp.path()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(std::filesystem::is_symlink(m_tmp / "out.json"));
    EXPECT_EQ(irf_lines_with(r.err, "profile written to").size(), 1u) << r.err;
}

TEST_F(FaultSecurity, EnvironmentTextIsNeverAFormat) {
    // %q{VAR} inserts VAR as is: printf conversions in it end up in the file name verbatim.
    auto env = fake_run_env(m_tmp.path(), "out-%q{IRF_TEST_HOSTILE}");
    env["IRF_TEST_HOSTILE"] = "%s%n%x%p";
    const ProcessResult r = run_fault_harness(env);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(files_in(m_tmp.path()), (std::vector<std::string>{"out-%s%n%x%p.json"}));
    EXPECT_EQ(irf_lines_with(r.err, "out-%s%n%x%p.json").size(), 1u) << r.err;
}

} // namespace
} // namespace test_fault_security
} // namespace irf::test

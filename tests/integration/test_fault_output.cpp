// SPDX-License-Identifier: Apache-2.0
// Fault matrix, output trouble: missing or unwritable directory, disk full, a file or directory
// of the same name, a FIFO without a reader or with one that stopped, two processes with one
// stem. Never a crash or a hang, never half a JSON file, never a temporary left behind, and one
// line saying where the profile went or why it did not.
#include <chrono>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "tests/integration/fault_support.hpp"

namespace irf::test {
namespace test_fault_output {
namespace {

class FaultOutput : public TempDirTest {
protected:
    /// Expects a normal exit and exactly one "[irf] profile not written: ..." line naming `what`.
    static void expect_not_written(const ProcessResult& r, const std::string& what) {
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(r.signal, 0) << r.err;
        const std::vector<std::string> lines = irf_lines_with(r.err, "profile not written: ");
        ASSERT_EQ(lines.size(), 1u) << r.err;
        EXPECT_NE(lines[0].find(what), std::string::npos) << lines[0];
    }
};

TEST_F(FaultOutput, MissingDirectory) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    const ProcessResult r = run_fault_harness(fake_run_env(m_tmp / "no" / "such"));
    expect_not_written(r, (m_tmp / "no" / "such" / "out.json").string());
    expect_not_written(r, ": No such file or directory");
    EXPECT_TRUE(files_in(m_tmp.path()).empty());
}

TEST_F(FaultOutput, DirectoryPathIsAFile) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    // Works as root too (unlike a chmod'ed directory): ENOTDIR.
    write_file(m_tmp / "plain", "x");
    const ProcessResult r = run_fault_harness(fake_run_env(m_tmp / "plain"));
    expect_not_written(r, "Not a directory");
    EXPECT_EQ(read_file(m_tmp / "plain"), "x");
}

// As root (how CI runs), permissions do not bind, so the harness runs in a new user namespace
// (`unshare --user`): it keeps uid 0 for the owner bits but loses CAP_DAC_OVERRIDE over files
// of the outer namespace, so the r-x directory refuses it as it refuses any user.
TEST_F(FaultOutput, DirectoryNotWritable) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    const std::filesystem::path dir = m_tmp / "ro";
    std::filesystem::create_directories(dir);
    std::filesystem::permissions(dir, std::filesystem::perms::owner_read |
                                          std::filesystem::perms::owner_exec);
    std::vector<std::string> argv = {IRF_FAULT_HARNESS_BIN, IRF_LIBIRF};
    if (::geteuid() == 0) {
        argv.insert(argv.begin(), {"/usr/bin/unshare", "--user", "--"}); // util-linux
    }
    const ProcessResult r = run_process(argv, isolated_run_options(fake_run_env(dir)));
    std::filesystem::permissions(dir, std::filesystem::perms::owner_all);
    ASSERT_EQ(r.err.find("unshare:"), std::string::npos) << "no user namespace here: " << r.err;
    expect_not_written(r, "Permission denied");
    EXPECT_TRUE(files_in(dir).empty());
}

TEST_F(FaultOutput, UnwritableFileSystem) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    // /proc refuses new files even for root.
    const ProcessResult r = run_fault_harness(fake_run_env("/proc/self", "irf-out"));
    expect_not_written(r, "/proc/self/irf-out.json");
}

TEST_F(FaultOutput, DiskFullLeavesNoHalfFile) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    // RLIMIT_FSIZE with SIGXFSZ ignored: write(2) fails with EFBIG after 512 bytes, the way a
    // full disk fails with ENOSPC part-way through a file.
    const ProcessResult r = run_fault_harness(fake_run_env(m_tmp.path()), {"fsize:512"});
    expect_not_written(r, "File too large");
    EXPECT_TRUE(files_in(m_tmp.path()).empty()) << "no partial profile, no temporary";
}

TEST_F(FaultOutput, DiskFullKeepsTheOldProfile) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    write_file(m_tmp / "out.json", "{\"old\": true}");
    const ProcessResult r = run_fault_harness(fake_run_env(m_tmp.path()), {"fsize:512"});
    expect_not_written(r, "File too large");
    EXPECT_EQ(read_file(m_tmp / "out.json"), "{\"old\": true}");
    EXPECT_TRUE(temporaries_in(m_tmp.path()).empty());
}

TEST_F(FaultOutput, SummaryFailsButProfileIsWritten) {
    // The summary's name is taken by a directory: the JSON is still written and the line says
    // why the summary is missing.
    std::filesystem::create_directories(m_tmp / "out.txt");
    auto env = fake_run_env(m_tmp.path());
    env["IRF_SUMMARY"] = "file";
    const ProcessResult r = run_fault_harness(env);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const std::vector<std::string> lines = irf_lines_with(r.err, "profile written to ");
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_NE(lines[0].find("summary not written"), std::string::npos) << lines[0];
    EXPECT_EQ(read_json(m_tmp / "out.json")["coverage"]["launches"], 14);
    EXPECT_TRUE(temporaries_in(m_tmp.path()).empty());
}

// IRF_OUTPUT's .json is a FIFO nobody opened: the application exits at once and says why.
TEST_F(FaultOutput, FifoWithoutAReaderIsNotAHangAtExit) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    ASSERT_EQ(::mkfifo((m_tmp / "out.json").c_str(), 0600), 0);
    const auto start = std::chrono::steady_clock::now();
    const ProcessResult r = run_fault_harness(fake_run_env(m_tmp.path()), {}, "", 20);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10);
    expect_not_written(r, "a FIFO that nothing is reading (start its reader first)");
    EXPECT_TRUE(std::filesystem::is_fifo(m_tmp / "out.json"));
}

// The .json FIFO has a reader that never reads (its pipe shrunk to one page, less than the
// profile): the exit write gives up after 2 s without progress instead of holding the
// application forever, and the line says how much went. The .txt summary FIFO likewise.
TEST_F(FaultOutput, FifoWhoseReaderStoppedIsGivenUpAtExit) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    const std::filesystem::path fifo = m_tmp / "out.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    ASSERT_GT(::fcntl(reader, F_SETPIPE_SZ, 4096), 0);
    const auto start = std::chrono::steady_clock::now();
    const ProcessResult r = run_fault_harness(fake_run_env(m_tmp.path()), {}, "", 30);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ::close(reader);
    EXPECT_LT(seconds, 15) << "2 s without progress, with room for a loaded sanitizer build";
    expect_not_written(r, "its reader took nothing for 2 s, so irf gave up (4096 of ");
    EXPECT_TRUE(std::filesystem::is_fifo(fifo));
}

TEST_F(FaultOutput, ExistingFileIsReplacedWhole) {
    write_file(m_tmp / "out.json", std::string(100000, 'x'));
    const ProcessResult r = run_fault_harness(fake_run_env(m_tmp.path()));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(irf_lines_with(r.err, "profile written to " + (m_tmp / "out.json").string()).size(),
              1u)
        << r.err;
    EXPECT_EQ(read_json(m_tmp / "out.json")["coverage"]["launches"], 14); // parses: no tail left
    EXPECT_EQ(files_in(m_tmp.path()), (std::vector<std::string>{"out.json"}));
}

TEST_F(FaultOutput, DirectoryOfTheSameNameIsLeftAlone) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    std::filesystem::create_directories(m_tmp / "out.json" / "keep");
    const ProcessResult r = run_fault_harness(fake_run_env(m_tmp.path()));
    expect_not_written(r, (m_tmp / "out.json").string());
    EXPECT_TRUE(std::filesystem::is_directory(m_tmp / "out.json" / "keep"));
    EXPECT_TRUE(temporaries_in(m_tmp.path()).empty());
}

TEST_F(FaultOutput, TwoProcessesWithOneStemLeaveOneWholeProfile) {
    // Both write out.json at about the same time: the survivor is one complete profile.
    ProcessResult results[4];
    std::vector<std::thread> runs;
    for (ProcessResult& result : results) {
        runs.emplace_back([&] { result = run_fault_harness(fake_run_env(m_tmp.path())); });
    }
    for (std::thread& t : runs) {
        t.join();
    }
    for (const ProcessResult& r : results) {
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(irf_lines_with(r.err, "profile written to ").size(), 1u) << r.err;
    }
    EXPECT_EQ(files_in(m_tmp.path()), (std::vector<std::string>{"out.json"}));
    EXPECT_EQ(read_json(m_tmp / "out.json")["coverage"]["launches"], 14);
}

TEST_F(FaultOutput, RelativeStemFollowsTheStartDirectoryNotALaterChdir) {
    std::filesystem::create_directories(m_tmp / "start");
    std::filesystem::create_directories(m_tmp / "later");
    auto env = fake_run_env(m_tmp.path());
    env["IRF_OUTPUT"] = "out";
    const ProcessResult r =
        run_fault_harness(env, {"chdir:" + (m_tmp / "later").string()}, (m_tmp / "start").string());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(files_in(m_tmp / "start"), (std::vector<std::string>{"out.json"}));
    EXPECT_TRUE(files_in(m_tmp / "later").empty());
}

} // namespace
} // namespace test_fault_output
} // namespace irf::test

// SPDX-License-Identifier: Apache-2.0
// The tools' temporaries (common/temporaries.hpp, issue 52 item 9): a write interrupted by
// SIGINT, SIGTERM or SIGHUP, or stopped by a file-size limit, leaves no OUT.tmp.<pid>.<n>.
// Each case runs in a forked child: signal dispositions and limits are the process's.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/file_io.hpp"
#include "common/temporaries.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::common {
namespace test_temporaries {
namespace {

namespace fs = std::filesystem;

/// Runs `body` in a child and returns its wait status.
template <typename Body> int in_child(Body body) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::_Exit(body());
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return status;
}

/// A streamed write of `path` whose producer raises `sig` after its first part.
int write_interrupted(const std::string& path, int sig) {
    const std::string error = write_file_atomic_streamed(path, [sig](const EmitPart& emit) {
        emit("first part\n");
        std::raise(sig);
        emit("second part\n");
    });
    return error.empty() ? 0 : 1;
}

std::vector<std::string> entries(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) {
        out.push_back(e.path().filename().string());
    }
    return out;
}

class ToolTemporaries : public test::TempDirTest {};

TEST_F(ToolTemporaries, AnInterruptedWriteLeavesNoTemporaryAndDiesOfItsSignal) {
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
        SCOPED_TRACE(sig);
        const std::string out = (m_tmp / "out.csv").string();
        const int status = in_child([&] {
            remove_temporaries_on_signals();
            return write_interrupted(out, sig);
        });
        ASSERT_TRUE(WIFSIGNALED(status));
        EXPECT_EQ(WTERMSIG(status), sig);
        EXPECT_EQ(entries(m_tmp.path()), std::vector<std::string>{});
    }
}

TEST_F(ToolTemporaries, WithoutTheHandlersTheTemporaryIsLeft) {
    // The positive control of the row above: the same write, no handlers.
    const std::string out = (m_tmp / "out.csv").string();
    const int status = in_child([&] { return write_interrupted(out, SIGTERM); });
    ASSERT_TRUE(WIFSIGNALED(status));
    const std::vector<std::string> left = entries(m_tmp.path());
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(left[0].rfind("out.csv.tmp.", 0), 0u) << left[0];
}

/// A 64 KiB write under a 4 KiB file-size limit: 0 when it failed with "File too large".
int write_over_the_limit(const std::string& path) {
    struct rlimit small {
        4096, 4096
    };
    if (::setrlimit(RLIMIT_FSIZE, &small) != 0) {
        return 3;
    }
    const std::string error = write_file_atomic(path, std::string(64 * 1024, 'x'));
    return error.find("File too large") != std::string::npos ? 0 : 1;
}

TEST_F(ToolTemporaries, OverAFileSizeLimitTheWriteFailsAndItsTemporaryGoes) {
    const std::string out = (m_tmp / "out.html").string();
    const int status = in_child([&] {
        remove_temporaries_on_signals();
        return write_over_the_limit(out);
    });
    ASSERT_TRUE(WIFEXITED(status)) << "signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 0);
    EXPECT_EQ(entries(m_tmp.path()), std::vector<std::string>{});
    // Without the handler SIGXFSZ ends the process mid-write and the temporary stays.
    const int plain = in_child([&] { return write_over_the_limit(out); });
    ASSERT_TRUE(WIFSIGNALED(plain));
    EXPECT_EQ(WTERMSIG(plain), SIGXFSZ);
    EXPECT_EQ(entries(m_tmp.path()).size(), 1u);
}

TEST_F(ToolTemporaries, AnIgnoredSignalStaysIgnored) {
    const int status = in_child([] {
        std::signal(SIGTERM, SIG_IGN);
        remove_temporaries_on_signals();
        struct sigaction now {};
        ::sigaction(SIGTERM, nullptr, &now);
        return now.sa_handler == SIG_IGN ? 0 : 1;
    });
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

} // namespace
} // namespace test_temporaries
} // namespace irf::common

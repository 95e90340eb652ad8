// SPDX-License-Identifier: Apache-2.0
// Fault matrix, output (unit, issue #39 item 3): an existing output that is not a regular file
// is written through or refused, never replaced. Before, the atomic rename replaced a FIFO, a
// device node or a symlink with a regular file (as root, `-o /dev/full` destroyed the node).
#include <chrono>
#include <csignal>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "common/file_io.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
namespace test_file_io_special {
namespace {

namespace fs = std::filesystem;

class FileIoSpecial : public TempDirTest {};

TEST_F(FileIoSpecial, SymlinkToACharacterDeviceIsWrittenThroughAndKept) {
    fs::create_symlink("/dev/null", m_tmp / "null.json");
    EXPECT_EQ(common::write_file_atomic((m_tmp / "null.json").string(), "{}"), "");
    EXPECT_TRUE(fs::is_symlink(m_tmp / "null.json"));
    EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST_F(FileIoSpecial, FifoWithAReaderIsWrittenThroughAndStaysAFifo) {
    const fs::path fifo = m_tmp / "pipe.csv";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    EXPECT_EQ(common::write_file_atomic(fifo.string(), "a,b\n"), "");
    char buf[16] = {};
    EXPECT_EQ(::read(reader, buf, sizeof buf), 4);
    EXPECT_STREQ(buf, "a,b\n");
    ::close(reader);
    EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST_F(FileIoSpecial, FifoWithoutAReaderIsAnErrorNotAHang) {
    const fs::path fifo = m_tmp / "pipe.csv";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string error = common::write_file_atomic(fifo.string(), "x");
    EXPECT_EQ(error, "cannot write " + fifo.string() +
                         ": a FIFO that nothing is reading (start its reader first)");
    EXPECT_TRUE(fs::is_fifo(fifo));
    EXPECT_EQ(std::distance(fs::directory_iterator(m_tmp.path()), fs::directory_iterator()), 1);
}

// A reader that opened the FIFO and stopped reading: the write gives up after 2 s without
// progress instead of holding the writer (libirf's exit) forever. The pipe is shrunk to one
// page so a small content fills it.
TEST_F(FileIoSpecial, FifoWhoseReaderStoppedIsGivenUpNotAHang) {
    const fs::path fifo = m_tmp / "pipe.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    ASSERT_GT(::fcntl(reader, F_SETPIPE_SZ, 4096), 0);
    const std::string content(1 << 20, 'x');
    const auto start = std::chrono::steady_clock::now();
    const std::string error = common::write_file_atomic(fifo.string(), content);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ::close(reader);
    EXPECT_NE(error.find("its reader took nothing for 2 s, so irf gave up (4096 of 1048576 "
                         "bytes went; the rest was dropped)"),
              std::string::npos)
        << error;
    EXPECT_GE(seconds, 1.9);
    EXPECT_LT(seconds, 10); // 2 s, with room for a loaded sanitizer build
    EXPECT_TRUE(fs::is_fifo(fifo));
}

// A reader that goes away part-way: EPIPE is an error line, and the SIGPIPE the write raised
// neither kills the process (default action) nor stays pending for the application.
TEST_F(FileIoSpecial, FifoWhoseReaderWentAwayIsAnErrorNotASigpipe) {
    const fs::path fifo = m_tmp / "pipe.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    ASSERT_GT(::fcntl(reader, F_SETPIPE_SZ, 4096), 0);
    std::thread closer([&reader] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        ::close(reader);
    });
    const std::string error = common::write_file_atomic(fifo.string(), std::string(1 << 20, 'x'));
    closer.join();
    EXPECT_NE(error.find("its reader went away (4096 of 1048576 bytes went"), std::string::npos)
        << error;
    sigset_t pending;
    ASSERT_EQ(sigpending(&pending), 0);
    EXPECT_EQ(sigismember(&pending, SIGPIPE), 0) << "the write's SIGPIPE was left pending";
}

TEST_F(FileIoSpecial, OwnDescriptorNamesWriteToTheDescriptor) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const std::string name = "/proc/self/fd/" + std::to_string(fds[1]);
    EXPECT_EQ(common::write_file_atomic(name, "hello"), "");
    EXPECT_EQ(common::write_file_atomic("/dev/fd/" + std::to_string(fds[1]), "!"), "");
    char buf[16] = {};
    EXPECT_EQ(::read(fds[0], buf, sizeof buf), 6);
    EXPECT_STREQ(buf, "hello!");
    ::close(fds[0]);
    ::close(fds[1]);
}

TEST_F(FileIoSpecial, SocketIsLeftAlone) {
    // A UNIX socket node stands for a block device here: neither may be opened and replaced.
    const fs::path sock = m_tmp / "s.json";
    ASSERT_EQ(::mknod(sock.c_str(), S_IFSOCK | 0600, 0), 0);
    EXPECT_NE(common::write_file_atomic(sock.string(), "{}").find("not a regular file"),
              std::string::npos);
    EXPECT_TRUE(fs::is_socket(sock));
}

} // namespace
} // namespace test_file_io_special
} // namespace irf::test

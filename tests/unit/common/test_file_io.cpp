// SPDX-License-Identifier: Apache-2.0
// Fault matrix, output and security (unit): write_file_atomic never follows nor replaces a
// symlink planted at the final name, never follows one at a likely temporary name, honours the
// umask, leaves nothing behind when a write fails; read_file_bounded refuses files over its limit.
#include <csignal>
#include <fstream>
#include <functional>
#include <new>

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file_io.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
namespace test_file_io {
namespace {

namespace fs = std::filesystem;

/// Names an attacker could plant in a shared directory, hoping irf writes through them.
std::vector<std::string> likely_temporaries(const std::string& name) {
    const std::string pid = std::to_string(::getpid());
    return {name + ".tmp",
            name + ".tmp." + pid,
            name + "~",
            "." + name + ".tmp",
            name + ".part",
            name + ".tmp.0",
            name + ".tmp." + pid + ".0"};
}

class FaultFileIo : public TempDirTest {};

TEST_F(FaultFileIo, PlantedSymlinksAreNeverFollowed) {
    const fs::path victim = m_tmp / "victim";
    write_file(victim, "precious");
    fs::create_symlink(victim, m_tmp / "out.json");
    for (const std::string& name : likely_temporaries("out.json")) {
        fs::create_symlink(victim, m_tmp / name);
    }
    // Refused, not replaced: a link is a node the user (or the system: /dev/stdout) made.
    EXPECT_NE(common::write_file_atomic((m_tmp / "out.json").string(), "{}").find("symbolic link"),
              std::string::npos);
    EXPECT_EQ(read_file(victim), "precious");
    EXPECT_TRUE(fs::is_symlink(m_tmp / "out.json"));
    for (const std::string& name : likely_temporaries("out.json")) {
        EXPECT_TRUE(fs::is_symlink(m_tmp / name)) << name << " was touched";
    }
}

TEST_F(FaultFileIo, DanglingSymlinkToAnotherUsersFileIsNotCreatedThrough) {
    const fs::path target = m_tmp / "created-by-attacker";
    fs::create_symlink(target, m_tmp / "out.json");
    EXPECT_NE(common::write_file_atomic((m_tmp / "out.json").string(), "{}"), "");
    EXPECT_FALSE(fs::exists(target));
    EXPECT_TRUE(fs::is_symlink(m_tmp / "out.json"));
}

TEST_F(FaultFileIo, FilesGetTheUmask) {
    for (const mode_t mask : {mode_t{022}, mode_t{077}, mode_t{027}}) {
        const mode_t old = ::umask(mask);
        const fs::path path = m_tmp / ("f" + std::to_string(mask));
        const std::string error = common::write_file_atomic(path.string(), "x");
        ::umask(old);
        ASSERT_EQ(error, "");
        struct stat st {};
        ASSERT_EQ(::stat(path.c_str(), &st), 0);
        EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask) << std::oct << mask;
    }
}

// What `write` returns when files may grow to 100 bytes at most (a full disk, in effect).
std::string with_small_file_limit(const std::function<std::string()>& write) {
    struct rlimit old {};
    if (::getrlimit(RLIMIT_FSIZE, &old) != 0) {
        return "getrlimit failed";
    }
    const auto previous = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = old;
    small.rlim_cur = 100;
    const bool limited = ::setrlimit(RLIMIT_FSIZE, &small) == 0;
    const std::string result = limited ? write() : "setrlimit failed";
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, previous);
    return result;
}

std::size_t entries_in(const fs::path& dir) {
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) {
        ++entries;
    }
    return entries;
}

TEST_F(FaultFileIo, FailedWriteLeavesOldFileAndNoTemporary) {
    write_file(m_tmp / "out.json", "old");
    const std::string error = with_small_file_limit([this] {
        return common::write_file_atomic((m_tmp / "out.json").string(), std::string(5000, 'y'));
    });
    EXPECT_NE(error.find("cannot write"), std::string::npos) << error;
    EXPECT_NE(error.find("File too large"), std::string::npos) << error;
    EXPECT_EQ(read_file(m_tmp / "out.json"), "old");
    EXPECT_EQ(entries_in(m_tmp.path()), 1u);
}

// write_file_atomic_streamed: the parts in order make the file; a part that cannot be written
// stops the parts (none made after it) and, like a producer that throws, leaves the old file
// and no temporary.
TEST_F(FaultFileIo, StreamedWriteJoinsPartsAndFailsWhole) {
    const std::string path = (m_tmp / "out.json").string();
    const auto three_parts = [](const common::EmitPart& emit) {
        emit("{\"a\": ");
        emit("1");
        emit("}\n");
    };
    EXPECT_EQ(common::write_file_atomic_streamed(path, three_parts), "");
    EXPECT_EQ(read_file(m_tmp / "out.json"), "{\"a\": 1}\n");
    const std::string thrown =
        common::write_file_atomic_streamed(path, [](const common::EmitPart& emit) {
            emit("partial");
            throw std::bad_alloc();
        });
    EXPECT_NE(thrown.find("cannot write"), std::string::npos) << thrown;
    int parts_made = 0;
    const std::string too_big = with_small_file_limit([&] {
        return common::write_file_atomic_streamed(path,
                                                  [&parts_made](const common::EmitPart& emit) {
                                                      for (int i = 0; i < 10; ++i, ++parts_made) {
                                                          emit(std::string(60, 'y'));
                                                      }
                                                  });
    });
    EXPECT_NE(too_big.find("File too large"), std::string::npos) << too_big;
    EXPECT_EQ(parts_made, 1); // the second part failed: nothing was made after it
    EXPECT_EQ(read_file(m_tmp / "out.json"), "{\"a\": 1}\n");
    EXPECT_EQ(entries_in(m_tmp.path()), 1u);
}

TEST_F(FaultFileIo, BoundedReadRefusesLargeFilesAndDirectories) {
    {
        std::ofstream f(m_tmp / "big");
        f << std::string(10000, 'a');
    }
    std::string out;
    const std::string error = common::read_file_bounded((m_tmp / "big").string(), out, 4096);
    EXPECT_NE(error.find("larger than 4 KiB"), std::string::npos) << error; // 4096 bytes
    EXPECT_LE(out.size(), 4096u + 65536u); // at most one read past the limit was buffered
    EXPECT_NE(common::read_file_bounded(m_tmp.path().string(), out).find("is a directory"),
              std::string::npos);
    EXPECT_NE(common::read_file_bounded((m_tmp / "none").string(), out).find("cannot open"),
              std::string::npos);
}

TEST_F(FaultFileIo, BoundedReadGivesTheWholeFileExactly) {
    // Sizes around the 64 KiB chunk, and an empty file: the content comes back byte for byte
    // whether it is read into the presized buffer or past it.
    for (const std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{65536},
                                   std::size_t{65537}, std::size_t{200001}}) {
        std::string text(size, '\0');
        for (std::size_t i = 0; i < size; ++i) {
            text[i] = static_cast<char>('a' + i % 26);
        }
        {
            std::ofstream f(m_tmp / "exact", std::ios::binary);
            f << text;
        }
        std::string out = "left over";
        EXPECT_EQ(common::read_file_bounded((m_tmp / "exact").string(), out), "") << size;
        EXPECT_EQ(out, text) << size;
    }
    std::string out;
    EXPECT_EQ(common::read_file_bounded("/proc/self/status", out), ""); // st_size 0, has text
    EXPECT_NE(out.find("Name:"), std::string::npos);
}

} // namespace
} // namespace test_file_io
} // namespace irf::test

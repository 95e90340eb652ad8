// SPDX-License-Identifier: Apache-2.0
// common/log: an error line says "error:" after the "[irf] " prefix (tests/support/run_process
// fails a test on such a line), other levels do not, and no prefix is written twice.
#include <cstdio>

#include <gtest/gtest.h>
#include <unistd.h>

#include "common/log.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
namespace {

/// What log_line(level, message) writes to stderr, captured through a temporary file.
std::string logged(common::LogLevel level, const std::string& message) {
    TempDir dir;
    const std::string path = (dir / "stderr.txt").string();
    std::FILE* file = std::fopen(path.c_str(), "w");
    const int saved = ::dup(STDERR_FILENO);
    ::dup2(::fileno(file), STDERR_FILENO);
    common::set_log_level(common::LogLevel::debug);
    common::log_line(level, message);
    common::set_log_level(common::LogLevel::warn);
    ::dup2(saved, STDERR_FILENO);
    ::close(saved);
    std::fclose(file);
    return read_file(path);
}

TEST(Log, ErrorLinesSayError) {
    using common::LogLevel;
    EXPECT_EQ(logged(LogLevel::error, "profile not written: disk full"),
              "[irf] error: profile not written: disk full\n");
    EXPECT_EQ(logged(LogLevel::error, "[irf] IRF_SAMPLES=x: bad"),
              "[irf] error: IRF_SAMPLES=x: bad\n");
    EXPECT_EQ(logged(LogLevel::error, "error: already tagged"), "[irf] error: already tagged\n");
    EXPECT_EQ(logged(LogLevel::warn, "a warning"), "[irf] a warning\n");
    EXPECT_EQ(logged(LogLevel::info, "[irf] info line"), "[irf] info line\n");
}

} // namespace
} // namespace irf::test

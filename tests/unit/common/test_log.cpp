// SPDX-License-Identifier: Apache-2.0
// common/log: an error line says "error:" after the "[irf] " prefix (tests/support/run_process
// fails a test on such a line), other levels do not, and no prefix is written twice.
#include <cstdio>

#include <gtest/gtest.h>
#include <unistd.h>

#include "common/log.hpp"
#include "common/repeats.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
namespace test_log {
namespace {

/// What `write` logs to stderr, captured through a temporary file.
template <typename F> std::string captured(F write) {
    TempDir dir;
    const std::string path = (dir / "stderr.txt").string();
    std::FILE* file = std::fopen(path.c_str(), "w");
    const int saved = ::dup(STDERR_FILENO);
    ::dup2(::fileno(file), STDERR_FILENO);
    write();
    ::dup2(saved, STDERR_FILENO);
    ::close(saved);
    std::fclose(file);
    return read_file(path);
}

/// What log_line(level, message) writes to stderr.
std::string logged(common::LogLevel level, const std::string& message) {
    return captured([&] {
        common::set_log_level(common::LogLevel::debug);
        common::log_line(level, message);
        common::set_log_level(common::LogLevel::warn);
    });
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

TEST(Log, IdenticalWarningsAreWrittenOnceAndCountedAtTheEnd) {
    using common::LogLevel;
    common::log_repeats(); // forget what earlier tests logged
    const std::string during = captured([] {
        for (int i = 0; i < 12; ++i) {
            common::log_line(LogLevel::warn, "kernel k: counters refused");
        }
        common::log_line(LogLevel::warn, "other");
        common::log_line(LogLevel::error, "disk full");
        common::log_line(LogLevel::error, "disk full");
    });
    // The first of each is written when it comes (its time matters in a batch log).
    EXPECT_EQ(during, "[irf] kernel k: counters refused\n[irf] other\n[irf] error: disk full\n");
    const std::string at_exit = captured([] { common::log_repeats(); });
    EXPECT_EQ(at_exit, "[irf] kernel k: counters refused (x12)\n[irf] error: disk full (x2)\n");
    // Counted afresh after the summary: the next one is written again.
    const std::string after = captured([] {
        common::log_line(LogLevel::warn, "other");
        common::log_repeats();
    });
    EXPECT_EQ(after, "[irf] other\n");
}

TEST(Log, RepeatsAreCountedInOrderFirstSeen) {
    const auto folded = common::count_repeats({"b", "a", "b", "b", "c"});
    ASSERT_EQ(folded.size(), 3u);
    EXPECT_EQ(folded[0], (std::pair<std::string, std::size_t>{"b", 3}));
    EXPECT_EQ(folded[1], (std::pair<std::string, std::size_t>{"a", 1}));
    EXPECT_EQ(common::repeat_suffix(3), " (x3)");
    EXPECT_EQ(common::repeat_suffix(1), "");
}

TEST(Log, RepeatCounterKeepsAtMostItsCapacityAndEmptiesOnTake) {
    common::RepeatCounter counter(2);
    EXPECT_FALSE(counter.add("a"));
    EXPECT_FALSE(counter.add("b"));
    EXPECT_FALSE(counter.add("c")); // beyond the capacity: not counted, so never "seen"
    EXPECT_FALSE(counter.add("c"));
    EXPECT_TRUE(counter.add("a"));
    const auto counted = counter.take();
    ASSERT_EQ(counted.size(), 2u);
    EXPECT_EQ(counted[0], (std::pair<std::string, std::size_t>{"a", 2}));
    EXPECT_EQ(counted[1], (std::pair<std::string, std::size_t>{"b", 1}));
    EXPECT_TRUE(counter.take().empty());
    EXPECT_FALSE(counter.add("a")); // a fresh start after take
}

} // namespace
} // namespace test_log
} // namespace irf::test

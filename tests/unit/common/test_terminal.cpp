// SPDX-License-Identifier: Apache-2.0
// How wide the kernel table may be (issue 53 item 10): $COLUMNS when a whole number, else the
// terminal's width, else no limit (a file or a pipe).
#include <unistd.h>

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "common/terminal.hpp"

namespace irf::common {
namespace test_terminal {
namespace {

/// Sets COLUMNS for one test and restores the environment after it.
class Columns {
public:
    explicit Columns(const char* value) {
        if (const char* old = std::getenv("COLUMNS")) {
            m_old = old;
            m_had = true;
        }
        if (value != nullptr) {
            ::setenv("COLUMNS", value, 1);
        } else {
            ::unsetenv("COLUMNS");
        }
    }
    ~Columns() {
        if (m_had) {
            ::setenv("COLUMNS", m_old.c_str(), 1);
        } else {
            ::unsetenv("COLUMNS");
        }
    }
    Columns(const Columns&) = delete;
    Columns& operator=(const Columns&) = delete;

private:
    std::string m_old;
    bool m_had = false;
};

/// A pipe's write end: never a terminal.
struct Pipe {
    int fds[2] = {-1, -1};
    Pipe() { EXPECT_EQ(::pipe(fds), 0); }
    ~Pipe() {
        ::close(fds[0]);
        ::close(fds[1]);
    }
};

TEST(Terminal, ColumnsGivesTheWidthEvenForAPipe) {
    const Columns columns("100");
    const Pipe pipe;
    EXPECT_EQ(terminal_columns(pipe.fds[1]), 100u);
}

TEST(Terminal, ZeroColumnsMeansNoLimit) {
    const Columns columns("0");
    const Pipe pipe;
    EXPECT_EQ(terminal_columns(pipe.fds[1]), 0u);
}

TEST(Terminal, ColumnsThatIsNoWholeNumberIsIgnored) {
    const Pipe pipe;
    for (const char* bad : {"wide", "-80", "80x", "1234567", ""}) {
        const Columns columns(bad);
        EXPECT_EQ(terminal_columns(pipe.fds[1]), 0u) << bad; // a pipe has no width
    }
}

TEST(Terminal, APipeWithoutColumnsHasNoLimit) {
    const Columns columns(nullptr);
    const Pipe pipe;
    EXPECT_EQ(terminal_columns(pipe.fds[1]), 0u);
}

} // namespace
} // namespace test_terminal
} // namespace irf::common

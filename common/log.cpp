// SPDX-License-Identifier: Apache-2.0
// irf's stderr log.
#include "common/log.hpp"

#include <atomic>

#include <unistd.h>

#include "common/text_safety.hpp"

namespace irf::common {
namespace {

std::atomic<int> s_level{static_cast<int>(LogLevel::warn)};

} // namespace

void set_log_level(LogLevel level) noexcept {
    s_level.store(static_cast<int>(level), std::memory_order_relaxed);
}

bool log_enabled(LogLevel level) noexcept {
    return static_cast<int>(level) <= s_level.load(std::memory_order_relaxed);
}

void log_line(LogLevel level, const std::string& message) noexcept {
    if (!log_enabled(level)) {
        return;
    }
    try {
        // One write(2) per line so lines of concurrent processes (MPI ranks) do not interleave.
        // The message quotes names and IRF_* values: escaped, so a line break or an escape
        // sequence in them can neither forge an "[irf]" line nor drive the terminal.
        const std::string body = message.rfind("[irf] ", 0) == 0 ? message.substr(6) : message;
        // Error lines say so ("[irf] error: ..."), so a reader (and tests/support/run_process)
        // tells a failure from a warning without knowing every message.
        const bool tag = level == LogLevel::error && body.rfind("error: ", 0) != 0;
        std::string line = std::string("[irf] ") + (tag ? "error: " : "") + printable(body);
        line += '\n';
        const char* data = line.data();
        std::size_t left = line.size();
        while (left > 0) {
            const ssize_t n = ::write(STDERR_FILENO, data, left);
            if (n <= 0) {
                return;
            }
            data += n;
            left -= static_cast<std::size_t>(n);
        }
    } catch (...) { // allocation failure: drop the line rather than disturb the application
    }
}

} // namespace irf::common

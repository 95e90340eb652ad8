// SPDX-License-Identifier: Apache-2.0
// irf's stderr log.
#include "common/log.hpp"

#include <atomic>
#include <mutex>
#include <vector>

#include <unistd.h>

#include "common/repeats.hpp"
#include "common/text_safety.hpp"

namespace irf::common {
namespace {

std::atomic<int> s_level{static_cast<int>(LogLevel::warn)};

/// Warnings and errors written so far (escaped line -> times it came), in the order first seen.
/// Bounded, so a stream of distinct messages cannot grow it without end: beyond the bound they
/// are written every time.
constexpr std::size_t k_max_folded = 1024;
struct Repeats {
    std::mutex mutex;
    RepeatCounter lines{k_max_folded};
};

Repeats& repeats() {
    static Repeats* r = new Repeats; // never destroyed: log lines may come after static teardown
    return *r;
}

/// True when `line` was written before (now counted); false when it is to be written. A lock
/// held elsewhere (another thread, or a fork child of a process that held it) never blocks: the
/// line is then simply written.
bool seen_before(const std::string& line) {
    Repeats& r = repeats();
    const std::unique_lock<std::mutex> lock(r.mutex, std::try_to_lock);
    if (!lock.owns_lock()) {
        return false;
    }
    return r.lines.add(line);
}

void write_line(const std::string& line) noexcept {
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
}

} // namespace

void set_log_level(LogLevel level) noexcept {
    s_level.store(static_cast<int>(level), std::memory_order_relaxed);
}

void mute_log() noexcept {
    s_level.store(-1, std::memory_order_relaxed); // below every level
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
        const std::string line = std::string("[irf] ") + (tag ? "error: " : "") + printable(body);
        // The first of identical warnings is written when it comes (its time matters in a batch
        // log); the repeats are counted and log_repeats gives the count at exit.
        if (level <= LogLevel::warn && seen_before(line)) {
            return;
        }
        write_line(line + '\n');
    } catch (...) { // allocation failure: drop the line rather than disturb the application
    }
}

void log_repeats() noexcept {
    try {
        Repeats& r = repeats();
        std::vector<std::pair<std::string, std::size_t>> lines;
        {
            const std::unique_lock<std::mutex> lock(r.mutex, std::try_to_lock);
            if (!lock.owns_lock()) {
                return;
            }
            lines = r.lines.take();
        }
        for (const auto& [line, times] : lines) {
            if (times > 1) {
                write_line(line + repeat_suffix(times) + '\n');
            }
        }
    } catch (...) {
    }
}

} // namespace irf::common

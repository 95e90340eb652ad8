// SPDX-License-Identifier: Apache-2.0
#include "common/file_io.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <functional>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/temporaries.hpp"

namespace irf::common {
namespace {

std::string errno_text(const std::string& what, const std::string& path) {
    return what + " " + path + ": " + std::strerror(errno);
}

/// A size limit as people write it: "1 GiB", "4 MiB", "4096 bytes".
std::string size_limit_text(std::size_t bytes) {
    for (const auto& [unit, size] : {std::pair<const char*, std::size_t>{"GiB", 1u << 30},
                                     {"MiB", 1u << 20},
                                     {"KiB", 1u << 10}}) {
        if (bytes >= size && bytes % size == 0) {
            return std::to_string(bytes / size) + " " + unit;
        }
    }
    return std::to_string(bytes) + " bytes";
}

/// Writes all bytes, retrying on EINTR and short writes.
bool write_all(int fd, std::string_view content) {
    const char* p = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    return true;
}

/// Temporary file + rename(2): `path` keeps its old content or gets the new one, whole.
/// `write_content(fd)` writes it all, false (errno set) when it could not.
std::string replace_atomically(const std::string& path,
                               const std::function<bool(int)>& write_content,
                               void (*on_temporary)(const char*)) {
    const auto tell = [on_temporary](const char* name) { tell_temporary(on_temporary, name); };
    try {
        const std::string tmp = temporary_name(path);
        // O_EXCL|O_NOFOLLOW: never write through a link someone planted under our name.
        const int fd =
            ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0) {
            return errno_text("cannot create", tmp);
        }
        tell(tmp.c_str());
        const bool written = write_content(fd) && ::fsync(fd) == 0;
        const std::string write_error = written ? "" : errno_text("cannot write", tmp);
        if (::close(fd) != 0 && written) {
            const std::string reason = errno_text("cannot close", tmp);
            ::unlink(tmp.c_str());
            tell(nullptr);
            return reason;
        }
        if (!written) {
            ::unlink(tmp.c_str());
            tell(nullptr);
            return write_error;
        }
        if (::rename(tmp.c_str(), path.c_str()) != 0) {
            const std::string reason = errno_text("cannot rename to", path);
            ::unlink(tmp.c_str());
            tell(nullptr);
            return reason;
        }
        tell(nullptr);
        return "";
    } catch (...) {
        return "cannot write " + path + ": out of memory";
    }
}

/// The descriptor that `path` names when it is one of the process's own (/dev/stdout,
/// /dev/stderr, /dev/fd/N, /proc/self/fd/N), else -1. Writing there goes to whatever the shell
/// redirected it to, at its current offset, as `> file` or `| less` expect.
int own_descriptor(const std::string& path) {
    if (path == "/dev/stdout") {
        return STDOUT_FILENO;
    }
    if (path == "/dev/stderr") {
        return STDERR_FILENO;
    }
    for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        const std::size_t n = std::strlen(prefix);
        if (path.size() > n && path.size() <= n + 6 && path.compare(0, n, prefix) == 0 &&
            path.find_first_not_of("0123456789", n) == std::string::npos) {
            return std::stoi(path.substr(n));
        }
    }
    return -1;
}

// A reader that stopped reading (or a terminal on hold) never holds the application at exit:
// the write gives up when the reader takes nothing for this long, or when it lasts this long in
// all (docs/reliability.md, "output").
constexpr auto k_stall_limit = std::chrono::seconds(2);
constexpr auto k_write_limit = std::chrono::seconds(30);

/// Blocks SIGPIPE in the calling thread while it lives: a reader that goes away makes write(2)
/// fail with EPIPE instead of killing the process. A SIGPIPE this write raised is taken back;
/// one that was already pending (the application's own) is left for the application.
class SigpipeHold {
public:
    SigpipeHold() {
        sigset_t pipe_only;
        sigemptyset(&pipe_only);
        sigaddset(&pipe_only, SIGPIPE);
        sigset_t pending;
        m_was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
        m_held = pthread_sigmask(SIG_BLOCK, &pipe_only, &m_old) == 0;
    }
    SigpipeHold(const SigpipeHold&) = delete;
    SigpipeHold& operator=(const SigpipeHold&) = delete;
    ~SigpipeHold() {
        if (!m_held) {
            return;
        }
        if (m_raised && !m_was_pending) {
            sigset_t pipe_only;
            sigemptyset(&pipe_only);
            sigaddset(&pipe_only, SIGPIPE);
            const timespec now{0, 0};
            while (sigtimedwait(&pipe_only, nullptr, &now) < 0 && errno == EINTR) {
            }
        }
        pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
    }
    /// Called after an EPIPE: this write raised a SIGPIPE.
    void raised() { m_raised = true; }

private:
    sigset_t m_old{};
    bool m_held = false;
    bool m_was_pending = false;
    bool m_raised = false;
};

/// Why a write into a FIFO or device stopped short: "" when all of `content` went.
std::string write_bounded(int fd, const std::string& path, const std::string& content) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    auto last_progress = start;
    SigpipeHold hold;
    std::size_t done = 0;
    const auto shortfall = [&](const std::string& why) {
        return "cannot write " + path + ": " + why + " (" + std::to_string(done) + " of " +
               std::to_string(content.size()) + " bytes went; the rest was dropped)";
    };
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n > 0) {
            done += static_cast<std::size_t>(n);
            last_progress = Clock::now();
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && errno == EPIPE) {
            hold.raised();
            return shortfall("its reader went away");
        }
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            return errno_text("cannot write", path);
        }
        const auto now = Clock::now();
        if (now - last_progress >= k_stall_limit) {
            return shortfall("its reader took nothing for " +
                             std::to_string(k_stall_limit.count()) + " s, so irf gave up");
        }
        if (now - start >= k_write_limit) {
            return shortfall("writing took more than " + std::to_string(k_write_limit.count()) +
                             " s, so irf gave up");
        }
        const auto wait =
            std::min(k_stall_limit - (now - last_progress), k_write_limit - (now - start));
        pollfd p{fd, POLLOUT, 0};
        ::poll(&p, 1,
               static_cast<int>(
                   std::chrono::duration_cast<std::chrono::milliseconds>(wait).count() + 1));
    }
    return "";
}

/// Writes `content` into the existing FIFO or character device `path` (/dev/null, a terminal,
/// a named pipe). Opened non-blocking and written with bounded waits, so a FIFO without a
/// reader, a reader that stopped reading and a reader that went away are errors, never a hang
/// or a SIGPIPE.
std::string write_through(const std::string& path, const std::string& content) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 && errno == ENXIO) {
        return "cannot write " + path + ": a FIFO that nothing is reading (start its reader first)";
    }
    if (fd < 0) {
        return errno_text("cannot open", path);
    }
    const std::string reason = write_bounded(fd, path, content);
    ::close(fd);
    return reason;
}

/// What to do with an existing non-regular `path` (DESIGN.md section 7: never replace it):
/// "" = replace atomically (absent, regular file, directory: rename reports it), "through" =
/// write into it, otherwise the one-line refusal.
std::string special_target(const std::string& path) {
    struct stat link {};
    if (::lstat(path.c_str(), &link) != 0 || S_ISREG(link.st_mode) || S_ISDIR(link.st_mode)) {
        return "";
    }
    struct stat target {};
    const bool resolved = ::stat(path.c_str(), &target) == 0;
    if (resolved && (S_ISCHR(target.st_mode) || S_ISFIFO(target.st_mode))) {
        return "through";
    }
    if (S_ISLNK(link.st_mode)) {
        return "cannot write " + path +
               ": it is a symbolic link; not replaced and not followed (name its target)";
    }
    return "cannot write " + path + ": not a regular file (a socket or block device); left alone";
}

} // namespace

std::string write_file_atomic(const std::string& path, const std::string& content,
                              void (*on_temporary)(const char*)) noexcept {
    try {
        const int fd = own_descriptor(path);
        if (fd >= 0) {
            return write_all(fd, content) ? "" : errno_text("cannot write", path);
        }
        const std::string special = special_target(path);
        if (special == "through") {
            return write_through(path, content);
        }
        if (!special.empty()) {
            return special;
        }
        return replace_atomically(
            path, [&content](int into) { return write_all(into, content); }, on_temporary);
    } catch (...) {
        return "cannot write " + path + ": out of memory";
    }
}

std::string write_file_atomic_streamed(const std::string& path,
                                       const std::function<void(const EmitPart&)>& produce,
                                       void (*on_temporary)(const char*)) noexcept {
    try {
        if (own_descriptor(path) >= 0 || !special_target(path).empty()) {
            // A descriptor, FIFO or device (or a refusal): the parts joined, written as before.
            std::string content;
            produce([&content](std::string_view part) { content.append(part); });
            return write_file_atomic(path, content, on_temporary);
        }
        struct Stopped {}; // a part could not be written: the rest is not made
        const auto write_parts = [&produce](int into) {
            int failure = 0;
            try {
                produce([into, &failure](std::string_view part) {
                    if (!write_all(into, part)) {
                        failure = errno;
                        throw Stopped{};
                    }
                });
            } catch (const Stopped&) {
                errno = failure;
                return false;
            } catch (...) {
                errno = ENOMEM;
                return false;
            }
            return true;
        };
        return replace_atomically(path, write_parts, on_temporary);
    } catch (...) {
        return "cannot write " + path + ": out of memory";
    }
}

namespace {

// Asks the kernel to back a large buffer with huge pages where it allows them (transparent huge
// pages in "madvise" mode): a 300 MB profile is otherwise 75,000 page faults before a byte is
// read. Advice only: nothing changes where it is refused.
void ask_for_huge_pages(char* data, std::size_t size) noexcept {
    constexpr std::size_t k_huge = std::size_t{2} << 20;
    if (size < 8 * k_huge) {
        return;
    }
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + k_huge - 1) & ~(k_huge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + size) & ~(k_huge - 1);
    if (end > begin) {
        (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    }
}

} // namespace

std::string read_file_bounded(const std::string& path, std::string& out,
                              std::size_t max_bytes) noexcept {
    try {
        // O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer, forever; a
        // device (a tape, a terminal) may block too. Input is refused unless it is a regular
        // file, so the flag never changes how the read below behaves.
        const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) {
            return errno_text("cannot open", path);
        }
        struct stat st {};
        if (::fstat(fd, &st) != 0) {
            const std::string reason = errno_text("cannot read", path);
            ::close(fd);
            return reason;
        }
        if (S_ISDIR(st.st_mode)) {
            ::close(fd);
            return "cannot read " + path + ": is a directory";
        }
        if (!S_ISREG(st.st_mode)) {
            ::close(fd);
            return "cannot read " + path + ": not a regular file (a FIFO, socket or device)";
        }
        // Refuse an oversized file before reading any of it (the loop below still bounds a file
        // that grows while it is read).
        if (static_cast<std::size_t>(st.st_size) > max_bytes) {
            ::close(fd);
            return "cannot read " + path + ": larger than " + size_limit_text(max_bytes);
        }
        // Read straight into a buffer of the file's size: growing the string while appending
        // copied a 300 MB profile about twice and took 15% of `analyze` (docs/performance.md).
        out.clear();
        out.reserve(static_cast<std::size_t>(st.st_size));
        ask_for_huge_pages(out.data(), out.capacity());
        out.resize(static_cast<std::size_t>(st.st_size));
        std::size_t filled = 0;
        char buf[65536];
        for (;;) {
            char* into = filled < out.size() ? out.data() + filled : buf;
            const std::size_t room = filled < out.size() ? out.size() - filled : sizeof buf;
            const ssize_t n = ::read(fd, into, room);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0) {
                const std::string reason = errno_text("cannot read", path);
                ::close(fd);
                return reason;
            }
            if (n == 0) {
                break;
            }
            if (filled + static_cast<std::size_t>(n) > max_bytes) {
                ::close(fd);
                return "cannot read " + path + ": larger than " + size_limit_text(max_bytes);
            }
            if (into == buf) { // the file grew while it was read
                out.append(buf, static_cast<std::size_t>(n));
            }
            filled += static_cast<std::size_t>(n);
        }
        out.resize(filled); // a file that shrank while it was read
        ::close(fd);
        return "";
    } catch (...) {
        return "cannot read " + path + ": out of memory";
    }
}

} // namespace irf::common

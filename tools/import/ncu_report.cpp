// SPDX-License-Identifier: Apache-2.0
// .ncu-rep through `ncu --import` (docs/import.md, "Nsight Compute reports").
#include "tools/import/ncu_report.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <istream>
#include <sstream>
#include <streambuf>
#include <vector>

#include "tools/import/import_error.hpp"
#include "tools/import/read_export.hpp"

extern char** environ; // NOLINT: POSIX declares it nowhere else

namespace irf::import {
namespace {

std::string how_to_export(const std::string& path) {
    return "export it with `ncu --import " + path +
           " --csv --page raw > report.csv` and import "
           "the CSV";
}

// The first "ncu" in PATH that is an executable regular file, or "" (a directory named ncu, as
// an unpacked Nsight Compute has, is skipped).
std::string find_ncu() {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const std::string candidate = (dir.empty() ? "." : dir) + "/ncu";
        struct stat st {};
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
            ::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
    }
    return {};
}

/// ncu running, its standard output read as a stream as it comes: the export is never held
/// whole (one over 2 GiB was cut silently when it was), and ncu gets `limit_s` seconds in all.
/// Ending early (an error in the export, the limit) kills ncu; it is always waited for.
class NcuOutput : public std::streambuf {
public:
    NcuOutput(const std::string& ncu, const std::string& report, double limit_s)
        : m_report(report), m_limit_s(limit_s),
          m_deadline(std::chrono::steady_clock::now() +
                     std::chrono::milliseconds(static_cast<long long>(limit_s * 1000))) {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0) {
            return;
        }
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
        // --import=PATH: a report named like an option ("-x.ncu-rep") stays the report.
        std::string import = "--import=" + report;
        std::vector<std::string> args = {ncu, import, "--csv", "--page", "raw"};
        std::vector<char*> argv;
        for (std::string& a : args) {
            argv.push_back(a.data());
        }
        argv.push_back(nullptr);
        const int spawned =
            posix_spawn(&m_pid, ncu.c_str(), &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        ::close(fds[1]);
        if (spawned != 0) {
            ::close(fds[0]);
            m_pid = -1;
            return;
        }
        m_fd = fds[0];
    }

    ~NcuOutput() override { end(true); }
    NcuOutput(const NcuOutput&) = delete;
    NcuOutput& operator=(const NcuOutput&) = delete;

    /// True when ncu started.
    [[nodiscard]] bool started() const { return m_pid > 0; }

    /// Waits for ncu to end; its exit status (-1 when a signal ended it).
    int finish() { return end(false); }

    /// True once its output ended (ncu closed it, so it is done or about to be).
    [[nodiscard]] bool at_end() const { return m_at_end; }

protected:
    int_type underflow() override {
        while (true) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                m_deadline - std::chrono::steady_clock::now());
            pollfd p{m_fd, POLLIN, 0};
            const int ready =
                left.count() > 0
                    ? ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1 << 30)))
                    : 0;
            if (ready < 0 && errno == EINTR) {
                continue;
            }
            if (ready == 0) {
                end(true);
                throw ImportError(
                    m_report, 0, 0,
                    "`ncu --import` took longer than " + seconds(m_limit_s) +
                        " s and was stopped (--ncu-timeout): " + how_to_export(m_report));
            }
            const ssize_t n = ::read(m_fd, m_buffer.data(), m_buffer.size());
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                m_at_end = true;
                return traits_type::eof();
            }
            setg(m_buffer.data(), m_buffer.data(), m_buffer.data() + n);
            return traits_type::to_int_type(m_buffer[0]);
        }
    }

private:
    static std::string seconds(double s) {
        std::ostringstream out;
        out << s;
        return out.str();
    }

    int end(bool kill) {
        if (m_fd >= 0) {
            ::close(m_fd);
            m_fd = -1;
        }
        if (m_pid <= 0) {
            return -1;
        }
        if (kill) {
            ::kill(m_pid, SIGKILL);
        }
        int status = 0;
        while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
        m_pid = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

    std::string m_report;
    double m_limit_s;
    std::chrono::steady_clock::time_point m_deadline;
    pid_t m_pid = -1;
    int m_fd = -1;
    bool m_at_end = false;
    std::vector<char> m_buffer = std::vector<char>(1 << 16);
};

} // namespace

bool is_ncu_report(const std::string& path) {
    const std::string suffix = ".ncu-rep";
    return path.size() > suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

ImportedFile read_ncu_report(const std::string& path, double limit_s) {
    const std::string ncu = find_ncu();
    if (ncu.empty()) {
        throw ImportError(
            path, 0, 0, "an Nsight Compute report and ncu is not on PATH: " + how_to_export(path));
    }
    NcuOutput output(ncu, path, limit_s);
    if (!output.started()) {
        throw ImportError(path, 0, 0, "cannot run " + ncu + ": " + how_to_export(path));
    }
    std::istream in(&output);
    in.exceptions(std::ios::badbit); // the time limit's error, thrown by the stream, goes on
    ImportedFile file;
    try {
        file = read_export(in, path);
    } catch (const ImportError&) {
        // ncu's own failure says more than the empty or cut output it left; an error in the
        // middle of its output (or the time limit) is the reader's, and ncu is stopped.
        if (const int status = output.at_end() ? output.finish() : 0; status != 0) {
            throw ImportError(path, 0, 0,
                              "`" + ncu + " --import` failed (exit " + std::to_string(status) +
                                  "): " + how_to_export(path));
        }
        throw;
    }
    if (const int status = output.finish(); status != 0) {
        throw ImportError(path, 0, 0,
                          "`" + ncu + " --import` failed (exit " + std::to_string(status) +
                              "): " + how_to_export(path));
    }
    file.format += " (ncu --import)";
    return file;
}

} // namespace irf::import

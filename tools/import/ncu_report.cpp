// SPDX-License-Identifier: Apache-2.0
// .ncu-rep through `ncu --import` (docs/import.md, "Nsight Compute reports").
#include "tools/import/ncu_report.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "tools/import/import_error.hpp"
#include "tools/import/read_export.hpp"

extern char** environ; // NOLINT: POSIX declares it nowhere else

namespace irf::import {
namespace {

constexpr std::size_t k_max_export_bytes = std::size_t{2} << 30;

std::string how_to_export(const std::string& path) {
    return "export it with `ncu --import " + path +
           " --csv --page raw > report.csv` and import "
           "the CSV";
}

// The first executable "ncu" in PATH, or "".
std::string find_ncu() {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const std::string candidate = (dir.empty() ? "." : dir) + "/ncu";
        if (::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
    }
    return {};
}

// Runs `ncu` with `args`, its standard output into `out`; returns its exit status (-1: did
// not start).
int run_capture(const std::string& ncu, std::vector<std::string> args, std::string& out) {
    int fds[2];
    if (::pipe(fds) != 0) {
        return -1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(ncu.c_str()));
    for (std::string& a : args) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, ncu.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (spawned != 0) {
        ::close(fds[0]);
        return -1;
    }
    char buffer[1 << 16];
    ssize_t n = 0;
    while ((n = ::read(fds[0], buffer, sizeof buffer)) > 0 && out.size() < k_max_export_bytes) {
        out.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

bool is_ncu_report(const std::string& path) {
    const std::string suffix = ".ncu-rep";
    return path.size() > suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

ImportedFile read_ncu_report(const std::string& path) {
    const std::string ncu = find_ncu();
    if (ncu.empty()) {
        throw ImportError(
            path, 0, 0, "an Nsight Compute report and ncu is not on PATH: " + how_to_export(path));
    }
    std::string csv;
    const int status = run_capture(ncu, {"--import", path, "--csv", "--page", "raw"}, csv);
    if (status != 0) {
        throw ImportError(path, 0, 0,
                          "`" + ncu + " --import` failed (exit " + std::to_string(status) +
                              "): " + how_to_export(path));
    }
    std::istringstream in(csv);
    ImportedFile file = read_export(in, path);
    file.format += " (ncu --import)";
    return file;
}

} // namespace irf::import

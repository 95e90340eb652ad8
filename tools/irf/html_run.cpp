// SPDX-License-Identifier: Apache-2.0
// `irf run --html` (html_run.hpp).
#include "tools/irf/html_run.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "common/text_safety.hpp"

extern char** environ;

namespace irf::launcher {
namespace {

volatile sig_atomic_t s_child = 0;

/// SIGTERM or SIGHUP sent to irf (a batch system ending the job) goes to the application too.
extern "C" void pass_on(int signal) {
    if (s_child > 0) {
        kill(static_cast<pid_t>(s_child), signal);
    }
}

/// In the child: the profile path with its own pid (libirf expands %p in the application's
/// process), sent to irf through `fd`; then exec. Never returns.
[[noreturn]] void exec_child(const RunOptions& options, const std::string& library, int fd) {
    try {
        const std::string profile = check_before_exec(options, library);
        std::cerr << "irf: profile will go to " << common::printable(profile) << "\n";
        [[maybe_unused]] const ssize_t n = write(fd, profile.data(), profile.size());
        for (const auto& [name, value] : build_environment(options, library)) {
            setenv(name.c_str(), value.c_str(), 1);
        }
    } catch (const std::exception& e) {
        std::cerr << "irf: error: " << common::printable(e.what()) << "\n";
        _exit(2);
    }
    _exit(exec_application(options.command));
}

/// Waits for `pid` while the terminal's Ctrl-C and Ctrl-\ go to the application only.
int wait_for(pid_t pid) {
    struct sigaction ignore {
    }, forward{}, old_int{}, old_quit{}, old_term{}, old_hup{};
    ignore.sa_handler = SIG_IGN;
    forward.sa_handler = pass_on;
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    sigaction(SIGTERM, &forward, &old_term);
    sigaction(SIGHUP, &forward, &old_hup);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    sigaction(SIGHUP, &old_hup, nullptr);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// report_bin html PROFILE -o PAGE; its exit status (-errno when it could not start).
int write_page(const std::string& report_bin, const std::string& profile, const std::string& page) {
    std::vector<std::string> args = {report_bin, "html", profile, "-o", page};
    std::vector<char*> argv;
    for (auto& s : args) {
        argv.push_back(s.data());
    }
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int error = posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
    if (error != 0) {
        return -error;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace

int run_with_html(const RunOptions& options, const std::string& library,
                  const std::string& report_bin) {
    // Bad options: one line, exit 2, nothing started (the child checks again with its own pid).
    static_cast<void>(check_before_exec(options, library));
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        throw UsageError(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    std::cout.flush();
    const pid_t pid = fork();
    if (pid < 0) {
        throw UsageError(std::string("cannot start the application: ") + std::strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        exec_child(options, library, fds[1]);
    }
    s_child = pid;
    close(fds[1]);
    std::string profile;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
        if (n > 0) {
            profile.append(buf, static_cast<std::size_t>(n));
        } else if (errno != EINTR) {
            break;
        }
    }
    close(fds[0]);
    const int status = wait_for(pid);
    std::error_code ec;
    if (profile.empty() || !std::filesystem::is_regular_file(profile, ec)) {
        std::cerr << "irf: no HTML report: the application wrote no profile"
                  << (profile.empty() ? "" : " at " + common::printable(profile)) << "\n";
        return status != 0 ? status : 1;
    }
    const std::string page = profile.substr(0, profile.size() - 5) + ".html"; // "<stem>.json"
    const int report = write_page(report_bin, profile, page);
    if (report != 0) {
        std::cerr << "irf: no HTML report: " << common::printable(report_bin) << " html "
                  << (report < 0 ? std::string("could not start: ") + std::strerror(-report)
                                 : "exited " + std::to_string(report))
                  << "\n";
        return status != 0 ? status : 1;
    }
    return status;
}

} // namespace irf::launcher

// SPDX-License-Identifier: Apache-2.0
#include "tests/support/run_process.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

extern char** environ;

namespace irf::test {
namespace {

/// Builds "KEY=VALUE" strings: the parent's environment with the options applied.
std::vector<std::string> child_environment(const RunOptions& options) {
    std::map<std::string, std::string> env;
    for (char** e = environ; *e != nullptr; ++e) {
        const std::string entry(*e);
        const auto eq = entry.find('=');
        if (eq != std::string::npos) {
            env[entry.substr(0, eq)] = entry.substr(eq + 1);
        }
    }
    // The kernel table fits $COLUMNS (common/terminal.hpp): a test's output must not depend on
    // the terminal of whoever runs it; a test that wants a width sets it in options.env.
    env.erase("COLUMNS");
    for (const auto& name : options.unset) {
        env.erase(name);
    }
    for (const auto& [key, value] : options.env) {
        env[key] = value;
    }
    std::vector<std::string> out;
    for (const auto& [key, value] : env) {
        out.push_back(key + "=" + value);
    }
    return out;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (auto& s : strings) {
        out.push_back(s.data());
    }
    out.push_back(nullptr);
    return out;
}

[[noreturn]] void exec_child(std::vector<std::string> argv, std::vector<std::string> env,
                             const RunOptions& options, int in_fd, int out_fd, int err_fd) {
    dup2(in_fd, STDIN_FILENO);
    dup2(out_fd, STDOUT_FILENO);
    dup2(err_fd, STDERR_FILENO);
    if (!options.cwd.empty() && chdir(options.cwd.c_str()) != 0) {
        _exit(126);
    }
    auto args = c_strings(argv);
    auto envp = c_strings(env);
    // A bare name (e.g. `timeout` in the hazard tests) is looked up in PATH, as a shell would;
    // with execve it failed on the first GPU run (tests/data/gpu/h100/ctest-gpu.log).
    execvpe(args[0], args.data(), envp.data());
    const std::string msg = "run_process: cannot exec " + argv[0] + ": " + strerror(errno) + "\n";
    (void)!write(STDERR_FILENO, msg.data(), msg.size());
    _exit(127);
}

/// Reads both pipes until they close or the deadline passes; feeds stdin first.
bool pump(int out_fd, int err_fd, ProcessResult& result, double timeout_s) {
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<long>(timeout_s * 1000));
    pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
    std::string* sinks[2] = {&result.out, &result.err};
    int open = 2;
    char buf[65536];
    while (open > 0) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            return false;
        }
        const int ready = poll(fds, 2, static_cast<int>(left.count()));
        if (ready < 0 && errno != EINTR) {
            return false;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) {
                continue;
            }
            const ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                sinks[i]->append(buf, static_cast<size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                fds[i].fd = -1;
                --open;
            }
        }
    }
    return true;
}

/// ExpectIrfErrors guards alive in this thread.
thread_local int s_expecting_errors = 0;

/// Whether `line` is an error line of libirf ("[irf] error...") or of a tool ("irf: error: ",
/// "irf-report: error: ", "irf-calibrate: error: ", "irf-plot: error: ").
bool is_irf_error_line(const std::string& line) {
    if (line.rfind("[irf] error", 0) == 0) {
        return true;
    }
    const std::size_t colon = line.find(": error: ");
    return colon != std::string::npos && line.rfind("irf", 0) == 0 &&
           line.find_first_of(" \t") > colon;
}

/// The first error line (is_irf_error_line) of `text`, or "" when there is none.
std::string first_irf_error_line(const std::string& text) {
    for (std::size_t begin = 0; begin < text.size();) {
        std::size_t end = text.find('\n', begin);
        end = end == std::string::npos ? text.size() : end;
        const std::string line = text.substr(begin, end - begin);
        if (is_irf_error_line(line)) {
            return line;
        }
        begin = end + 1;
    }
    return "";
}

} // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const RunOptions& options) {
    if (argv.empty()) {
        throw std::invalid_argument("run_process: empty argv");
    }
    int in_pipe[2], out_pipe[2], err_pipe[2];
    if (pipe2(in_pipe, O_CLOEXEC) != 0 || pipe2(out_pipe, O_CLOEXEC) != 0 ||
        pipe2(err_pipe, O_CLOEXEC) != 0) {
        throw std::runtime_error("run_process: pipe failed");
    }
    auto env = child_environment(options);
    const pid_t pid = fork();
    if (pid < 0) {
        throw std::runtime_error("run_process: fork failed");
    }
    if (pid == 0) {
        exec_child(argv, env, options, in_pipe[0], out_pipe[1], err_pipe[1]);
    }
    close(in_pipe[0]);
    close(out_pipe[1]);
    close(err_pipe[1]);
    // Small inputs fit in the pipe buffer, so writing before reading cannot deadlock.
    if (!options.stdin_text.empty()) {
        (void)!write(in_pipe[1], options.stdin_text.data(), options.stdin_text.size());
    }
    close(in_pipe[1]);

    ProcessResult result;
    if (!pump(out_pipe[0], err_pipe[0], result, options.timeout_s)) {
        result.timed_out = true;
        kill(pid, SIGKILL);
    }
    close(out_pipe[0]);
    close(err_pipe[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) {
        result.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        result.signal = WTERMSIG(status);
    }
    if (!options.expect_irf_error && s_expecting_errors == 0) {
        for (const std::string* text : {&result.err, &result.out}) {
            const std::string line = first_irf_error_line(*text);
            if (!line.empty()) {
                ADD_FAILURE() << argv[0]
                              << " wrote an unexpected error (set expect_irf_error): " << line;
                break;
            }
        }
    }
    return result;
}

ExpectIrfErrors::ExpectIrfErrors() {
    ++s_expecting_errors;
}

ExpectIrfErrors::~ExpectIrfErrors() {
    --s_expecting_errors;
}

} // namespace irf::test

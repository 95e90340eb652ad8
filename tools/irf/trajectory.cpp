// SPDX-License-Identifier: Apache-2.0
// `irf trajectory`: runs per SM share under a private CUDA MPS control daemon.
#include "tools/irf/trajectory.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <set>

#include "config/text_list.hpp"
#include "model/profile/profile_json.hpp"

extern char** environ;

namespace irf::launcher {
namespace {

namespace fs = std::filesystem;
using Env = std::vector<std::pair<std::string, std::string>>;

// Runs argv with the current environment plus `extra`; returns the exit status, 128 + signal
// for a killed child, or -errno when it could not start.
int run_child(const std::vector<std::string>& args, const Env& extra) {
    std::vector<std::string> env_text;
    std::set<std::string> overridden;
    for (const auto& [name, value] : extra) {
        env_text.push_back(name + "=" + value);
        overridden.insert(name);
    }
    for (char** e = environ; *e != nullptr; ++e) {
        const std::string entry = *e;
        if (overridden.count(entry.substr(0, entry.find('='))) == 0) {
            env_text.push_back(entry);
        }
    }
    std::vector<char*> envp, argv;
    for (auto& s : env_text) {
        envp.push_back(s.data());
    }
    envp.push_back(nullptr);
    std::vector<std::string> args_copy = args;
    for (auto& s : args_copy) {
        argv.push_back(s.data());
    }
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int error = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), envp.data());
    if (error != 0) {
        return -error;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A private MPS control daemon, started only when none is running, stopped by the destructor.
class MpsDaemon {
public:
    MpsDaemon() = default;
    MpsDaemon(const MpsDaemon&) = delete;
    MpsDaemon& operator=(const MpsDaemon&) = delete;
    ~MpsDaemon() { stop(); }

    /// Uses a running daemon or starts one; throws UsageError with what to do when it cannot.
    void start() {
        const char* pipe = std::getenv("CUDA_MPS_PIPE_DIRECTORY");
        const std::string dir = pipe != nullptr ? pipe : "/tmp/nvidia-mps";
        std::error_code ec;
        if (fs::exists(dir + "/control", ec)) {
            std::cerr << "irf: using the MPS control daemon already running (" << dir << ")\n";
            return;
        }
        char tmpl[] = "/tmp/irf-mps-XXXXXX";
        if (mkdtemp(tmpl) == nullptr) {
            throw UsageError(std::string("cannot create MPS directories in /tmp: ") +
                             std::strerror(errno));
        }
        m_dir = tmpl;
        fs::create_directories(m_dir + "/pipe", ec);
        fs::create_directories(m_dir + "/log", ec);
        setenv("CUDA_MPS_PIPE_DIRECTORY", (m_dir + "/pipe").c_str(), 1);
        setenv("CUDA_MPS_LOG_DIRECTORY", (m_dir + "/log").c_str(), 1);
        const int status = run_child({"nvidia-cuda-mps-control", "-d"}, {});
        if (status != 0) {
            fs::remove_all(m_dir, ec);
            m_dir.clear();
            throw UsageError(
                status == -ENOENT
                    ? "cannot limit SMs: nvidia-cuda-mps-control is not on PATH (it ships with "
                      "the NVIDIA driver utilities); install it, or profile the whole GPU with irf "
                      "run"
                    : "cannot start the MPS control daemon (nvidia-cuda-mps-control -d exited " +
                          std::to_string(status) +
                          "): the GPU may be in exclusive or prohibited compute mode, or MPS "
                          "not allowed for this user; see docs/trajectories.md");
        }
        m_started = true;
    }

private:
    void stop() noexcept {
        if (m_started) {
            // "quit" on the control program's stdin stops the daemon and its server.
            if (FILE* control = popen("nvidia-cuda-mps-control", "w")) {
                std::fputs("quit\n", control);
                pclose(control);
            }
            m_started = false;
        }
        if (!m_dir.empty()) {
            std::error_code ec;
            fs::remove_all(m_dir, ec);
        }
    }

    std::string m_dir;
    bool m_started = false;
};

std::vector<std::string> command_with_env(const RunOptions& run, const std::string& library,
                                          Env& env) {
    env = build_environment(run, library);
    return run.command;
}

// One run of the application; throws UsageError when it fails or writes no profile.
std::string profiled_run(const TrajectoryOptions& o, const std::string& library,
                         const std::string& label, Env extra) {
    Env env;
    const auto command = command_with_env(o.run, library, env);
    const std::string stem = o.output + "-" + label;
    env.emplace_back("IRF_OUTPUT", stem);
    env.insert(env.end(), extra.begin(), extra.end());
    std::cerr << "irf: trajectory run " << label << ": " << stem << ".json\n";
    const int status = run_child(command, env);
    if (status < 0) {
        throw UsageError("cannot run '" + command.front() + "': " + std::strerror(-status));
    }
    if (status != 0) {
        throw UsageError("run " + label + " exited with status " + std::to_string(status));
    }
    std::error_code ec;
    if (!fs::is_regular_file(stem + ".json", ec)) {
        throw UsageError("run " + label + " wrote no profile (" + stem + ".json)");
    }
    return stem + ".json";
}

} // namespace

namespace {

/// True for plain decimal text: digits with at most one '.', no sign, exponent, hex or "inf"
/// (strtod took `inf`, `1e308` and `0x10`; issue #39 item 10).
bool plain_decimal(const std::string& text) {
    return !text.empty() && text.size() <= 12 &&
           text.find_first_not_of("0123456789.") == std::string::npos &&
           text.find('.') == text.rfind('.') && text != ".";
}

} // namespace

std::vector<SmShare> parse_sm_shares(const std::string& list) {
    std::vector<SmShare> out;
    bool below_whole = false;
    for (const std::string& item : config::split(list, ',')) {
        SmShare share;
        share.percent = !item.empty() && item.back() == '%';
        const std::string number = share.percent ? item.substr(0, item.size() - 1) : item;
        share.value = plain_decimal(number) ? std::strtod(number.c_str(), nullptr) : 0.0;
        const bool bad = !(share.value > 0) || (share.percent && share.value > 100) ||
                         (!share.percent &&
                          (share.value != std::floor(share.value) || share.value > k_max_sm_count));
        if (bad) {
            throw UsageError("--sms '" + item +
                             "': expected a percentage in (0, 100] such as 25% or a whole SM "
                             "count such as 66");
        }
        below_whole = below_whole || !share.percent || share.value < 100;
        out.push_back(share);
    }
    if (out.empty()) {
        throw UsageError("--sms: no SM share given (e.g. --sms 25%,50%,100%)");
    }
    if (!below_whole) {
        // The whole GPU is always run; a trajectory needs at least one smaller share, and the
        // application should not run before that is known.
        throw UsageError("--sms '" + list +
                         "': a trajectory needs a share below 100% (e.g. --sms 50%,100%); for "
                         "the whole GPU alone use irf run");
    }
    return out;
}

int mps_percentage(const SmShare& share, int total_sms) {
    const double pct =
        share.percent ? share.value : 100.0 * share.value / static_cast<double>(total_sms);
    return static_cast<int>(std::min(100.0, std::max(1.0, std::ceil(pct - 1e-9))));
}

int run_trajectory(const TrajectoryOptions& o, const std::string& library,
                   const std::string& report_bin) {
    const std::vector<SmShare> shares = parse_sm_shares(o.sms);
    // The whole GPU first, outside MPS: its counters serve every point, its SM count converts
    // absolute --sms values into percentages.
    std::vector<std::string> profiles{profiled_run(o, library, "sm100", {})};
    int total_sms = 0;
    try {
        total_sms = model::load_profile(profiles.front()).gpu.sms;
    } catch (const std::exception& e) {
        throw UsageError(std::string("the whole-GPU profile cannot be read: ") + e.what());
    }
    if (total_sms <= 0) {
        throw UsageError(profiles.front() + ": no SM count in the profile");
    }
    std::set<int> percentages;
    for (const SmShare& share : shares) {
        const int pct = mps_percentage(share, total_sms);
        if (pct < 100) {
            percentages.insert(pct);
        }
    }
    if (percentages.empty()) {
        throw UsageError("--sms '" + o.sms + "': every share is the whole GPU (" +
                         std::to_string(total_sms) + " SMs); the whole-GPU profile is " +
                         profiles.front());
    }
    {
        MpsDaemon mps;
        if (!percentages.empty()) {
            mps.start();
        }
        for (const int pct : percentages) {
            profiles.push_back(
                profiled_run(o, library, "sm" + std::to_string(pct),
                             {{"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", std::to_string(pct)},
                              {"IRF_SAMPLES", "0"}}));
        }
    }
    std::vector<std::string> report{report_bin, "trajectory"};
    report.insert(report.end(), profiles.begin(), profiles.end());
    report.insert(report.end(), {"-o", o.output + ".trajectory.json"});
    const int status = run_child(report, {});
    return status < 0 ? 3 : status;
}

} // namespace irf::launcher

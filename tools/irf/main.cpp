// SPDX-License-Identifier: Apache-2.0
// irf: the launcher. `irf run [options] app args` profiles an unmodified application.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>

#include "common/cli.hpp"
#include "common/text_safety.hpp"
#include "model/profile/version.hpp"
#include "tools/irf/command_split.hpp"
#include "tools/irf/html_run.hpp"
#include "tools/irf/launch.hpp"
#include "tools/irf/trajectory.hpp"

#ifndef IRF_BUILD_TREE_LIB
#define IRF_BUILD_TREE_LIB ""
#endif
#ifndef IRF_BUILD_TREE_ENTRY
#define IRF_BUILD_TREE_ENTRY ""
#endif
#ifndef IRF_INSTALL_LIBDIR
#define IRF_INSTALL_LIBDIR "lib"
#endif

namespace {

using irf::launcher::RunOptions;

// Short options and long names follow Nsight Compute where they mean the same (docs/tools.md,
// "Coming from ncu, nsys or rocprofv3"); the earlier long names stay accepted.
void add_run_options(CLI::App& run, RunOptions& o) {
    run.add_option("-k,--kernel-name,--kernels", o.kernels,
                   "Profile only kernels matching this RE2 regex (ncu's regex: prefix accepted)");
    run.add_option("--exclude", o.exclude, "Never profile kernels matching this RE2 regex");
    run.add_option("--nvtx-include", o.nvtx_include,
                   "Profile only kernels inside matching NVTX ranges (repeatable; docs/regions.md)")
        ->allow_extra_args(false);
    run.add_option("--nvtx-exclude", o.nvtx_exclude,
                   "Never profile kernels inside matching NVTX ranges (repeatable)")
        ->allow_extra_args(false);
    run.add_option("--capture-range", o.capture_range,
                   "cudaProfilerApi: profile only between cudaProfilerStart/Stop; none (default)");
    run.add_option("-s,--launch-skip", o.launch_skip,
                   "Matching launches to skip before profiling starts")
        ->type_name("N");
    run.add_option("-c,--launch-count", o.launch_count, "Profile at most N launches in all")
        ->type_name("N");
    run.add_option("--samples", o.samples,
                   "Profiled launches per distinct kernel, 0 to 1000 (0 = timing only)")
        ->type_name("N");
    run.add_option("-o,--output", o.output, "Output path stem (%a %h %p %r %j %q{VAR} %%)");
    run.add_option("--targets", o.targets,
                   "GPUs to project onto: shipped names or YAML files, all or none");
    run.add_option("--ceilings", o.ceilings, "Ceilings of this GPU: shipped name or YAML file");
    run.add_option("--callstack", o.callstack, "Host frames kept per launch site (0 = off)")
        ->type_name("N");
    run.add_option("--log", o.log, "Log level: error, warn, info, debug");
    run.add_option("--summary", o.summary, "Text summary: stderr, file, both, none");
    run.add_option("--metrics", o.metrics,
                   "Optional counter groups: default, all, or pipe_mix,tensor_types");
    run.add_option("--lib", o.lib, "libirf.so to inject (default: the one installed with irf)");
    run.add_flag("--fast-intercept", o.fast_intercept,
                 "See launches through libirf_entry.so (preloaded) instead of CUPTI's launch "
                 "callbacks, which stay on only while a sample needs them (IRF_FAST_INTERCEPT=1); "
                 "experimental, off by default");
    run.add_option("command", o.command,
                   "The application and its arguments: options end at the first positional "
                   "argument or at --");
}

std::string executable_dir() {
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string(".") : self.parent_path().string();
}

std::string injected_library(const RunOptions& options) {
    return options.lib ? *options.lib
                       : irf::launcher::find_library(irf::launcher::library_candidates(
                             executable_dir(), IRF_INSTALL_LIBDIR, IRF_BUILD_TREE_LIB));
}

// Replaces this process by the application; returns only when exec failed.
int exec_application(const RunOptions& options) {
    const std::string library = injected_library(options);
    const std::string profile = irf::launcher::check_before_exec(options, library);
    std::cerr << "irf: profile will go to " << irf::common::printable(profile) << "\n";
    const std::string entry = options.fast_intercept
                                  ? irf::launcher::find_entry_library(library, IRF_BUILD_TREE_ENTRY)
                                  : std::string();
    const auto vars = irf::launcher::build_environment(options, library, entry);
    for (const std::string& note : irf::launcher::replaced_injection_notes(
             vars, [](const char* name) -> const char* { return std::getenv(name); })) {
        std::cerr << note << "\n";
    }
    for (const auto& [name, value] : vars) {
        if (setenv(name.c_str(), value.c_str(), 1) != 0) {
            throw irf::launcher::UsageError("cannot set " + name + ": " + std::strerror(errno));
        }
    }
    return irf::launcher::exec_application(options.command);
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"irf: Instruction Roofline profiler for NVIDIA GPUs", "irf"};
    irf::common::set_version(app, "irf", irf::model::version());
    app.require_subcommand(1);
    RunOptions options;
    CLI::App* run = app.add_subcommand("run", "Run an application with irf injected");
    add_run_options(*run, options);
    bool html = false;
    run->add_flag("--html", html,
                  "Also write STEM.html (irf-report html) when the application ends; irf then "
                  "runs it as a child instead of replacing itself by it");
    irf::launcher::TrajectoryOptions trajectory;
    CLI::App* traj = app.add_subcommand(
        "trajectory", "Run an application at several SM shares (CUDA MPS) and build its roofline "
                      "scaling trajectories");
    traj->add_option("--sms", trajectory.sms,
                     "SM shares: percentages (25%) or SM counts (66), comma-separated")
        ->capture_default_str();
    traj->add_option("-o,--output", trajectory.output,
                     "Output stem: STEM-smN.json per run, STEM.trajectory.json")
        ->capture_default_str();
    traj->add_option("-k,--kernel-name,--kernels", trajectory.run.kernels,
                     "Profile only kernels matching this RE2 regex");
    traj->add_option("--lib", trajectory.run.lib, "libirf.so to inject");
    traj->add_option("command", trajectory.run.command, "The application and its arguments");
    // Options end at the application (its first positional) or at "--": what follows is the
    // application's, even what looks like an option of irf (tools/irf/command_split.hpp).
    const irf::launcher::CommandSplit split =
        irf::launcher::split_command(app, std::vector<std::string>(argv, argv + argc));
    std::vector<char*> own_argv;
    for (const std::string& arg : split.own) {
        own_argv.push_back(const_cast<char*>(arg.c_str())); // argv's historical signature
    }
    own_argv.push_back(nullptr);
    if (const auto done = irf::common::parse_command_line(
            app, static_cast<int>(split.own.size()), own_argv.data(), "irf",
            "usage: irf run [options] app args (or -- app args); see irf run --help")) {
        return *done;
    }
    auto& command = traj->parsed() ? trajectory.run.command : options.command;
    command.insert(command.end(), split.application.begin(), split.application.end());
    return irf::common::run_tool("irf", [&] {
        if (traj->parsed()) {
            irf::launcher::validate(trajectory.run);
            return irf::launcher::run_trajectory(trajectory, injected_library(trajectory.run),
                                                 executable_dir() + "/irf-report");
        }
        irf::launcher::validate(options);
        if (html) {
            return irf::launcher::run_with_html(options, injected_library(options),
                                                executable_dir() + "/irf-report");
        }
        return exec_application(options);
    });
}

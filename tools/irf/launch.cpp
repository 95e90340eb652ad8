// SPDX-License-Identifier: Apache-2.0
// `irf run`: option checks, the library search and the injected environment.
#include "tools/irf/launch.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <system_error>
#include <unistd.h>

#include "common/environment.hpp"
#include "common/text_safety.hpp"
#include "config/ceilings_yaml.hpp"
#include "config/env.hpp"
#include "config/gpu_database.hpp"
#include "config/output_path.hpp"
#include "config/rank.hpp"

namespace irf::launcher {
namespace {

namespace fs = std::filesystem;

/// The launcher option behind each variable it sets, in the order they are set.
struct OptionVariable {
    const char* variable;
    const char* option;
    std::optional<std::string> RunOptions::*field;
};

constexpr OptionVariable k_option_variables[] = {
    {"IRF_KERNELS", "--kernel-name", &RunOptions::kernels},
    {"IRF_EXCLUDE", "--exclude", &RunOptions::exclude},
    {"IRF_CAPTURE_RANGE", "--capture-range", &RunOptions::capture_range},
    {"IRF_LAUNCH_SKIP", "--launch-skip", &RunOptions::launch_skip},
    {"IRF_LAUNCH_COUNT", "--launch-count", &RunOptions::launch_count},
    {"IRF_SAMPLES", "--samples", &RunOptions::samples},
    {"IRF_OUTPUT", "--output", &RunOptions::output},
    {"IRF_TARGETS", "--targets", &RunOptions::targets},
    {"IRF_CEILINGS", "--ceilings", &RunOptions::ceilings},
    {"IRF_CALLSTACK", "--callstack", &RunOptions::callstack},
    {"IRF_LOG", "--log", &RunOptions::log},
    {"IRF_SUMMARY", "--summary", &RunOptions::summary},
    {"IRF_METRICS", "--metrics", &RunOptions::metrics},
};

bool is_regular_file(const std::string& path) {
    std::error_code ec;
    return fs::is_regular_file(path, ec);
}

// The application may change directory before the library reads a relative path.
std::string absolute_path(const std::string& path) {
    std::error_code ec;
    const fs::path absolute = fs::absolute(path, ec);
    return ec ? path : absolute.lexically_normal().string();
}

// Each --nvtx-include is one expression; libirf's list syntax joins them with ';'.
void check_nvtx(const char* option, const std::vector<std::string>& expressions) {
    for (const std::string& e : expressions) {
        if (e.empty() || e.find(';') != std::string::npos) {
            throw UsageError(std::string(option) + " '" + e + "': expected one NVTX expression");
        }
    }
}

std::optional<std::string> joined(const std::vector<std::string>& parts) {
    if (parts.empty()) {
        return std::nullopt;
    }
    std::string out;
    for (const std::string& p : parts) {
        out += (out.empty() ? "" : ";") + p;
    }
    return out;
}

/// "--samples '5000'" when an option set the variable, else "IRF_SAMPLES='5000' (from the
/// environment)": the user fixes what they wrote.
std::string origin(const RunOptions& options, const std::string& variable,
                   const std::string& value) {
    for (const OptionVariable& ov : k_option_variables) {
        if (variable == ov.variable && options.*ov.field) {
            return std::string(ov.option) + " '" + value + "'";
        }
    }
    if (variable == "IRF_NVTX_INCLUDE" && !options.nvtx_include.empty()) {
        return "--nvtx-include '" + value + "'";
    }
    if (variable == "IRF_NVTX_EXCLUDE" && !options.nvtx_exclude.empty()) {
        return "--nvtx-exclude '" + value + "'";
    }
    return variable + "='" + value + "' (from the environment)";
}

/// The settings libirf.so would read: the launcher's variables over the inherited ones.
config::ParseResult parse_as_library_would(const RunOptions& options) {
    const auto vars = build_environment(options, "");
    const config::EnvLookup lookup = [&vars](const char* name) -> const char* {
        for (const auto& [variable, value] : vars) {
            if (variable == name) {
                return value.c_str();
            }
        }
        return common::process_env(name);
    };
    return config::parse_env(lookup);
}

std::string base_name(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

void validate(const RunOptions& options) {
    check_nvtx("--nvtx-include", options.nvtx_include);
    check_nvtx("--nvtx-exclude", options.nvtx_exclude);
    const config::ParseResult parsed = parse_as_library_would(options);
    if (!parsed.problems.empty()) {
        const config::SettingProblem& p = parsed.problems.front();
        throw UsageError(origin(options, p.name, p.value) + ": " + p.problem);
    }
    if (options.lib && !is_regular_file(*options.lib)) {
        throw UsageError("--lib '" + *options.lib + "': no such file");
    }
    if (options.command.empty()) {
        throw UsageError("no application given (usage: irf run [options] -- app args)");
    }
}

std::string check_before_exec(const RunOptions& options, const std::string& library) {
    const config::Config c = parse_as_library_would(options).config;
    const std::vector<std::string> dirs =
        config::gpus_dirs(fs::path(absolute_path(library)).parent_path().string());
    try {
        if (!c.ceilings.empty()) {
            (void)config::load_named_ceilings(c.ceilings, dirs, "ceilings");
        }
    } catch (const std::exception& e) {
        throw UsageError(origin(options, "IRF_CEILINGS", c.ceilings) + ": " + e.what());
    }
    try {
        (void)config::resolve_targets(c.targets, dirs, origin(options, "IRF_TARGETS", c.targets));
    } catch (const config::CeilingsError& e) {
        // An unknown name already says where it came from; a bad file's error does not.
        const std::string where = origin(options, "IRF_TARGETS", c.targets);
        const std::string message = e.what();
        throw UsageError(message.rfind(where, 0) == 0 ? message : where + ": " + message);
    } catch (const std::exception& e) {
        throw UsageError(origin(options, "IRF_TARGETS", c.targets) + ": " + e.what());
    }
    std::string stem;
    try {
        stem = config::process_output_stem(c.output, base_name(options.command.front()),
                                           config::detect_rank(common::process_env),
                                           fs::current_path().string());
    } catch (const std::exception& e) {
        throw UsageError(origin(options, "IRF_OUTPUT", c.output) + ": " + e.what());
    }
    const std::string problem = config::output_dir_problem(stem);
    if (!problem.empty()) {
        throw UsageError(origin(options, "IRF_OUTPUT", c.output) + ": " + problem);
    }
    return stem + ".json";
}

std::string find_entry_library(const std::string& library, const std::string& build_tree_path) {
    const std::string beside =
        (fs::path(absolute_path(library)).parent_path() / "libirf_entry.so").string();
    if (is_regular_file(beside)) {
        return beside;
    }
    if (!build_tree_path.empty() && is_regular_file(build_tree_path)) {
        return build_tree_path;
    }
    throw UsageError("--fast-intercept: libirf_entry.so not found (looked at " + beside +
                     (build_tree_path.empty() ? std::string() : ", " + build_tree_path) +
                     "); it is installed beside libirf.so");
}

std::vector<std::pair<std::string, std::string>>
build_environment(const RunOptions& options, const std::string& library, const std::string& entry) {
    std::vector<std::pair<std::string, std::string>> vars;
    if (!library.empty()) {
        vars.emplace_back("CUDA_INJECTION64_PATH", absolute_path(library));
        vars.emplace_back("NVTX_INJECTION64_PATH", absolute_path(library)); // NVTX ranges
    }
    for (const OptionVariable& ov : k_option_variables) {
        const std::optional<std::string>& value = options.*ov.field;
        if (!value) {
            continue;
        }
        const bool file = ov.field == &RunOptions::ceilings && is_regular_file(*value);
        vars.emplace_back(ov.variable, file ? absolute_path(*value) : *value);
    }
    if (const auto include = joined(options.nvtx_include)) {
        vars.emplace_back("IRF_NVTX_INCLUDE", *include);
    }
    if (const auto exclude = joined(options.nvtx_exclude)) {
        vars.emplace_back("IRF_NVTX_EXCLUDE", *exclude);
    }
    if (options.fast_intercept) {
        vars.emplace_back("IRF_FAST_INTERCEPT", "1");
        if (!entry.empty()) {
            // First, so that its dlsym is the one the CUDA runtime finds; the application's own
            // preloads follow unchanged.
            const char* before = common::process_env("LD_PRELOAD");
            const bool more = before != nullptr && before[0] != '\0';
            vars.emplace_back("LD_PRELOAD",
                              absolute_path(entry) + (more ? ":" + std::string(before) : ""));
        }
    }
    return vars;
}

std::vector<std::string>
replaced_injection_notes(const std::vector<std::pair<std::string, std::string>>& vars,
                         const char* (*lookup)(const char*)) {
    std::vector<std::string> notes;
    for (const auto& [name, value] : vars) {
        if (name != "CUDA_INJECTION64_PATH" && name != "NVTX_INJECTION64_PATH") {
            continue;
        }
        const char* before = lookup(name.c_str());
        if (before != nullptr && before[0] != '\0' && value != before) {
            notes.push_back("irf: replacing " + name + "=" + common::printable(before) +
                            " (that tool sees nothing of this run)");
        }
    }
    return notes;
}

std::string find_library(const std::vector<std::string>& candidates) {
    std::string looked;
    for (const auto& candidate : candidates) {
        if (candidate.empty()) {
            continue;
        }
        if (is_regular_file(candidate)) {
            return candidate;
        }
        looked += (looked.empty() ? "" : ", ") + candidate;
    }
    throw UsageError("libirf.so not found (looked at " + looked + "); pass --lib PATH");
}

std::vector<std::string> library_candidates(const std::string& exe_dir, const std::string& libdir,
                                            const std::string& build_tree_path) {
    const fs::path prefix = fs::path(exe_dir).parent_path();
    std::vector<std::string> candidates;
    if (!libdir.empty() && libdir != "lib") {
        candidates.push_back((prefix / libdir / "libirf.so").string());
    }
    candidates.push_back((prefix / "lib" / "libirf.so").string());
    if (!build_tree_path.empty()) {
        candidates.push_back(build_tree_path);
    }
    return candidates;
}

int exec_application(const std::vector<std::string>& command) {
    std::vector<char*> argv;
    for (const auto& arg : command) {
        argv.push_back(const_cast<char*>(arg.c_str())); // execvp's historical signature
    }
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    const int error = errno;
    std::cerr << "irf: cannot run '" << common::printable(command.front())
              << "': " << std::strerror(error) << "\n";
    return error == ENOENT ? 127 : 126;
}

} // namespace irf::launcher

// SPDX-License-Identifier: Apache-2.0
// `irf run`: option checks, the library search and the injected environment.
#include "tools/irf/launch.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "config/kernel_regex.hpp"
#include "config/nvtx_expr.hpp"

namespace irf::launcher {
namespace {

namespace fs = std::filesystem;

void check_regex(const char* option, const std::optional<std::string>& value) {
    if (!value) {
        return;
    }
    const std::string problem = config::kernel_regex_problem(*value);
    if (!problem.empty()) {
        throw UsageError(std::string(option) + " '" + *value + "': " + problem);
    }
}

void check_choice(const char* option, const std::optional<std::string>& value,
                  const std::vector<std::string>& choices) {
    if (!value || std::find(choices.begin(), choices.end(), *value) != choices.end()) {
        return;
    }
    std::string list;
    for (const auto& choice : choices) {
        list += (list.empty() ? "" : ", ") + choice;
    }
    throw UsageError(std::string(option) + " '" + *value + "': expected one of " + list);
}

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

void check_nvtx(const char* option, const std::vector<std::string>& expressions) {
    for (const std::string& e : expressions) {
        std::vector<irf::config::NvtxExpr> parsed;
        std::string problem;
        if (e.empty() || e.find(';') != std::string::npos ||
            !irf::config::parse_nvtx_list(e, parsed, problem)) {
            throw UsageError(std::string(option) + " '" + e +
                             "': " + (problem.empty() ? "expected one NVTX expression" : problem));
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

} // namespace

void validate(const RunOptions& options) {
    check_regex("--kernels", options.kernels);
    check_regex("--exclude", options.exclude);
    check_nvtx("--nvtx-include", options.nvtx_include);
    check_nvtx("--nvtx-exclude", options.nvtx_exclude);
    if (options.samples && *options.samples < 1) {
        throw UsageError("--samples " + std::to_string(*options.samples) +
                         ": expected an integer >= 1");
    }
    if (options.callstack && (*options.callstack < 0 || *options.callstack > 256)) {
        throw UsageError("--callstack " + std::to_string(*options.callstack) +
                         ": expected an integer from 0 to 256");
    }
    check_choice("--log", options.log, {"error", "warn", "info", "debug"});
    check_choice("--summary", options.summary, {"stderr", "file", "both", "none"});
    if (options.output && options.output->empty()) {
        throw UsageError("--output: the stem is empty");
    }
    if (options.targets && options.targets->empty()) {
        throw UsageError("--targets: the list is empty (use 'none' to project nowhere)");
    }
    // A name without a slash or .yaml suffix is a shipped ceilings key, resolved by the library.
    if (options.ceilings) {
        const std::string& ceilings = *options.ceilings;
        const bool looks_like_file =
            ceilings.find('/') != std::string::npos || fs::path(ceilings).extension() == ".yaml";
        if (ceilings.empty() || (looks_like_file && !is_regular_file(ceilings))) {
            throw UsageError("--ceilings '" + ceilings + "': no such file");
        }
    }
    if (options.lib && !is_regular_file(*options.lib)) {
        throw UsageError("--lib '" + *options.lib + "': no such file");
    }
    if (options.command.empty()) {
        throw UsageError("no application given (usage: irf run [options] -- app args)");
    }
}

std::vector<std::pair<std::string, std::string>> build_environment(const RunOptions& options,
                                                                   const std::string& library) {
    std::vector<std::pair<std::string, std::string>> vars;
    vars.emplace_back("CUDA_INJECTION64_PATH", absolute_path(library));
    vars.emplace_back("NVTX_INJECTION64_PATH", absolute_path(library)); // NVTX range capture
    const auto set = [&vars](const char* name, const std::optional<std::string>& value) {
        if (value) {
            vars.emplace_back(name, *value);
        }
    };
    set("IRF_KERNELS", options.kernels);
    set("IRF_EXCLUDE", options.exclude);
    set("IRF_NVTX_INCLUDE", joined(options.nvtx_include));
    set("IRF_NVTX_EXCLUDE", joined(options.nvtx_exclude));
    if (options.samples) {
        vars.emplace_back("IRF_SAMPLES", std::to_string(*options.samples));
    }
    set("IRF_OUTPUT", options.output);
    set("IRF_TARGETS", options.targets);
    if (options.ceilings) {
        vars.emplace_back("IRF_CEILINGS", is_regular_file(*options.ceilings)
                                              ? absolute_path(*options.ceilings)
                                              : *options.ceilings);
    }
    if (options.callstack) {
        vars.emplace_back("IRF_CALLSTACK", std::to_string(*options.callstack));
    }
    set("IRF_LOG", options.log);
    set("IRF_SUMMARY", options.summary);
    set("IRF_METRICS", options.metrics);
    return vars;
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

} // namespace irf::launcher

// SPDX-License-Identifier: Apache-2.0
// The IRF_* option table and parse_env: every variable is parsed, validated and documented here.
#include "config/env.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include "common/whole_number.hpp"
#include "config/env_metrics.hpp"
#include "config/gpu_database.hpp"
#include "config/kernel_regex.hpp"
#include "config/nvtx_expr.hpp"
#include "config/text_list.hpp"

namespace irf::config {
namespace {

bool parse_uint(const std::string& value, std::uint64_t max, std::uint64_t& out,
                std::string& problem) {
    std::uint64_t parsed = 0;
    const char* end = value.data() + value.size();
    const auto [ptr, ec] = std::from_chars(value.data(), end, parsed);
    const bool too_large = ec == std::errc::result_out_of_range && ptr == end;
    if (too_large || ec != std::errc() || ptr != end || parsed > max) {
        // "0 or more" when the bound is the type's own.
        const auto upper = max == UINT64_MAX ? std::nullopt : std::optional<std::uint64_t>(max);
        problem = too_large && !upper ? "too large" : common::whole_number_rule(0, upper);
        return false;
    }
    out = parsed;
    return true;
}

bool check_regex(const std::string& value, std::string& problem) {
    problem = kernel_regex_problem(value);
    return problem.empty();
}

bool apply_output(Config& c, const std::string& v, std::string& problem) {
    problem = check_stem(v);
    if (!problem.empty()) {
        return false;
    }
    c.output = v;
    return true;
}

bool apply_summary(Config& c, const std::string& v, std::string& problem) {
    for (const SummaryMode m :
         {SummaryMode::stderr_only, SummaryMode::file, SummaryMode::both, SummaryMode::none}) {
        if (v == to_string(m)) {
            c.summary = m;
            return true;
        }
    }
    problem = "expected stderr, file, both or none";
    return false;
}

bool apply_kernels(Config& c, const std::string& v, std::string& problem) {
    if (!check_regex(v, problem)) {
        return false;
    }
    c.kernels = v;
    return true;
}

bool apply_exclude(Config& c, const std::string& v, std::string& problem) {
    if (!check_regex(v, problem)) {
        return false;
    }
    c.exclude = v;
    return true;
}

bool apply_nvtx(std::string& into, const std::string& v, std::string& problem) {
    std::vector<NvtxExpr> parsed;
    if (!parse_nvtx_list(v, parsed, problem)) {
        return false;
    }
    into = v;
    return true;
}

// IRF_CAPTURE_RANGE: nsys's `--capture-range` values that apply to one process.
bool apply_capture_range(Config& c, const std::string& v, std::string& problem) {
    if (v != "none" && v != "cudaProfilerApi") {
        problem = "expected none or cudaProfilerApi";
        return false;
    }
    c.capture_profiler_api = v == "cudaProfilerApi";
    return true;
}

bool apply_skip(Config& c, const std::string& v, std::string& problem) {
    return parse_uint(v, UINT64_MAX, c.launch_skip, problem);
}

bool apply_count(Config& c, const std::string& v, std::string& problem) {
    std::uint64_t n = 0;
    if (!parse_uint(v, UINT64_MAX, n, problem)) {
        return false;
    }
    c.launch_count = n;
    return true;
}

bool apply_samples(Config& c, const std::string& v, std::string& problem) {
    std::uint64_t n = 0;
    if (!parse_uint(v, 1000, n, problem)) {
        return false;
    }
    c.samples = static_cast<int>(n);
    return true;
}

// A shipped name (config/gpus/*.yaml stem: letters, digits, '-', '_', '.') is resolved at load
// by config::load_named_ceilings, which knows the database; only files are checked here.
bool is_shipped_name(const std::string& v) {
    const bool key_chars = std::all_of(v.begin(), v.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '-' || ch == '_' ||
               ch == '.';
    });
    return key_chars && !looks_like_path(v) && ::access(v.c_str(), F_OK) != 0;
}

bool apply_ceilings(Config& c, const std::string& v, std::string& problem) {
    if (is_shipped_name(v)) {
        c.ceilings = v;
        return true;
    }
    if (::access(v.c_str(), R_OK) != 0) {
        problem = "file not readable";
        return false;
    }
    // A FIFO or device would block the read at exit (stat never opens, so it cannot block).
    struct stat st {};
    if (::stat(v.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
        problem = "not a regular file";
        return false;
    }
    c.ceilings = v;
    return true;
}

bool apply_targets(Config& c, const std::string& v, std::string& problem) {
    std::stringstream list(v);
    std::string item;
    while (std::getline(list, item, ',')) {
        if (item.empty()) {
            problem = "empty item in the comma list";
            return false;
        }
    }
    if (v.back() == ',') {
        problem = "empty item in the comma list";
        return false;
    }
    c.targets = v;
    return true;
}

// IRF_GPUS_DIR: directories searched before the installed and source databases
// (config/gpu_database.hpp); a part that is not a directory would silently find nothing.
bool apply_gpus_dir(Config& c, const std::string& v, std::string& problem) {
    for (const std::string& dir : split(v, ':')) {
        struct stat info {};
        if (dir.empty() || ::stat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
            problem = "'" + dir + "' is not a directory";
            return false;
        }
    }
    c.gpus_dir = v;
    return true;
}

bool apply_callstack(Config& c, const std::string& v, std::string& problem) {
    std::uint64_t n = 0;
    if (!parse_uint(v, 64, n, problem)) {
        return false;
    }
    c.callstack = static_cast<int>(n);
    return true;
}

bool apply_log(Config& c, const std::string& v, std::string& problem) {
    for (const LogLevel l : {LogLevel::error, LogLevel::warn, LogLevel::info, LogLevel::debug}) {
        if (v == to_string(l)) {
            c.log = l;
            return true;
        }
    }
    problem = "expected error, warn, info or debug";
    return false;
}

bool apply_backend(Config& c, const std::string& v, std::string& problem) {
    if (v == "cupti") {
        c.backend = v;
        c.backend_arg.clear();
        return true;
    }
    if (v.rfind("fake:", 0) == 0 && v.size() > 5) {
        c.backend = "fake";
        c.backend_arg = v.substr(5);
        return true;
    }
    problem = "expected cupti or fake:FILE";
    return false;
}

std::string show_count(const Config& c) {
    return c.launch_count ? std::to_string(*c.launch_count) : "unlimited";
}

std::string show_backend(const Config& c) {
    return c.backend_arg.empty() ? c.backend : c.backend + ":" + c.backend_arg;
}

} // namespace

const std::vector<OptionSpec>& option_table() {
    static const std::vector<OptionSpec> s_table = {
        {"IRF_OUTPUT", "`irf-%a-%h-%p`",
         "Output path stem; `<stem>.json` and `<stem>.txt` are written. Placeholders below. In "
         "a parallel job a stem without `%r` gets `-r%r` appended.",
         "ignored, default used", false, apply_output, [](const Config& c) { return c.output; }},
        {"IRF_SUMMARY", "`both`",
         "Where the text summary goes: `stderr`, `file` (`<stem>.txt`), `both`, `none`. On "
         "stderr its kernel table fits `$COLUMNS` or the terminal (docs/model.md, \"Text "
         "summary\"); the file keeps every column.",
         "ignored, default used", false, apply_summary,
         [](const Config& c) { return std::string(to_string(c.summary)); }},
        {"IRF_KERNELS", "all kernels",
         "RE2 regex (a leading `regex:` as in ncu is accepted) searched in the first 4096 "
         "characters of the demangled kernel name; only matching kernels are "
         "profiled (the others are still timed).",
         "irf disabled", true, apply_kernels, [](const Config& c) { return c.kernels; }},
        {"IRF_EXCLUDE", "collectives, custom all-reduce, flag-spinning kernels (list below)",
         "RE2 regex of kernels never profiled, only timed. The default keeps kernels that "
         "wait on other GPUs or the host out of kernel replay, which can deadlock them.",
         "irf disabled", true, apply_exclude, [](const Config& c) { return c.exclude; }},
        {"IRF_NVTX_INCLUDE", "all ranges",
         "`;`-separated NVTX expressions (ncu `--nvtx-include` subset, docs/regions.md); only "
         "kernels launched inside a matching range are profiled (all are still timed).",
         "irf disabled", true,
         [](Config& c, const std::string& v, std::string& p) {
             return apply_nvtx(c.nvtx_include, v, p);
         },
         [](const Config& c) { return c.nvtx_include; }},
        {"IRF_NVTX_EXCLUDE", "none",
         "`;`-separated NVTX expressions; kernels launched inside a matching range are only "
         "timed, never profiled.",
         "irf disabled", true,
         [](Config& c, const std::string& v, std::string& p) {
             return apply_nvtx(c.nvtx_exclude, v, p);
         },
         [](const Config& c) { return c.nvtx_exclude; }},
        {"IRF_CAPTURE_RANGE", "`none`",
         "`cudaProfilerApi`: profile only launches between `cudaProfilerStart` and "
         "`cudaProfilerStop` (or cuProfilerStart/Stop), as nsys `--capture-range`; launches "
         "outside are only timed. `none`: from the start.",
         "irf disabled", true, apply_capture_range,
         [](const Config& c) {
             return std::string(c.capture_profiler_api ? "cudaProfilerApi" : "none");
         }},
        {"IRF_LAUNCH_SKIP", "`0`",
         "Matching launches (all kernels together) that are never profiled before profiling "
         "starts.",
         "ignored, default used", false, apply_skip,
         [](const Config& c) { return std::to_string(c.launch_skip); }},
        {"IRF_LAUNCH_COUNT", "unlimited",
         "Profiled launches at most (all kernels together); later launches are only timed.",
         "irf disabled", true, apply_count, show_count},
        {"IRF_SAMPLES", "`1`",
         "Profiled launches per distinct kernel (demangled name + launch configuration), "
         "0 to 1000.",
         "ignored, default used", false, apply_samples,
         [](const Config& c) { return std::to_string(c.samples); }},
        {"IRF_REPLAY", "`kernel`",
         "How a sample's replay passes run: `kernel` (all on the sampled launch, by kernel "
         "replay: the device memory is saved and restored per pass), `launches` (one pass on "
         "each of the kernel configuration's next launches, nothing saved or restored: a "
         "configuration launched once gets no counters), `auto` (`launches` for a sample after "
         "a kernel's first launch, kernel replay for that first launch and for a configuration "
         "that stopped recurring). `launches` and `auto` are experimental: on an H200 their "
         "instrumented counters (instruction mix, bytes) read 0 (docs/configuration.md).",
         "ignored, default used", false, apply_replay, show_replay},
        {"IRF_TIMING", "`all`",
         "Which launches get their duration: `all`; `sampled` (= `sampled:100:100`) or "
         "`sampled:K:N`: the first K launches of each kernel configuration, then 1 in N. Launch "
         "counts stay exact; a kernel with untimed launches has its total estimated (count x "
         "mean of its timed launches) with its standard error (`time_ns.estimated`). "
         "Experimental: off until measured on a GPU (docs/configuration.md, \"Sampled timing\").",
         "ignored, default used", false, apply_timing, show_timing},
        {"IRF_GRAPH_TIMING", "`nodes`",
         "How kernels in CUDA graphs are timed: `nodes` (every replay); `graphs` (= `graphs:3`) "
         "or `graphs:N`: N replays of each graph by node, then its nodes counted at an estimate "
         "(`time_ns.estimated`). Experimental (docs/configuration.md, \"Graph timing\").",
         "ignored, default used", false, apply_graph_timing, show_graph_timing},
        {"IRF_FAST_INTERCEPT", "`0`",
         "`1`: launches are seen by libirf_entry.so's hook instead of CUPTI's launch callbacks, "
         "which are on only while a sample needs them; set by `irf run --fast-intercept`, which "
         "preloads the library. Experimental: off until measured on a GPU (docs/tools.md, "
         "\"Launches without CUPTI callbacks\").",
         "ignored, default used", false, apply_fast_intercept, show_fast_intercept},
        {"IRF_CEILINGS", "auto",
         "Ceilings of this GPU: a YAML file or a shipped name (`config/gpus/*.yaml` stem); else "
         "the shipped entry matching the detected GPU, else "
         "ceilings derived from its properties.",
         "ignored, default used", false, apply_ceilings,
         [](const Config& c) { return c.ceilings.empty() ? std::string("auto") : c.ceilings; }},
        {"IRF_TARGETS", "`all`",
         "GPUs to project onto: comma list of shipped names (`config/gpus/*.yaml` stems) or "
         "YAML files, `all` (every shipped entry) or `none`; a name given twice is used once, at "
         "most 64 distinct.",
         "ignored, default used", false, apply_targets, [](const Config& c) { return c.targets; }},
        {"IRF_GPUS_DIR", "none",
         "`:`-separated directories of ceilings YAML files searched before "
         "`<prefix>/share/irf/gpus` for shipped names (`IRF_CEILINGS`, `IRF_TARGETS`, the tools' "
         "`--ceilings`/`--targets`).",
         "ignored, default used", false, apply_gpus_dir,
         [](const Config& c) { return c.gpus_dir; }},
        {"IRF_CALLSTACK", "`8`", "Host frames kept per call site, 0 to 64 (0 = no call sites).",
         "ignored, default used", false, apply_callstack,
         [](const Config& c) { return std::to_string(c.callstack); }},
        {"IRF_LOG", "`warn`",
         "Log level on stderr (prefix `[irf]`): `error`, `warn`, `info`, `debug`.",
         "ignored, default used", false, apply_log,
         [](const Config& c) { return std::string(to_string(c.log)); }},
        {"IRF_DISABLE", "`0`",
         "`1` (or true/yes/on) = load but do nothing; `0` (false/no/off) = profile.",
         "irf disabled", true, apply_disable, show_disable},
        {"IRF_BACKEND", "`cupti`",
         "Source of launches: `cupti`; in test builds also `fake:FILE` (a JSON script of "
         "launches).",
         "irf disabled", true, apply_backend, show_backend},
        {"IRF_METRICS", "`default`",
         "Optional counter groups profiled on top of the default set: `pipe_mix` (warp "
         "instructions per pipe, and the FP pipes' thread instructions: the FP active share of "
         "Perf_ceil), `tensor_types` (tensor ops by input type), `all`, or `default` (none). "
         "Each group adds replay passes (`irf-report metrics --chip NAME`).",
         "ignored, default used", false, apply_metrics, show_metrics},
        {"IRF_TENSOR_TYPES", "`auto`",
         "`auto`: a kernel whose sample shows tensor instructions, without IRF_METRICS="
         "tensor_types, has one later launch profiled with the tensor ops by input type (within "
         "IRF_LAUNCH_COUNT); `off`: no such second sample.",
         "ignored, default used", false, apply_tensor_types, show_tensor_types},
    };
    return s_table;
}

std::string gpus_dir_setting(const EnvLookup& env) {
    const char* raw = env("IRF_GPUS_DIR");
    Config config;
    std::string problem;
    return raw != nullptr && *raw != '\0' && apply_gpus_dir(config, raw, problem) ? config.gpus_dir
                                                                                  : std::string();
}

ParseResult parse_env(const EnvLookup& env) {
    ParseResult result;
    for (const OptionSpec& spec : option_table()) {
        const char* raw = env(spec.name);
        if (raw == nullptr || *raw == '\0') {
            continue;
        }
        const std::string value = raw;
        std::string problem;
        bool ok = false;
        try {
            ok = spec.apply(result.config, value, problem);
        } catch (const std::exception& e) {
            problem = e.what();
        }
        if (ok) {
            continue;
        }
        result.problems.push_back({spec.name, value, problem});
        result.errors.push_back(std::string("[irf] ") + spec.name + "=" + value + ": " + problem +
                                (spec.disables ? "; irf disabled" : "; ignored, using default"));
        result.disabled_by_error = result.disabled_by_error || spec.disables;
    }
    return result;
}

} // namespace irf::config

// SPDX-License-Identifier: Apache-2.0
// The IRF_* environment (docs/configuration.md): one option table, parsed once into a Config.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/log.hpp"
#include "config/rank.hpp"

namespace irf::config {

/// Where the text summary goes.
enum class SummaryMode : std::uint8_t { stderr_only, file, both, none };

/// How a sample's replay passes run (IRF_REPLAY, docs/configuration.md).
enum class ReplayMode : std::uint8_t {
    automatic, ///< one pass per launch for a kernel that recurs, kernel replay for a first launch
    kernel,    ///< every pass on the one sampled launch, by kernel replay
    launches,  ///< one pass per launch only: a kernel launched once gets no counters
};

/// Which launches get their duration (IRF_TIMING, docs/configuration.md).
enum class TimingMode : std::uint8_t {
    all,     ///< every launch is timed
    sampled, ///< the first timing_first launches of each configuration, then 1 in timing_every
};

/// How kernels inside CUDA graphs are timed (IRF_GRAPH_TIMING, docs/configuration.md).
enum class GraphTiming : std::uint8_t {
    nodes,  ///< every node of every replay has its kernel record
    graphs, ///< the first graph_node_replays replays of each graph node by node, then the graph
};

/// How much irf logs to stderr (IRF_LOG); defined with the log in common/.
using LogLevel = common::LogLevel;

/// Kernels never profiled by default: NCCL and NVSHMEM collectives (kernel replay serializes
/// launches, which deadlocks multi-kernel communication protocols).
/// Kernels kernel replay can deadlock or corrupt (collectives, custom all-reduce, flag-spinning
/// peers); each entry is explained in docs/configuration.md, "Default exclude". Plain syntax
/// that RE2 and ECMAScript read alike.
inline constexpr const char* k_default_exclude =
    "(^|[^A-Za-z0-9_])(nccl|nvshmem|mscclpp|deep_ep|cross_device_reduce|symmetric_memory)"
    "|(^|[^A-Za-z])all_?reduce|All_?[Rr]educe";

/// Default output stem (before the "-r%r" rank suffix is added in a parallel job).
inline constexpr const char* k_default_output = "irf-%a-%h-%p";

/// Every IRF_* setting, with its default.
struct Config {
    std::string output = k_default_output;   ///< stem with placeholders (see expand_stem)
    SummaryMode summary = SummaryMode::both; ///< IRF_SUMMARY
    std::string kernels;                     ///< IRF_KERNELS regex; empty = every kernel
    std::string exclude = k_default_exclude; ///< IRF_EXCLUDE regex; empty = nothing excluded
    std::string nvtx_include; ///< IRF_NVTX_INCLUDE expressions (config/nvtx_expr.hpp)
    std::string nvtx_exclude; ///< IRF_NVTX_EXCLUDE expressions
    /// IRF_CAPTURE_RANGE=cudaProfilerApi: profile only between cudaProfilerStart/Stop.
    bool capture_profiler_api = false;
    std::uint64_t launch_skip = 0;             ///< IRF_LAUNCH_SKIP
    std::optional<std::uint64_t> launch_count; ///< IRF_LAUNCH_COUNT; nullopt = unlimited
    int samples = 1;                           ///< IRF_SAMPLES per distinct kernel
    std::string ceilings;                      ///< IRF_CEILINGS file; empty = auto
    std::string targets = "all";               ///< IRF_TARGETS as given (all, none, list)
    std::string gpus_dir;                      ///< IRF_GPUS_DIR: ':'-separated directories
    int callstack = 8;                         ///< IRF_CALLSTACK frames; 0 = off
    LogLevel log = LogLevel::warn;             ///< IRF_LOG
    bool disable = false;                      ///< IRF_DISABLE
    bool fast_intercept = false;               ///< IRF_FAST_INTERCEPT
    std::string backend = "cupti";             ///< IRF_BACKEND kind: "cupti" or "fake"
    std::string backend_arg;                   ///< the FILE of fake:FILE
    bool metrics_pipe_mix = false;             ///< IRF_METRICS: add the pipe-mix group
    bool metrics_tensor_types = false;         ///< IRF_METRICS: add tensor ops by input type
    /// IRF_TENSOR_TYPES=auto: kernels with tensor instructions get a second, tensor-types sample.
    bool tensor_types_auto = true;
    ReplayMode replay = ReplayMode::kernel;        ///< IRF_REPLAY
    TimingMode timing = TimingMode::all;           ///< IRF_TIMING
    std::uint64_t timing_first = 100;              ///< IRF_TIMING=sampled:K: launches timed first
    std::uint64_t timing_every = 100;              ///< IRF_TIMING=sampled:K:N: then 1 launch in N
    GraphTiming graph_timing = GraphTiming::nodes; ///< IRF_GRAPH_TIMING
    std::uint32_t graph_node_replays = 3; ///< IRF_GRAPH_TIMING=graphs:N: replays timed by node

    /// Effective settings by variable name (IRF_OUTPUT -> "irf-%a-%h-%p", ...), for the
    /// profile's `config` object.
    [[nodiscard]] std::map<std::string, std::string> effective() const;
};

/// One row of the option table: the single source of the docs, parsing and `effective()`.
struct OptionSpec {
    const char* name;        ///< e.g. "IRF_SAMPLES"
    const char* default_doc; ///< the default as written in the docs
    const char* meaning;     ///< one-sentence description
    const char* on_invalid;  ///< what an invalid value does: ignored or irf disabled
    bool disables;           ///< true: an invalid value disables irf; false: default is used
    /// Stores a non-empty value into the config; false with `problem` set when invalid.
    bool (*apply)(Config& config, const std::string& value, std::string& problem);
    /// The effective value of this setting as text.
    std::string (*show)(const Config& config);
};

/// The option table, in documentation order.
[[nodiscard]] const std::vector<OptionSpec>& option_table();

/// The option table as a Markdown table (the one in docs/configuration.md).
[[nodiscard]] std::string options_markdown();

/// One invalid value, unformatted (for tools that name their own option instead).
struct SettingProblem {
    std::string name;    ///< e.g. "IRF_SAMPLES"
    std::string value;   ///< as given
    std::string problem; ///< e.g. "larger than 1000"
};

/// Result of parsing the environment.
struct ParseResult {
    Config config;
    /// One line per invalid value: "[irf] IRF_X=value: <problem>; <consequence>".
    std::vector<std::string> errors;
    /// The same invalid values, one per entry of `errors`, in the same order.
    std::vector<SettingProblem> problems;
    /// True when an invalid value of a variable that is unsafe to ignore disables irf.
    bool disabled_by_error = false;
};

/// Reads every IRF_* variable through `env`; empty values count as unset. Never throws.
[[nodiscard]] ParseResult parse_env(const EnvLookup& env);

/// IRF_GPUS_DIR from `env` when every part is a directory, else "" (parse_env reports why).
[[nodiscard]] std::string gpus_dir_setting(const EnvLookup& env);

/// What expand_stem substitutes.
struct StemContext {
    std::string app;         ///< %a: executable base name
    std::string host;        ///< %h: short host name
    long long pid = 0;       ///< %p
    std::optional<int> rank; ///< %r (0 when absent)
    EnvLookup env;           ///< %j job id and %q{VAR}
};

/// The batch job id from SLURM_JOB_ID, PBS_JOBID, LSB_JOBID, COBALT_JOBID, FLUX_JOB_ID or
/// JOB_ID (SGE), first set wins; nullopt outside a batch job.
[[nodiscard]] std::optional<std::string> detect_job_id(const EnvLookup& env);

/// Checks the placeholders of `stem`; "" when valid, else the problem ("unknown placeholder
/// %x", "unterminated %q{").
[[nodiscard]] std::string check_stem(const std::string& stem);

/// Adds "-r%r" when `rank` is set and `stem` has no %r, so MPI ranks never share a file.
[[nodiscard]] std::string stem_with_rank(const std::string& stem, std::optional<int> rank);

/// Expands %a %h %p %r %j %q{VAR} %% in a stem accepted by check_stem. '/' in %a %h %j values
/// becomes '_'; %q{VAR} is inserted as is (it may name a directory); unset VAR gives "".
/// Throws std::invalid_argument (one line naming IRF_OUTPUT) when a path component written
/// with placeholders expands to nothing ("%q{UNSET}/p" would be "/p", "%q{UNSET}" a hidden file).
[[nodiscard]] std::string expand_stem(const std::string& stem, const StemContext& context);

/// Name of a summary mode / log level as written in IRF_SUMMARY / IRF_LOG.
[[nodiscard]] const char* to_string(SummaryMode mode);
/// Name of a log level as written in IRF_LOG.
[[nodiscard]] const char* to_string(LogLevel level);

} // namespace irf::config

// SPDX-License-Identifier: Apache-2.0
// Plain profile types (schema irf.profile/v1): what irf measured in one process, per kernel.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/profile/analysis.hpp"
#include "model/profile/rank_stats.hpp"
#include "model/profile/region_types.hpp"

namespace irf::model {

/// Canonical counter name (docs/metrics.md) -> value summed over the profiled launches.
using Counters = std::map<std::string, double, std::less<>>;

/// Grid, block, dynamic shared memory and registers of a launch.
struct LaunchConfig {
    std::array<std::uint32_t, 3> grid{1, 1, 1};
    std::array<std::uint32_t, 3> block{1, 1, 1};
    std::uint32_t smem_bytes = 0; ///< dynamic + static shared memory per block
    std::uint32_t regs = 0;       ///< registers per thread
};

/// Duration statistics over all timed launches of a kernel, in nanoseconds.
struct TimeStats {
    double total = 0, min = 0, mean = 0, max = 0;
};

/// Timed launches of one kernel whose durations lie within 1.5x of each other
/// (model/profile/duration_clusters.hpp).
struct DurationCluster {
    double min_ns = 0, max_ns = 0, time_ns = 0;
    std::uint64_t launches = 0;
    std::uint64_t profiled = 0; ///< of them, launches whose counters are in the kernel's
};

/// False for the launch of an import whose files have no launch columns (grid 0 x 0 x 0): its
/// grid, block, shared memory and registers are unknown, never shown as values.
[[nodiscard]] inline bool launch_known(const LaunchConfig& l) {
    return l.grid[0] > 0 && l.grid[1] > 0 && l.grid[2] > 0;
}

/// One distinct kernel: (demangled name, launch configuration, call site).
struct KernelRecord {
    std::string name; ///< demangled
    std::string mangled;
    std::string call_site; ///< symbolized host frames joined by " < ", empty if not captured
    LaunchConfig launch;
    std::uint64_t launches = 0;          ///< every launch seen
    std::uint64_t profiled_launches = 0; ///< launches whose counters are in `counters`
    TimeStats time_ns;                   ///< over every timed launch
    /// No launch was timed and nothing in the input gives a duration (an import of an export
    /// without one): time_ns is unknown, written as nulls and shown as unknown, never as 0 ns.
    bool untimed = false;
    /// The longest first launch when it is left out of min/mean/max (JSON time_ns.first).
    std::optional<double> first_launch_ns;
    /// Profiled launches counted at an imputed duration (JSON time_ns.imputed).
    std::uint64_t imputed_launches = 0;
    /// Launches left untimed by IRF_TIMING=sampled, in time_ns.total at an estimate (JSON
    /// time_ns.estimated.launches); 0: the total is measured.
    std::uint64_t estimated_launches = 0;
    /// One standard error of that estimate (time_ns.estimated.error_ns); nullopt: unknown.
    std::optional<double> estimate_error_ns;
    /// Of the samples in `counters`, those gathered one pass per launch (IRF_REPLAY; JSON
    /// replay.launches), and the launches their passes ran on (replay.pass_launches).
    std::uint64_t launch_samples = 0;
    std::uint64_t pass_launches = 0;
    Counters counters; ///< raw canonical counters (time_ns: summed duration of profiled launches)
    std::vector<std::string> notes; ///< e.g. "first launch only: duration includes module load"
    /// Duration clusters when the launches spread over more than 1.5x; else empty.
    std::vector<DurationCluster> duration_clusters;
    /// Why no launch was profiled (e.g. "graph node: timed only"); empty when counters exist.
    std::string no_counters;
    bool collective = false;                ///< a communication kernel (IRF_EXCLUDE's default list)
    std::optional<KernelAnalysis> analysis; ///< filled by model::analyze
    std::vector<KernelRegion> regions;      ///< one per NVTX range path it ran under
    std::optional<RankStats> ranks;         ///< merged job profiles only (irf-report merge)
};

/// The projections of `analysis` (none without one), by reference: `a ? a->projection :
/// std::vector<Projection>{}` copies every projection (docs/performance.md, "Tools on 100,000
/// kernels").
[[nodiscard]] inline const std::vector<Projection>&
projections_of(const std::optional<KernelAnalysis>& analysis) {
    static const std::vector<Projection> s_none;
    return analysis ? analysis->projection : s_none;
}

/// The GPU the profile was taken on.
struct GpuInfo {
    std::string name;
    std::string chip; ///< e.g. "GH100"
    std::string cc;   ///< e.g. "9.0"
    int sms = 0;
    /// SMs the process could use when an SM limit applied (MPS active-thread percentage in
    /// `irf trajectory`); absent for a whole GPU.
    std::optional<int> sms_active;
    double clock_hz = 0; ///< max SM clock
    std::uint64_t l2_bytes = 0;
    std::uint64_t memory_bytes = 0;
    std::string driver; ///< driver version string
};

/// How much of the application irf saw and profiled.
/// Where the samples' wall time went (CUPTI backend; issue 55 item 2): summed over samples.
struct SamplePhases {
    std::uint64_t samples = 0; ///< samples timed
    double setup_ms = 0;       ///< the context's profiler set up (when needed) and Start
    double launch_ms = 0;      ///< the sampled launch call: the kernel and its replay passes
    double decode_ms = 0;      ///< Stop, DecodeData and evaluation of the counters
};

struct Coverage {
    std::uint64_t launches = 0;          ///< launches intercepted
    std::uint64_t kernels = 0;           ///< distinct kernels
    std::uint64_t profiled_launches = 0; ///< launches run under a counter range
    int passes = 0;                      ///< replay passes per profiled launch
    /// Samples thrown away, by reason (docs/output-schema.md); absent from JSON when empty.
    std::map<std::string, std::uint64_t> discarded_samples;
    std::uint64_t invalid_durations = 0; ///< activity records with zero or reversed timestamps
    std::uint64_t lost_durations = 0;    ///< launches whose activity record never came
    SamplePhases sample_phases;          ///< absent from JSON when no sample was timed
};

/// Where an imported profile came from (irf-report import, docs/import.md).
struct ImportInfo {
    std::string tool;                 ///< "ncu", "nvprof" or both joined by "+"
    std::string version;              ///< the tool's version when a file says it, else ""
    std::vector<std::string> files;   ///< the imported files, in command-line order
    std::vector<std::string> formats; ///< each file's table format, e.g. "ncu-csv-long"
};

/// A whole process profile as written to <stem>.json.
struct Profile {
    std::string schema = "irf.profile/v1";
    std::string tool = "irf";
    std::string version;
    std::string app;
    std::vector<std::string> argv;
    std::int64_t pid = 0;
    std::optional<int> rank;
    std::string host;
    std::string start_time; ///< ISO 8601 UTC
    std::string end_time;
    std::map<std::string, std::string> config; ///< effective IRF_* settings
    GpuInfo gpu;
    std::optional<CeilingsUsed> ceilings; ///< filled by model::analyze
    Coverage coverage;
    std::vector<KernelRecord> kernels;
    std::vector<RegionRecord> regions; ///< by time, rolled up by model::roll_up_regions
    std::vector<std::string> warnings;
    std::optional<JobInfo> job;         ///< merged job profiles only (irf-report merge)
    std::optional<ImportInfo> imported; ///< imported profiles only (irf-report import)
    /// The targets ProjectionBrief::target indexes, when analyze folded the projections; in
    /// memory only (never in the JSON, which a folded profile is not written to).
    std::vector<std::string> brief_targets;
};

} // namespace irf::model

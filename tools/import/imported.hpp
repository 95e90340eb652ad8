// SPDX-License-Identifier: Apache-2.0
// What the readers produce: per file, its kernels (name, launch, launches, counters summed over
// the profiled launches, timing), before files are joined into one profile.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/foreign_metrics.hpp"
#include "model/profile/profile.hpp"

namespace irf::import {

/// One kernel (name and launch configuration) as one file saw it.
struct ImportedKernel {
    std::string name;
    std::optional<model::LaunchConfig> launch; ///< absent where the file has no launch columns
    std::uint64_t launches = 0;                ///< launches the file accounts for
    std::uint64_t profiled_launches = 0;       ///< launches whose counters are in `counters`
    model::Counters counters;                  ///< canonical, summed over the profiled launches
    std::optional<model::TimeStats> time_ns;   ///< when the file times the launches
    std::set<std::string> notes;
    std::size_t line = 0; ///< where the kernel first appears (for messages)
};

/// One imported file.
struct ImportedFile {
    std::string path;
    std::string tool;         ///< "ncu" or "nvprof"
    std::string version;      ///< when the file says it, else ""
    std::string format;       ///< e.g. "ncu-csv-long", "nvprof-csv-metrics"
    std::string device;       ///< the Device column as the file has it ("0" in ncu: an index)
    std::string display_name; ///< ncu's device__attribute_display_name, when collected
    std::string cc;           ///< "M.m" when the file says it
    int sms = 0;              ///< SMs, when the file has device__attribute_multiprocessor_count
    std::vector<ImportedKernel> kernels;
    std::set<std::string> unmapped; ///< metric names irf has no use for (listed in docs)
    /// What the profiler said of its own run: failed launches, errors (profiler_log.hpp).
    std::vector<std::string> profiler_messages;
};

/// The counters of one launch (or one summary row set) while its metrics are read: for each
/// canonical counter the best-ranked foreign names (config/foreign_metrics.hpp).
class LaunchCounters {
public:
    /// Offers `value` (already in base units and divided into sectors) of foreign name `name`.
    void offer(const std::string& name, const config::ForeignMetric& metric, double value);

    /// The canonical counters chosen, with the notes of the fallbacks used.
    [[nodiscard]] model::Counters resolve(std::set<std::string>& notes) const;

    /// True when no counter was offered.
    [[nodiscard]] bool empty() const { return m_best.empty(); }

private:
    struct Candidate {
        config::ForeignMetric metric;
        double value = 0;
        std::set<std::string> names;
    };
    std::map<std::string, Candidate> m_best;
};

/// One launch as read: identity, counters and duration (either may be missing).
struct LaunchRead {
    std::string name;
    std::optional<model::LaunchConfig> launch;
    bool launch_from_columns = false; ///< Grid/Block Size columns (3-D) rather than section rows
    /// ncu's {sm,smsp,gpc}__cycles_elapsed.{avg,max} by name, and each unit's cycle rate in Hz
    /// (its .avg.per_second) by unit ("sm"): a time when the file has no duration.
    std::map<std::string, double> elapsed_cycles, cycle_rates;
    model::Counters counters; ///< without time_ns (kept in `duration_ns`)
    std::optional<double> duration_ns;
    std::set<std::string> notes;
    std::size_t line = 0;
};

/// Kernels of one file built from launches or summary rows, keyed by name and launch.
class KernelTable {
public:
    /// Adds one launch: timed when it has a duration, profiled when it has counters.
    void add_launch(LaunchRead launch);

    /// Adds a summary (ncu --print-summary, nvprof): `invocations` launches whose per-launch
    /// averages are `averages`; `time` when the summary gives durations.
    void add_summary(LaunchRead identity, std::uint64_t invocations,
                     const model::Counters& averages, std::optional<model::TimeStats> time);

    /// The kernels in first-seen order; a counter missing from some profiled launches of a
    /// kernel is left out with a note (a partial sum would be a wrong number).
    [[nodiscard]] std::vector<ImportedKernel> finish();

private:
    struct Accumulator {
        ImportedKernel kernel;
        std::map<std::string, std::uint64_t> counter_launches;
        std::uint64_t timed = 0;
        double profiled_ns = 0;
        std::uint64_t profiled_timed = 0;
    };
    Accumulator& entry(const LaunchRead& launch);
    std::map<std::string, std::size_t> m_index;
    std::vector<Accumulator> m_kernels;
};

/// "name|grid|block" (or "name" without a launch), the name canonical
/// (common::canonical_kernel_name): the key kernels are joined by.
[[nodiscard]] std::string kernel_key(const std::string& name,
                                     const std::optional<model::LaunchConfig>& launch);

} // namespace irf::import

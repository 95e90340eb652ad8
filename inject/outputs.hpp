// SPDX-License-Identifier: Apache-2.0
// At exit: the profile header, ceilings and targets, the model, and the output files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/env.hpp"
#include "intercept/backend.hpp"
#include "intercept/collector.hpp"

namespace irf::inject {

/// What the injection knew at start, needed to write the profile.
struct RunInfo {
    config::Config config;
    std::vector<std::string> config_errors; ///< parse_env lines, copied into warnings
    std::string start_time;
    std::string start_dir;   ///< a relative IRF_OUTPUT resolves against it
    std::string library_dir; ///< anchor of the shipped ceilings database
    int forked_from = 0;     ///< in a forked child, the parent's pid (0: not a forked child)
    /// What fd 2 was at start (device and inode; both 0 when fstat failed).
    std::uint64_t stderr_dev = 0, stderr_ino = 0;
};

/// Notes what fd 2 is now into `run` (at start: irf writes to stderr only while it is the same).
void note_stderr(RunInfo& run) noexcept;

/// Builds the profile from the collector and backend, analyses it and writes <stem>.json and
/// the text summary (IRF_SUMMARY); logs one line saying where it went or why not. A forked
/// child that launched nothing writes nothing; one whose stem is its parent's (no %p) writes
/// <stem>-child<pid> beside it, never over it. Never throws.
void write_outputs(const RunInfo& run, intercept::Collector& collector,
                   const intercept::Backend* backend) noexcept;

/// The output stem for this process: IRF_OUTPUT with "-r%r" in a parallel job, expanded, made
/// absolute against `run.start_dir`.
[[nodiscard]] std::string output_stem(const RunInfo& run, const std::string& app,
                                      std::optional<int> rank);

} // namespace irf::inject

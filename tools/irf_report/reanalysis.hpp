// SPDX-License-Identifier: Apache-2.0
// --ceilings and --targets of the irf-report commands that (re)analyse a saved profile (analyze,
// csv, compare): one spelling, one resolution (shipped names or YAML files), one rule for the
// targets a profile already has.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "config/ceilings.hpp"
#include "model/profile/profile.hpp"

namespace irf::report {

/// --ceilings and --targets as parsed; empty = not given.
struct AnalysisOptions {
    std::string ceilings;
    std::vector<std::string> targets;
};

/// The directories of the shipped ceilings database, as this binary finds them.
[[nodiscard]] std::vector<std::string> shipped_dirs();

/// Adds --ceilings NAME|FILE and --targets LIST to `app`.
void add_analysis_options(CLI::App& app, AnalysisOptions& options);

/// True when some kernel of `profile` carries an analysis (model::analyze ran on it).
[[nodiscard]] bool is_analysed(const model::Profile& profile);

/// The projection targets already in `profile`, in first-seen order: those of its kernels'
/// projections, or, in a profile never analysed, the IRF_TARGETS value it was recorded with.
[[nodiscard]] std::vector<std::string> profile_targets(const model::Profile& profile);

/// Analyses `profile` (read from `input`) with `options`: the ceilings given, else those of its
/// GPU; the targets given (then recorded as its IRF_TARGETS), else profile_targets, each found
/// as a shipped name or as a file of the recorded IRF_TARGETS with that gpu.key (one that cannot
/// be loaded any more is left out with a note). Notes go to stderr as "<tool>: <note>". Throws
/// InputError. Runs on analysis_threads() threads; `projection_details` false drops what only the
/// JSON shows of each projection (model::AnalyzeSettings), for commands that do not write it.
/// `fold_projections`: model::AnalyzeSettings's, for a caller that shows no more of a projection
/// than its times, speedup and confidence (the text summary, the CSV). `keep_counters` false:
/// model::AnalyzeSettings's, for a caller that reads no counter after the analysis.
void reanalyze(model::Profile& profile, const AnalysisOptions& options, const std::string& input,
               const std::string& tool, bool projection_details = true,
               bool fold_projections = false, bool keep_counters = true);

/// reanalyze when `options` asks for other ceilings or targets, or when `profile` was never
/// analysed (then a note on stderr says so, for the tools that show analysed values).
void analyze_if_needed(model::Profile& profile, const AnalysisOptions& options,
                       const std::string& input, const std::string& tool,
                       bool projection_details = true, bool fold_projections = false,
                       bool keep_counters = true);

/// The ceilings a re-analysis of a profile uses: the source and the targets, in order.
struct AnalysisPlan {
    config::Ceilings source;
    std::vector<config::Ceilings> targets;
};

/// What reanalyze analyses `profile` with (only its header is read, and its kernels'
/// projections when `options` names no target); its notes, "<tool>: <note>", are added to
/// `notes` in the order reanalyze prints them. Throws InputError or config::CeilingsError.
[[nodiscard]] AnalysisPlan plan_analysis(const model::Profile& profile,
                                         const AnalysisOptions& options, const std::string& input,
                                         const std::string& tool, std::vector<std::string>& notes);

/// Writes each note on its own line to stderr.
void print_notes(const std::vector<std::string>& notes);

/// The note analyze_if_needed writes to stderr before it analyses a raw profile.
void note_raw_profile(const AnalysisOptions& options, const std::string& input,
                      const std::string& tool);

/// What a command keeps of the analysis (model::AnalyzeSettings's).
struct AnalysisKeep {
    bool projection_details = true;
    bool fold_projections = false;
    bool keep_counters = true;
};

/// A profile read by read_analysed, and what is left of its analysis to do.
struct ReadAnalysed {
    model::Profile profile;
    /// Writes the notes and ends the analysis of the profile (called once, on `profile`).
    std::function<void(model::Profile&)> finish;
};

/// load_input, then (in `finish`) analyze_if_needed, or reanalyze when `always`, with `keep`;
/// but where the header is enough to plan the analysis (a raw profile, or --targets given),
/// each kernel is analysed as soon as it is read, so that it holds no counter the command does
/// not keep while the next ones are read. The same profile, notes and errors as the two calls,
/// in the same order: a read's errors come from read_analysed, the analysis's from `finish`.
[[nodiscard]] ReadAnalysed read_analysed(const std::string& path, const AnalysisOptions& options,
                                         const std::string& tool, const AnalysisKeep& keep,
                                         bool always = false);

/// read_analysed, then its `finish`.
[[nodiscard]] model::Profile load_analysed(const std::string& path, const AnalysisOptions& options,
                                           const std::string& tool, const AnalysisKeep& keep,
                                           bool always = false);

/// Threads the commands analyse kernels on: the hardware's, 1 to 8.
[[nodiscard]] unsigned analysis_threads();

} // namespace irf::report

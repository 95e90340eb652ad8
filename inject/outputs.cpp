// SPDX-License-Identifier: Apache-2.0
// At exit: profile header, ceilings (IRF_CEILINGS, shipped entry, derived), targets, analysis,
// and the atomic writes of <stem>.json and <stem>.txt.
#include "inject/outputs.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>

#include "common/environment.hpp"
#include "common/file_io.hpp"
#include "common/log.hpp"
#include "common/terminal.hpp"
#include "config/ceilings_choice.hpp"
#include "config/gpu_database.hpp"
#include "config/output_path.hpp"
#include "config/rank.hpp"
#include "inject/lifecycle.hpp"
#include "inject/process_info.hpp"
#include "inject/run_notes.hpp"
#include "model/analyze.hpp"
#include "model/profile/profile_json.hpp"
#include "model/profile/version.hpp"
#include "model/summary/text_summary.hpp"

namespace irf::inject {
namespace {

using config::LogLevel;

/// An IRF_* value found invalid only at exit: one log line and warning in parse_env's format,
/// and the profile's config shows the default that was used instead.
void ignored_setting(model::Profile& profile, const std::string& name, const std::string& value,
                     const std::string& problem, const std::string& fallback) {
    const std::string line = name + "=" + value + ": " + problem + "; ignored, using default";
    common::log_line(LogLevel::error, line);
    profile.warnings.push_back(line);
    profile.config[name] = fallback;
}

/// The detected GPU, as config::choose_ceilings wants it.
config::GpuProperties gpu_properties(const model::GpuInfo& gpu) {
    return {gpu.name, gpu.chip, gpu.cc, gpu.sms, gpu.clock_hz / 1e6, gpu.l2_bytes};
}

/// The source ceilings (config::choose_ceilings); nullopt (with a warning) when the GPU is
/// unknown.
std::optional<config::Ceilings> source_ceilings(const RunInfo& run, model::Profile& profile,
                                                const std::vector<std::string>& dirs) {
    const config::GpuProperties gpu = gpu_properties(profile.gpu);
    config::CeilingsChoice choice;
    try {
        choice = config::choose_ceilings(run.config.ceilings, "IRF_CEILINGS", gpu, dirs);
    } catch (const std::exception& e) {
        // parse_env validated it at start; a file changed since: same line and effect as there.
        ignored_setting(profile, "IRF_CEILINGS", run.config.ceilings, e.what(), "auto");
        choice = config::choose_ceilings("", "IRF_CEILINGS", gpu, dirs);
    }
    for (const std::string& note : choice.notes) {
        profile.warnings.push_back(note);
    }
    return choice.ceilings;
}

void analyze(const RunInfo& run, model::Profile& profile) {
    const std::vector<std::string> dirs = config::gpus_dirs(run.library_dir);
    const std::optional<config::Ceilings> source = source_ceilings(run, profile, dirs);
    if (!source) {
        return;
    }
    std::vector<config::Ceilings> targets;
    try {
        targets = config::resolve_targets(run.config.targets, dirs);
    } catch (const std::exception& e) {
        ignored_setting(profile, "IRF_TARGETS", run.config.targets, e.what(), "all");
        try {
            targets = config::resolve_targets("all", dirs);
        } catch (const std::exception&) { // shipped entries unusable: no projection
        }
    }
    model::analyze(profile, *source, targets);
}

/// The SMs an MPS active-thread limit leaves to this process (docs/trajectories.md): the share
/// rounded up, as `irf trajectory` requests it; nullopt without a valid limit.
std::optional<int> mps_active_sms(int sms) {
    const char* text = common::process_env("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE");
    if (text == nullptr || sms <= 0) {
        return std::nullopt;
    }
    char* end = nullptr;
    const double pct = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(pct > 0) || pct >= 100) {
        return std::nullopt;
    }
    return static_cast<int>(std::ceil(sms * pct / 100.0 - 1e-9));
}

model::Profile build_profile(const RunInfo& run, intercept::Collector& collector,
                             const intercept::Backend* backend) {
    model::Profile p;
    p.version = model::version();
    p.argv = read_argv();
    p.app = app_name(p.argv);
    p.pid = ::getpid();
    p.rank = config::detect_rank();
    p.host = config::short_host_name();
    p.start_time = run.start_time;
    p.end_time = now_iso8601();
    p.config = run.config.effective();
    for (const std::string& line : run.config_errors) {
        p.warnings.push_back(line.rfind("[irf] ", 0) == 0 ? line.substr(6) : line);
    }
    if (backend != nullptr) {
        p.gpu = backend->gpu_info();
        p.gpu.sms_active = mps_active_sms(p.gpu.sms);
        p.coverage.passes = backend->passes();
        p.coverage.sample_phases = backend->sample_phases();
    }
    collector.fill_profile(p);
    for (std::string& note : empty_run_notes(p, run.config.kernels)) {
        p.warnings.push_back(std::move(note));
    }
    const std::string nvtx =
        nvtx_injection_note(common::process_env("NVTX_INJECTION64_PATH"),
                            !run.config.nvtx_include.empty() || !run.config.nvtx_exclude.empty(),
                            run.config.backend != "fake");
    if (!nvtx.empty()) {
        p.warnings.push_back(nvtx);
    }
    for (std::string& note : nvtx_filter_notes(p, run.config.nvtx_include)) {
        p.warnings.push_back(std::move(note));
    }
    return p;
}

/// What write_files did: the log line, and whether it reports a failure (an error line).
struct WriteOutcome {
    bool failed = false;
    std::string line;
};

/// Writes the files; returns the log line.
/// True when fd 2 is no longer the file it was at start (or is closed): an application that
/// reopened it on a data file must not get irf's summary and lines appended to its data.
bool stderr_moved(const RunInfo& run) {
    if (run.stderr_dev == 0 && run.stderr_ino == 0) {
        return false; // unknown at start: as before
    }
    struct stat now {};
    return ::fstat(STDERR_FILENO, &now) != 0 ||
           static_cast<std::uint64_t>(now.st_dev) != run.stderr_dev ||
           static_cast<std::uint64_t>(now.st_ino) != run.stderr_ino;
}

WriteOutcome write_files(const RunInfo& run, const model::Profile& profile, const std::string& stem,
                         bool to_stderr) {
    const config::SummaryMode mode = run.config.summary;
    std::string error = model::write_profile_file(stem + ".json", profile, note_temporary);
    if (!error.empty()) {
        return {true, "profile not written: " + error};
    }
    std::string where = stem + ".json";
    if (mode == config::SummaryMode::file || mode == config::SummaryMode::both ||
        mode == config::SummaryMode::stderr_only) {
        const std::string text = model::text_summary(profile);
        if (mode != config::SummaryMode::stderr_only) {
            error = common::write_file_atomic(stem + ".txt", text, note_temporary);
            where +=
                error.empty() ? " and " + stem + ".txt" : " (summary not written: " + error + ")";
        }
        if (mode != config::SummaryMode::file && to_stderr) {
            // On a terminal the table fits its width (the file keeps every column).
            model::SummaryView view;
            view.max_width = common::terminal_columns(STDERR_FILENO);
            const std::string shown =
                view.max_width > 0 ? model::text_summary(profile, view) : text;
            std::fputs(shown.c_str(), stderr);
            std::fflush(stderr);
        }
    }
    return {false, "profile written to " + where + " (" +
                       std::to_string(profile.coverage.launches) + " launches, " +
                       std::to_string(profile.coverage.kernels) + " kernels, " +
                       std::to_string(profile.coverage.profiled_launches) + " profiled)"};
}

} // namespace

std::string output_stem(const RunInfo& run, const std::string& app, std::optional<int> rank) {
    return config::process_output_stem(run.config.output, app, rank, run.start_dir);
}

namespace {

/// Where this process writes: output_stem, or beside the parent's file in a forked child, which
/// usually exits after its parent wrote and would replace it (config::forked_child_stem).
std::string own_stem(const RunInfo& run, const model::Profile& profile) {
    if (run.forked_from == 0) {
        return output_stem(run, profile.app, profile.rank);
    }
    return config::forked_child_stem(run.config.output, profile.app, profile.rank, run.start_dir,
                                     run.forked_from, static_cast<int>(::getpid()));
}

/// Without the summary on stderr (IRF_SUMMARY=none or file), a setting that let nothing be
/// profiled (IRF_KERNELS, IRF_NVTX_INCLUDE) is said in one [irf] line at exit too, not only in
/// the JSON's warnings (issue 53 item 10).
void say_why_nothing_was_profiled(const RunInfo& run, const model::Profile& profile) {
    const config::SummaryMode mode = run.config.summary;
    if (mode == config::SummaryMode::stderr_only || mode == config::SummaryMode::both ||
        profile.coverage.profiled_launches > 0 || profile.coverage.launches == 0) {
        return;
    }
    std::vector<std::string> why = empty_run_notes(profile, run.config.kernels);
    for (std::string& note : nvtx_filter_notes(profile, run.config.nvtx_include)) {
        why.push_back(std::move(note));
    }
    if (!why.empty()) {
        common::log_line(LogLevel::warn, why.front());
    }
}

} // namespace

void write_outputs(const RunInfo& run, intercept::Collector& collector,
                   const intercept::Backend* backend) noexcept {
    try {
        model::Profile profile = build_profile(run, collector, backend);
        if (run.forked_from != 0 && profile.coverage.launches == 0) {
            // A worker forked by the application (a data loader) that used no GPU: its empty
            // profile would only hide the parent's (or crowd the directory).
            common::log_line(LogLevel::info, "forked child " + std::to_string(::getpid()) +
                                                 " launched no kernel: no profile written");
            return;
        }
        try {
            analyze(run, profile);
        } catch (const std::exception& e) {
            profile.warnings.push_back(std::string("analysis failed: ") + e.what());
        }
        const bool moved = stderr_moved(run);
        if (moved) {
            profile.warnings.push_back(
                "stderr was reopened on another file during the run: irf wrote nothing to it "
                "(the summary is in the .txt when IRF_SUMMARY writes one)");
            common::mute_log();
        }
        const std::string stem = own_stem(run, profile);
        const WriteOutcome outcome = write_files(run, profile, stem, !moved);
        say_why_nothing_was_profiled(run, profile);
        common::log_repeats(); // the counts of folded warnings, before the closing line
        common::log_line(outcome.failed ? LogLevel::error : LogLevel::warn, outcome.line);
    } catch (const std::exception& e) {
        common::log_line(LogLevel::error, std::string("profile not written: ") + e.what());
    } catch (...) {
        common::log_line(LogLevel::error, "profile not written: unknown error");
    }
}

void note_stderr(RunInfo& run) noexcept {
    struct stat now {};
    if (::fstat(STDERR_FILENO, &now) == 0) {
        run.stderr_dev = static_cast<std::uint64_t>(now.st_dev);
        run.stderr_ino = static_cast<std::uint64_t>(now.st_ino);
    }
}

} // namespace irf::inject

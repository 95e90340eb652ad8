// SPDX-License-Identifier: Apache-2.0
// --ceilings and --targets of irf-report analyze, csv and compare.
#include "tools/irf_report/reanalysis.hpp"

#include <algorithm>
#include <iostream>
#include <thread>

#include "common/text_safety.hpp"
#include "config/ceilings_choice.hpp"
#include "config/ceilings_yaml.hpp"
#include "config/gpu_database.hpp"
#include "config/text_list.hpp"
#include "model/analyze.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

/// The source ceilings (config::choose_ceilings, as libirf at exit); notes go to stderr.
config::Ceilings source_ceilings(const std::string& requested, const model::Profile& p,
                                 const std::string& input, const std::string& tool,
                                 const std::vector<std::string>& dirs,
                                 std::vector<std::string>& notes) {
    const model::GpuInfo& g = p.gpu;
    const config::GpuProperties gpu{g.name, g.chip, g.cc, g.sms, g.clock_hz / 1e6, g.l2_bytes};
    const config::CeilingsChoice choice =
        config::choose_ceilings(requested, "--ceilings", gpu, dirs);
    for (const std::string& note : choice.notes) {
        notes.push_back(tool + ": " + note);
    }
    if (!choice.ceilings) {
        throw InputError(input + ": gpu: no SM count or compute capability to choose "
                                 "ceilings from; pass --ceilings NAME or FILE.yaml");
    }
    return *choice.ceilings;
}

/// The YAML file among the recorded IRF_TARGETS whose gpu.key is `name` (a projection names its
/// target by key, a file target by the key inside the file).
std::optional<config::Ceilings> recorded_file(const model::Profile& p, const std::string& name,
                                              const std::vector<std::string>& dirs) {
    const auto recorded = p.config.find("IRF_TARGETS");
    for (const std::string& item : recorded == p.config.end()
                                       ? std::vector<std::string>{}
                                       : config::split(recorded->second, ',')) {
        try {
            if (config::looks_like_path(item)) {
                config::Ceilings c = config::load_named_ceilings(item, dirs, "IRF_TARGETS");
                if (c.gpu.key == name) {
                    return c;
                }
            }
        } catch (const config::CeilingsError&) { // gone: said below if nothing else has it
        }
    }
    return std::nullopt;
}

/// The profile's own targets, each loaded on its own: one that is gone (a YAML file of another
/// machine) is left out with a note rather than failing the whole analysis.
std::vector<config::Ceilings> recorded_targets(const model::Profile& p, const std::string& tool,
                                               const std::vector<std::string>& dirs,
                                               std::vector<std::string>& notes) {
    std::vector<config::Ceilings> out;
    for (const std::string& name : profile_targets(p)) {
        try {
            if (auto file = recorded_file(p, name, dirs)) {
                out.push_back(std::move(*file));
                continue;
            }
            for (config::Ceilings& c : config::resolve_targets(name, dirs)) {
                out.push_back(std::move(c));
            }
        } catch (const config::CeilingsError& e) {
            notes.push_back(
                tool + ": target " + name +
                " of the profile cannot be loaded; left out (pass --targets): " + e.what());
        }
    }
    return out;
}

} // namespace

AnalysisPlan plan_analysis(const model::Profile& profile, const AnalysisOptions& o,
                           const std::string& input, const std::string& tool,
                           std::vector<std::string>& notes) {
    const std::vector<std::string> dirs = shipped_dirs();
    AnalysisPlan plan{source_ceilings(o.ceilings, profile, input, tool, dirs, notes), {}};
    plan.targets = o.targets.empty()
                       ? recorded_targets(profile, tool, dirs, notes)
                       : config::resolve_targets(config::join(o.targets, ","), dirs, "--targets");
    return plan;
}

void print_notes(const std::vector<std::string>& notes) {
    for (const std::string& note : notes) {
        std::cerr << note << "\n";
    }
}

void note_raw_profile(const AnalysisOptions& o, const std::string& input, const std::string& tool) {
    std::cerr << tool << ": " << common::printable(input)
              << " has no analysis (a raw profile); analysed now"
              << (o.ceilings.empty() ? " with the ceilings of its GPU" : "") << "\n";
}

std::vector<std::string> shipped_dirs() {
    return config::gpus_dirs(exe_dir());
}

void add_analysis_options(CLI::App& app, AnalysisOptions& o) {
    app.add_option("--ceilings", o.ceilings,
                   "Ceilings of the profiled GPU: a shipped name or a YAML file (default: the "
                   "shipped entry matching it, else derived)");
    app.add_option("--targets", o.targets,
                   "Project onto these GPUs: shipped names or YAML files, comma-separated, all or "
                   "none (default: the targets already in the profile)")
        ->delimiter(',');
}

bool is_analysed(const model::Profile& p) {
    return std::any_of(p.kernels.begin(), p.kernels.end(),
                       [](const model::KernelRecord& k) { return k.analysis.has_value(); });
}

std::vector<std::string> profile_targets(const model::Profile& p) {
    std::vector<std::string> names;
    for (const model::KernelRecord& k : p.kernels) {
        for (const model::Projection& proj : model::projections_of(k.analysis)) {
            if (std::find(names.begin(), names.end(), proj.target) == names.end()) {
                names.push_back(proj.target);
            }
        }
    }
    const auto recorded = p.config.find("IRF_TARGETS");
    if (names.empty() && !is_analysed(p) && recorded != p.config.end()) {
        names = config::split(recorded->second, ',');
    }
    return names;
}

unsigned analysis_threads() {
    // Past a few threads the allocator, not the arithmetic, limits a kernel's analysis; 8 bounds
    // the arenas (and memory) a large machine would add for little.
    return std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
}

void reanalyze(model::Profile& profile, const AnalysisOptions& o, const std::string& input,
               const std::string& tool, bool projection_details, bool fold_projections,
               bool keep_counters) {
    try {
        std::vector<std::string> notes;
        AnalysisPlan plan;
        try {
            plan = plan_analysis(profile, o, input, tool, notes);
        } catch (...) {
            print_notes(notes); // those said before the failure, as they came
            throw;
        }
        print_notes(notes);
        model::analyze(profile, plan.source, plan.targets,
                       {analysis_threads(), projection_details, fold_projections, keep_counters});
        if (!o.targets.empty()) {
            // The targets now in effect, so a later re-analysis finds their files again.
            profile.config["IRF_TARGETS"] = config::join(o.targets, ",");
        }
    } catch (const config::CeilingsError& e) {
        throw InputError(e.what());
    }
}

void analyze_if_needed(model::Profile& profile, const AnalysisOptions& o, const std::string& input,
                       const std::string& tool, bool projection_details, bool fold_projections,
                       bool keep_counters) {
    if (!is_analysed(profile)) {
        note_raw_profile(o, input, tool);
        reanalyze(profile, o, input, tool, projection_details, fold_projections, keep_counters);
    } else if (!o.ceilings.empty() || !o.targets.empty()) {
        reanalyze(profile, o, input, tool, projection_details, fold_projections, keep_counters);
    }
}

} // namespace irf::report

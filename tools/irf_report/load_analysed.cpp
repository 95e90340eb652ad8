// SPDX-License-Identifier: Apache-2.0
// Reading a profile and analysing each kernel as soon as it is read (docs/performance.md,
// "Tools' memory"): a raw profile's counters are most of its memory once read.
#include <atomic>
#include <memory>
#include <optional>

#include "config/text_list.hpp"
#include "model/analyze.hpp"
#include "model/profile/profile_json.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/reanalysis.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

// The analysis made while the kernels are read, and what the read saw of the file's own.
struct EarlyAnalysis {
    std::optional<model::KernelAnalyzer> analyzer;
    std::vector<std::string> notes;
    std::atomic<bool> had_analysis{false}; ///< a kernel came with an analysis
    std::atomic<bool> conflict{false};     ///< ... where it decides the targets: not this way
};

// The visitor of a profile with `header`, or none when the analysis cannot be planned from the
// header alone: without --targets the targets are the kernels' projections in an analysed
// profile (one with `ceilings_used`), and a planning error is reported by the read without it.
model::KernelVisitor start_analysis(EarlyAnalysis& early, const model::Profile& header,
                                    const AnalysisOptions& o, const std::string& input,
                                    const std::string& tool, const AnalysisKeep& keep) {
    if (o.targets.empty() && header.ceilings) {
        return {};
    }
    try {
        const AnalysisPlan plan = plan_analysis(header, o, input, tool, early.notes);
        early.analyzer.emplace(plan.source, plan.targets,
                               model::AnalyzeSettings{1, keep.projection_details,
                                                      keep.fold_projections, keep.keep_counters});
    } catch (...) {
        return {};
    }
    const bool own_targets = o.targets.empty();
    return [&early, own_targets](model::KernelRecord& kernel) {
        if (kernel.analysis) {
            early.had_analysis = true;
            if (own_targets) { // its projections would name the targets: read it again
                early.conflict = true;
                return;
            }
        }
        early.analyzer->analyze(kernel);
    };
}

} // namespace

ReadAnalysed read_analysed(const std::string& path, const AnalysisOptions& o,
                           const std::string& tool, const AnalysisKeep& keep, bool always) {
    auto early = std::make_shared<EarlyAnalysis>();
    bool visited = false;
    const model::VisitorStart start = [&](const model::Profile& header) {
        return start_analysis(*early, header, o, path, tool, keep);
    };
    ReadAnalysed out;
    out.profile = load_input_with(path, [&] {
        return model::load_profile_visited(path, start, visited, analysis_threads());
    });
    if (visited && early->conflict) {
        out.profile = model::Profile();
        out.profile = load_input(path);
        visited = false;
    }
    if (!visited) {
        out.finish = [o, path, tool, keep, always](model::Profile& profile) {
            if (always) {
                reanalyze(profile, o, path, tool, keep.projection_details, keep.fold_projections,
                          keep.keep_counters);
            } else {
                analyze_if_needed(profile, o, path, tool, keep.projection_details,
                                  keep.fold_projections, keep.keep_counters);
            }
        };
        return out;
    }
    out.finish = [early, o, path, tool, always](model::Profile& profile) {
        if (!always && !early->had_analysis) {
            note_raw_profile(o, path, tool);
        }
        print_notes(early->notes);
        early->analyzer->finish(profile);
        if (!o.targets.empty()) {
            // As reanalyze: the targets now in effect, so a later re-analysis finds their files.
            profile.config["IRF_TARGETS"] = config::join(o.targets, ",");
        }
    };
    return out;
}

model::Profile load_analysed(const std::string& path, const AnalysisOptions& o,
                             const std::string& tool, const AnalysisKeep& keep, bool always) {
    ReadAnalysed read = read_analysed(path, o, tool, keep, always);
    read.finish(read.profile);
    return std::move(read.profile);
}

} // namespace irf::report

// SPDX-License-Identifier: Apache-2.0
// `irf-report compare BEFORE.json AFTER.json [--ceilings C] [--targets L] [-k RE] [--sort S]
// [--top N] [--format md]`: how each kernel moved (text or Markdown to stdout).
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/compare_counters.hpp"
#include "tools/irf_report/compare_kernels.hpp"
#include "tools/irf_report/reanalysis.hpp"
#include "tools/irf_report/tools_common.hpp"
#include "tools/irf_report/view_options.hpp"

namespace irf::report {
namespace {

struct CompareOptions {
    std::string before, after, output;
    AnalysisOptions analysis;
    ViewOptions view;
    bool counters = false;
};

int run_compare(const CompareOptions& o) {
    refuse_output_over_inputs("irf-report compare", o.output,
                              {o.before, o.after, o.analysis.ceilings});
    if (o.counters) {
        // Raw counters need no analysis: libirf against an ncu import of the same run.
        model::Profile before = load_input(o.before);
        model::Profile after = load_input(o.after);
        keep_matching_kernels(before, o.view.kernels, "--kernels");
        keep_matching_kernels(after, o.view.kernels, "--kernels");
        emit_output(compare_counters_text(before, o.before, after, o.after), o.output);
        return 0;
    }
    // The comparison shows no projection and no counter: projections kept as briefs, counters
    // freed once analysed, each kernel as it is read (a raw 20,000-kernel profile compared with
    // itself took 5 GB with every projection's details; docs/performance.md, "Tools' memory").
    // Both are read before either's notes, as before.
    const AnalysisKeep keep{false, true, false};
    ReadAnalysed read_before = read_analysed(o.before, o.analysis, "irf-report compare", keep);
    ReadAnalysed read_after = read_analysed(o.after, o.analysis, "irf-report compare", keep);
    model::Profile& before = read_before.profile;
    model::Profile& after = read_after.profile;
    read_before.finish(before);
    read_after.finish(after);
    keep_matching_kernels(before, o.view.kernels, "--kernels");
    keep_matching_kernels(after, o.view.kernels, "--kernels");
    const CompareView view{o.view.top, o.view.order(), o.view.name_mode(), o.view.format == "md",
                           o.view.name_width()};
    emit_output(compare_text(before, o.before, after, o.after, view), o.output);
    return 0;
}

const bool s_compare_registered = register_command(
    {"compare", "Compare two profiles kernel by kernel (before -> after)",
     [](CLI::App& sub) -> std::function<int()> {
         auto options = std::make_shared<CompareOptions>();
         sub.add_option("before", options->before, "Profile before the change")->required();
         sub.add_option("after", options->after, "Profile after the change")->required();
         sub.add_option("-o,--output", options->output,
                        "Write the comparison to this file (default: standard output)");
         sub.add_flag("--counters", options->counters,
                      "List every canonical counter of both profiles per kernel, with the "
                      "relative difference (e.g. libirf against an ncu import)");
         add_analysis_options(sub, options->analysis);
         add_view_options(sub, options->view, true, "Matched kernels shown");
         return [options] { return run_compare(*options); };
     }});

} // namespace
} // namespace irf::report

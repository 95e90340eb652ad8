// SPDX-License-Identifier: Apache-2.0
// `irf-report analyze PROFILE.json [--ceilings Y] [--targets L] [-k RE] [-o OUT] [--top N]
// [--sort S] [--names M] [--width N] [--depth N] [--format md]`:
// redo the model on a saved profile with other ceilings or targets (default: the profile's
// targets); text verdict to stdout.
#include <unistd.h>

#include <iostream>

#include "common/cli.hpp"
#include "common/file_io.hpp"
#include "common/terminal.hpp"
#include "model/profile/profile_json.hpp"
#include "model/summary/text_summary.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/reanalysis.hpp"
#include "tools/irf_report/summary_markdown.hpp"
#include "tools/irf_report/tools_common.hpp"
#include "tools/irf_report/view_options.hpp"

namespace irf::report {
namespace {

struct AnalyzeOptions {
    std::string profile;
    AnalysisOptions analysis;
    std::string json_out;
    ViewOptions view;
    std::size_t depth = 0;
};

/// One stderr line when verdicts are missing, so a script sees it without parsing the table.
void report_gaps(const model::Profile& p) {
    std::size_t without_irm = 0;
    for (const model::KernelRecord& k : p.kernels) {
        without_irm += k.analysis && (!k.analysis->irm || k.analysis->irm->bound.empty()) ? 1 : 0;
    }
    if (without_irm > 0) {
        std::cerr << "irf-report analyze: " << without_irm << " of " << p.kernels.size()
                  << " kernels have no Instruction Roofline bound (zero time, zero instructions "
                     "or counters absent); see \"Verdicts left out\"\n";
    }
}

int run_analyze(const AnalyzeOptions& o) {
    model::Profile profile;
    try {
        profile = model::load_profile(o.profile, {}, false, analysis_threads());
    } catch (const model::FormatError& e) {
        throw InputError(e.what());
    }
    keep_matching_kernels(profile, o.view.kernels, "--kernels");
    // Without -o nothing shows a projection's notes, resource times or waves: leave them out;
    // the text summary alone needs only each target's sums (model::AnalyzeSettings).
    const bool text_only = o.json_out.empty() && o.view.format != "md";
    reanalyze(profile, o.analysis, o.profile, "irf-report analyze", !o.json_out.empty(), text_only);
    if (!o.json_out.empty()) {
        const std::string error = model::write_profile_file(o.json_out, profile);
        if (!error.empty()) {
            throw InputError(error);
        }
    }
    model::SummaryView view{o.view.top, o.view.order(), o.view.name_mode(), o.view.name_width(),
                            o.depth};
    view.max_width = common::terminal_columns(STDOUT_FILENO); // the table fits the terminal
    std::cout << (o.view.format == "md" ? summary_markdown(profile, view)
                                        : model::text_summary(profile, view));
    report_gaps(profile);
    keep_until_exit(std::move(profile));
    return 0;
}

const bool s_analyze_registered = register_command(
    {"analyze", "Analyse a saved profile (Instruction Roofline, walls, projection)",
     [](CLI::App& app) -> std::function<int()> {
         auto o = std::make_shared<AnalyzeOptions>();
         app.add_option("profile", o->profile, "Profile JSON written by irf")->required();
         add_analysis_options(app, o->analysis);
         app.add_option("-o,--output", o->json_out,
                        "Write the analysed profile JSON here (atomically)");
         // The spelling before -o/--output, kept for scripts (not in --help).
         app.add_option("--json", o->json_out)->group("");
         add_view_options(app, o->view, true, "Kernels in the table");
         app.add_option("--depth", o->depth,
                        "Levels of the NVTX region tree shown, each with its inclusive time "
                        "(default: all)")
             ->check(common::whole_number(1, 64));
         return [o] { return run_analyze(*o); };
     }});

} // namespace
} // namespace irf::report

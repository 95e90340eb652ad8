// SPDX-License-Identifier: Apache-2.0
// `irf-report analyze PROFILE.json [--ceilings Y] [--targets L] [-k RE] [-o OUT] [--top N]
// [--sort S] [--names M] [--format md]`:
// redo the model on a saved profile with other ceilings or targets; text verdict to stdout.
#include <filesystem>
#include <iostream>

#include "common/file_io.hpp"
#include "config/ceilings_choice.hpp"
#include "config/ceilings_yaml.hpp"
#include "config/gpu_database.hpp"
#include "model/analyze.hpp"
#include "model/profile_json.hpp"
#include "model/text_summary.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/summary_markdown.hpp"
#include "tools/irf_report/tools_common.hpp"
#include "tools/irf_report/view_options.hpp"

namespace irf::report {
namespace {

struct AnalyzeOptions {
    std::string profile;
    std::string ceilings;
    std::vector<std::string> targets;
    std::string json_out;
    ViewOptions view;
};

/// Directory of the running binary: the anchor of the installed database (../share/irf/gpus).
std::string exe_dir() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : exe.parent_path().string();
}

/// The source ceilings (config::choose_ceilings, as libirf at exit); notes go to stderr.
config::Ceilings source_ceilings(const AnalyzeOptions& o, const model::Profile& p,
                                 const std::vector<std::string>& dirs) {
    const model::GpuInfo& g = p.gpu;
    const config::GpuProperties gpu{g.name, g.chip, g.cc, g.sms, g.clock_hz / 1e6, g.l2_bytes};
    const config::CeilingsChoice choice =
        config::choose_ceilings(o.ceilings, "--ceilings", gpu, dirs);
    for (const std::string& note : choice.notes) {
        std::cerr << "irf-report analyze: " << note << "\n";
    }
    if (!choice.ceilings) {
        throw InputError(o.profile + ": gpu: no SM count or compute capability to choose "
                                     "ceilings from; pass --ceilings NAME or FILE.yaml");
    }
    return *choice.ceilings;
}

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items) {
        out += (out.empty() ? "" : ",") + item;
    }
    return out;
}

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
        profile = model::load_profile(o.profile);
    } catch (const model::FormatError& e) {
        throw InputError(e.what());
    }
    keep_matching_kernels(profile, o.view.kernels, "--kernels");
    try {
        const std::vector<std::string> dirs = config::gpus_dirs(exe_dir());
        const config::Ceilings source = source_ceilings(o, profile, dirs);
        const std::vector<config::Ceilings> targets =
            o.targets.empty() ? std::vector<config::Ceilings>{}
                              : config::resolve_targets(join(o.targets), dirs);
        model::analyze(profile, source, targets);
    } catch (const config::CeilingsError& e) {
        throw InputError(e.what());
    }
    if (!o.json_out.empty()) {
        const std::string error =
            common::write_file_atomic(o.json_out, model::dump_profile(profile));
        if (!error.empty()) {
            throw InputError(error);
        }
    }
    const model::SummaryView view{o.view.top, o.view.order(), o.view.name_mode()};
    std::cout << (o.view.format == "md" ? summary_markdown(profile, view)
                                        : model::text_summary(profile, view));
    report_gaps(profile);
    return 0;
}

const bool s_registered = register_command(
    {"analyze", "Analyse a saved profile (Instruction Roofline, walls, projection)",
     [](CLI::App& app) -> std::function<int()> {
         auto o = std::make_shared<AnalyzeOptions>();
         app.add_option("profile", o->profile, "Profile JSON written by irf")->required();
         app.add_option(
             "--ceilings", o->ceilings,
             "Ceilings of the profiled GPU: a shipped name or a YAML file (default: the shipped "
             "entry matching it, else derived)");
         app.add_option("--targets", o->targets,
                        "Project onto these GPUs: keys or YAML files, comma-separated, or all")
             ->delimiter(',');
         app.add_option("-o,--output", o->json_out,
                        "Write the analysed profile JSON here (atomically)");
         // The spelling before -o/--output, kept for scripts (not in --help).
         app.add_option("--json", o->json_out)->group("");
         add_view_options(app, o->view, true, "Kernels in the table");
         return [o] { return run_analyze(*o); };
     }});

} // namespace
} // namespace irf::report

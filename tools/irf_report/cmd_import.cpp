// SPDX-License-Identifier: Apache-2.0
// `irf-report import FILE... -o PROFILE.json [--gpu NAME|FILE]`: Nsight Compute and nvprof
// exports -> an analysed irf.profile/v1 profile (docs/import.md).
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "common/file_io.hpp"
#include "common/text_safety.hpp"
#include "config/ceilings_yaml.hpp"
#include "model/profile/profile_json.hpp"
#include "tools/import/import_gpu.hpp"
#include "tools/import/join_files.hpp"
#include "tools/import/read_export.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/reanalysis.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

struct ImportOptions {
    std::vector<std::string> inputs;
    std::string output;
    std::string gpu;
    std::vector<std::string> targets{"all"};
    double ncu_timeout_s = 1800;
};

void warn(model::Profile& profile, const std::string& warning) {
    std::cerr << "irf-report: warning: " << common::printable(warning) << "\n";
    profile.warnings.push_back("import: " + warning);
}

// One warning listing the metric names irf has no use for, so a user sees what was skipped.
void note_unmapped(model::Profile& profile, const std::vector<import::ImportedFile>& files) {
    std::set<std::string> names;
    for (const auto& f : files) {
        names.insert(f.unmapped.begin(), f.unmapped.end());
    }
    if (names.empty()) {
        return;
    }
    std::string some;
    std::size_t listed = 0;
    for (auto it = names.begin(); it != names.end() && listed < 5; ++it, ++listed) {
        some += (some.empty() ? "" : ", ") + *it;
    }
    profile.warnings.push_back("import: " + std::to_string(names.size()) +
                               " metric names not used by irf (docs/import.md), e.g. " + some);
}

void analyse(model::Profile& profile, const import::GpuChoice& choice, const ImportOptions& o) {
    try {
        reanalyze(profile, AnalysisOptions{choice.ceilings, o.targets}, o.inputs.front(),
                  "irf-report");
    } catch (const InputError& e) {
        if (!choice.ceilings.empty()) {
            throw;
        }
        // Unknown GPU without SM count or clock: the counters are still worth keeping.
        warn(profile, std::string("not analysed: ") + e.what());
    }
}

int run_import(const ImportOptions& o) {
    std::vector<std::string> inputs = o.inputs;
    inputs.push_back(o.gpu);
    refuse_output_over_inputs("irf-report import", o.output, inputs);
    std::vector<import::ImportedFile> files;
    for (const std::string& path : o.inputs) {
        files.push_back(import::read_export_file(path, o.ncu_timeout_s));
    }
    model::Profile profile = import::join_files(files);
    for (const std::string& w : profile.warnings) { // the join's own: files without durations
        std::cerr << "irf-report: warning: " << common::printable(w.substr(w.find(' ') + 1))
                  << "\n";
    }
    profile.app = std::filesystem::path(o.inputs.front()).stem().string();
    import::GpuChoice choice;
    try {
        choice = import::choose_gpu(profile, files, o.gpu, shipped_dirs());
    } catch (const config::CeilingsError& e) {
        throw InputError(e.what());
    }
    if (!choice.warning.empty()) {
        warn(profile, choice.warning);
    }
    note_unmapped(profile, files);
    if (choice.analysable) {
        analyse(profile, choice, o);
    }
    if (const std::string error = model::write_profile_file(o.output, profile); !error.empty()) {
        throw InputError(error);
    }
    std::printf("imported %zu kernels (%llu launches, %llu profiled) from %zu file(s) (%s) on %s "
                "-> %s\n",
                profile.kernels.size(), static_cast<unsigned long long>(profile.coverage.launches),
                static_cast<unsigned long long>(profile.coverage.profiled_launches), files.size(),
                profile.imported->tool.c_str(), describe_gpu(profile.gpu).c_str(),
                common::printable(o.output).c_str());
    return 0;
}

const bool s_import_registered = register_command(
    {"import", "Import Nsight Compute or nvprof CSV exports (or .ncu-rep) as an irf profile",
     [](CLI::App& sub) -> std::function<int()> {
         auto options = std::make_shared<ImportOptions>();
         sub.add_option(
                "files", options->inputs,
                "Exports of one application: ncu --csv (details, --page raw, "
                "--print-summary per-kernel), nvprof --csv (metrics, events, gpu summary/trace), "
                ".ncu-rep")
             ->required();
         sub.add_option("-o,--output", options->output, "Profile to write (irf.profile/v1)")
             ->required();
         sub.add_option("--gpu", options->gpu,
                        "GPU the exports were recorded on: a shipped name or a ceilings YAML "
                        "(default: from the files' Device/CC)");
         sub.add_option("--ncu-timeout", options->ncu_timeout_s,
                        "Stop `ncu --import` of an .ncu-rep after this many seconds (default "
                        "1800)")
             ->check(CLI::PositiveNumber);
         sub.add_option("--targets", options->targets,
                        "GPUs to project onto: shipped names or files, all, none (default all)")
             ->delimiter(',');
         return [options] { return run_import(*options); };
     }});

} // namespace
} // namespace irf::report

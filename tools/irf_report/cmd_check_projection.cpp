// SPDX-License-Identifier: Apache-2.0
// `irf-report check-projection RECORDED MEASURED [--target T] [--ceilings C] [--top N]
// [--format text|md|json] [-o FILE]`: how well RECORDED, projected onto MEASURED's GPU, predicted
// the durations measured there (issue 37; docs/validation/projection.md).
#include "config/gpu_database.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/projection_check.hpp"
#include "tools/irf_report/reanalysis.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

struct CheckOptions {
    std::string recorded, measured, target, ceilings, format = "text", output;
    std::size_t top = 20;
};

int run_check(const CheckOptions& o) {
    model::Profile recorded = load_input(o.recorded);
    const model::Profile measured = load_input(o.measured);
    std::string target = o.target;
    if (target.empty()) {
        // The measured GPU's shipped entry, as libirf would pick its ceilings.
        const model::GpuInfo& g = measured.gpu;
        target = config::match_gpu(g.name, g.cc, g.sms, shipped_dirs()).value_or("");
        if (target.empty()) {
            throw InputError("irf-report check-projection: no shipped ceilings for the measured "
                             "GPU " +
                             describe_gpu(measured.gpu) + ": name one with --target");
        }
    }
    AnalysisOptions analysis;
    analysis.ceilings = o.ceilings;
    analysis.targets = {target};
    reanalyze(recorded, analysis, o.recorded, "irf-report check-projection");
    const ProjectionCheck check = check_projection(recorded, measured, "");
    if (check.kernels.empty()) {
        throw InputError("irf-report check-projection: no kernel of " + o.recorded +
                         " can be compared with " + o.measured +
                         " (same name and launch configuration, a time on both sides)");
    }
    emit_output(o.format == "json"
                    ? projection_check_json(check)
                    : projection_check_text(check, recorded, measured, o.top, o.format == "md"),
                o.output);
    return 0;
}

const bool s_check_projection_registered = register_command(
    {"check-projection",
     "Check a projection: a profile from one GPU projected onto a second, against durations "
     "measured there (e.g. IRF_SAMPLES=0)",
     [](CLI::App& sub) -> std::function<int()> {
         auto options = std::make_shared<CheckOptions>();
         sub.add_option("recorded", options->recorded,
                        "Profile recorded with counters on the first GPU")
             ->required();
         sub.add_option("measured", options->measured,
                        "Profile of the same kernels timed on the second GPU")
             ->required();
         sub.add_option("--target", options->target,
                        "The second GPU's ceilings: a shipped name or a YAML file (default: the "
                        "shipped entry matching the measured profile's GPU)");
         sub.add_option("--ceilings", options->ceilings,
                        "Ceilings of the first GPU: a shipped name or a YAML file (default: the "
                        "shipped entry matching it)");
         sub.add_option("--top", options->top, "Kernels listed, longest measured first")
             ->check(CLI::PositiveNumber);
         sub.add_option("--format", options->format, "text (default), md or json")
             ->check(CLI::IsMember({"text", "md", "json"}));
         sub.add_option("-o,--output", options->output,
                        "Write the check to this file (default: standard output)");
         return [options] { return run_check(*options); };
     }});

} // namespace
} // namespace irf::report

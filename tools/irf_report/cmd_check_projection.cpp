// SPDX-License-Identifier: Apache-2.0
// `irf-report check-projection RECORDED (MEASURED | --published FILE --target T --calls N)
// [--target T] [--ceilings C] [--top N] [--format text|md|json] [-o FILE]`: how well RECORDED,
// projected onto a second GPU, predicted the durations measured there, kernel by kernel (issue
// 37) or operator by operator against published times (issue 57; docs/validation/projection.md).
#include <optional>

#include "config/gpu_database.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/operator_check.hpp"
#include "tools/irf_report/projection_check.hpp"
#include "tools/irf_report/reanalysis.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

struct CheckOptions {
    std::string recorded, measured, target, ceilings, format = "text", output, published;
    std::size_t top = 20;
    double calls = 0;
    double floor_us = 20;
    bool single_launches = false;
};

/// The ceilings of `item` (a shipped key or a YAML file), for the naive scalings.
config::Ceilings ceilings_of(const std::string& item, const char* what) {
    return config::load_named_ceilings(item, shipped_dirs(), what);
}

/// The naive scalings from the recorded GPU (`ceilings`, else the shipped entry matching it) onto
/// `target` (issue 54 item 4). Without either GPU's entry: an error when `required`, else no
/// factors (the summary says n/a).
NaiveFactors factors_of(const model::Profile& recorded, const std::string& ceilings,
                        const std::string& target, bool required) {
    std::string source_key = ceilings;
    if (source_key.empty()) {
        const model::GpuInfo& g = recorded.gpu;
        source_key = config::match_gpu(g.name, g.cc, g.sms, shipped_dirs()).value_or("");
    }
    if (source_key.empty() && !required) {
        return {};
    }
    if (source_key.empty()) {
        throw InputError("irf-report check-projection: no shipped ceilings for the recorded GPU " +
                         describe_gpu(recorded.gpu) + ": name them with --ceilings");
    }
    return naive_factors(ceilings_of(source_key, "--ceilings"), ceilings_of(target, "--target"));
}

/// --target, else the measured GPU's shipped entry, as libirf would pick its ceilings.
std::string measured_target(const model::Profile& measured, const std::string& target) {
    if (!target.empty()) {
        return target;
    }
    const model::GpuInfo& g = measured.gpu;
    const std::string found = config::match_gpu(g.name, g.cc, g.sms, shipped_dirs()).value_or("");
    if (found.empty()) {
        throw InputError("irf-report check-projection: no shipped ceilings for the measured GPU " +
                         describe_gpu(measured.gpu) + ": name one with --target");
    }
    return found;
}

/// --published: the recorded profile's NVTX ranges against published per-call times.
int run_published(const CheckOptions& o) {
    if (o.target.empty() || !o.measured.empty() || !(o.calls > 0)) {
        throw InputError("irf-report check-projection: --published needs --target (the published "
                         "GPU's ceilings key), --calls (calls of each NVTX range in the recorded "
                         "run) and no MEASURED profile");
    }
    const PublishedTimes published = load_published_times(o.published, o.target);
    AnalysisOptions analysis;
    analysis.ceilings = o.ceilings;
    analysis.targets = {o.target};
    model::Profile recorded = load_analysed(o.recorded, analysis, "irf-report check-projection",
                                            {false, false, false}, true);
    const NaiveFactors factors = factors_of(recorded, o.ceilings, o.target, true);
    OperatorCheckSettings settings;
    settings.target = o.target;
    settings.calls = o.calls;
    settings.floor_ns = o.floor_us * 1e3;
    settings.factors = factors;
    const OperatorCheck check = check_operators(recorded, published, settings);
    if (check.operators.empty()) {
        throw InputError("irf-report check-projection: no NVTX range of " + o.recorded +
                         " has a published time on " + o.target + " in " + o.published);
    }
    emit_output(o.format == "json" ? operator_check_json(check)
                                   : operator_check_text(check, o.top, o.format == "md"),
                o.output);
    return 0;
}

int run_check(const CheckOptions& o) {
    refuse_output_over_inputs("irf-report check-projection", o.output,
                              {o.recorded, o.measured, o.published, o.target, o.ceilings});
    if (!o.published.empty()) {
        return run_published(o);
    }
    if (o.measured.empty()) {
        throw InputError("irf-report check-projection: name a MEASURED profile or --published");
    }
    // The target (from the measured profile) is known before the recorded profile is read, so
    // that each recorded kernel is analysed as it is read; on any error there the recorded one is
    // read first, so that its error comes first, as when it was read first.
    std::optional<model::Profile> measured_read;
    std::string target = o.target;
    try {
        // Of the measured kernels only names, launches and times are read: lean, without
        // counters.
        measured_read = load_input(o.measured, true);
        target = measured_target(*measured_read, o.target);
    } catch (...) {
        (void)load_input(o.recorded);
        throw;
    }
    const model::Profile& measured = *measured_read;
    AnalysisOptions analysis;
    analysis.ceilings = o.ceilings;
    analysis.targets = {target};
    // The check reads a projection's times, bounds and confidence, not its details nor the
    // counters.
    model::Profile recorded = load_analysed(o.recorded, analysis, "irf-report check-projection",
                                            {false, false, false}, true);
    const ProjectionCheck check = check_projection(
        recorded, measured, "", factors_of(recorded, o.ceilings, target, false), o.single_launches);
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
                        "Profile of the same kernels timed on the second GPU");
         sub.add_option("--published", options->published,
                        "Instead of MEASURED: published per-call times of the recorded run's "
                        "NVTX ranges (tests/data/projection-public/kernelbench/), compared per "
                        "range beside naive scalings");
         sub.add_option("--calls", options->calls,
                        "With --published: how often the recorded run entered each NVTX range")
             ->check(CLI::PositiveNumber);
         sub.add_option("--floor-us", options->floor_us,
                        "With --published: operators measured under this many us are "
                        "launch-bound, reported apart from the headline (default 20)")
             ->check(CLI::PositiveNumber);
         sub.add_flag("--single-launches", options->single_launches,
                      "Keep kernels launched once (public data whose times are no first "
                      "launches; tests/data/projection-public/)");
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

// SPDX-License-Identifier: Apache-2.0
// `irf-report csv PROFILE.json [-o FILE]`: one row per kernel with the analysed values (a raw
// profile is analysed first).
#include <numeric>

#include "model/profile/kernel_labels.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/csv_kernels.hpp"
#include "tools/irf_report/reanalysis.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

struct CsvOptions {
    std::string input, output;
    AnalysisOptions analysis;
    bool regions = false;
    std::string kernels, sort; ///< sort "": profile order
    std::size_t top = 0;       ///< 0: every kernel (an export keeps all unless told)
};

// -k, --sort and --top applied to the rows: kept kernels in the chosen order, at most `top`.
void slice(model::Profile& p, const CsvOptions& o) {
    keep_matching_kernels(p, o.kernels, "--kernels");
    const auto labels = model::kernel_labels(p.kernels);
    std::vector<model::KernelRecord> rows;
    std::vector<std::size_t> order(p.kernels.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    if (const auto by = model::parse_kernel_order(o.sort)) {
        order = model::kernel_order(p.kernels, labels, *by);
    }
    for (std::size_t i : order) {
        if (o.top == 0 || rows.size() < o.top) {
            rows.push_back(std::move(p.kernels[i])); // each index once: moved, not copied
        }
    }
    p.kernels = std::move(rows);
}

int run_csv(const CsvOptions& o) {
    refuse_output_over_inputs("irf-report csv", o.output, {o.input, o.analysis.ceilings});
    // The CSV shows a projection's times, speedup and confidence only: the rest is left out,
    // and with many targets each projection is kept as a brief (model::ProjectionBrief); it
    // shows no counter, so each kernel's are freed once it is analysed, as it is read.
    model::Profile profile =
        load_analysed(o.input, o.analysis, "irf-report csv", {false, true, false});
    if (!o.regions && (!o.kernels.empty() || !o.sort.empty() || o.top > 0)) {
        slice(profile, o);
    }
    if (o.regions) {
        emit_output(regions_csv(profile), o.output);
    } else {
        emit_output_streamed(
            [&profile](const common::EmitPart& emit) {
                profile_csv_to(profile, analysis_threads(), emit);
            },
            o.output);
    }
    keep_until_exit(std::move(profile));
    return 0;
}

const bool s_csv_registered = register_command(
    {"csv", "One CSV row per kernel with the analysed values (RFC 4180 quoting, LF line ends)",
     [](CLI::App& sub) -> std::function<int()> {
         auto options = std::make_shared<CsvOptions>();
         sub.add_option("profile", options->input, "Profile JSON")->required();
         sub.add_option("-o,--output", options->output,
                        "Write to this file (default: standard output)");
         add_analysis_options(sub, options->analysis);
         sub.add_option("-k,--kernels", options->kernels, "Only kernels matching this RE2 regex");
         sub.add_option("--sort", options->sort,
                        "Row order: time, roofline or name (default: profile order)")
             ->check(CLI::IsMember({"time", "roofline", "name"}));
         sub.add_option("--top", options->top, "At most N rows (default: all)");
         sub.add_flag("--regions", options->regions,
                      "One row per NVTX region instead (docs/regions.md)");
         return [options] { return run_csv(*options); };
     }});

} // namespace
} // namespace irf::report

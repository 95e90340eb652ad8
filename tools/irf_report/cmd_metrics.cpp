// SPDX-License-Identifier: Apache-2.0
// `irf-report metrics --chip NAME [--ncu]`: irf's metrics for a chip, their validity and pass
// counts, or the ncu command lines that collect them.
#include <iomanip>
#include <iostream>
#include <memory>

#include "config/metric_sets.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/metric_host_loader.hpp"
#include "tools/irf_report/ncu_command.hpp"

namespace irf::report {
namespace {

namespace host = irf::intercept::cupti;
using config::MetricBinding;
using config::MetricGroup;

struct Options {
    std::string chip;
    std::string group = "default";
    bool ncu = false;
};

std::vector<MetricBinding> listed_bindings(config::ChipFamily family, const std::string& group) {
    const bool all = group == "all";
    return config::metric_bindings(family, all || group == "pipe_mix",
                                   all || group == "tensor_types");
}

// Passes of `bindings`, or the host API's error as text.
std::string passes_text(const std::string& chip, const std::vector<MetricBinding>& bindings,
                        int* passes) {
    int n = 0;
    const host::HostStatus status =
        metric_host_api().count_passes(chip, config::metric_names(bindings), n);
    if (!status.ok) {
        return "error (" + status.error + ")";
    }
    *passes = n;
    return std::to_string(n);
}

// Prints one row per metric; returns the number of invalid names.
int print_metrics(const std::string& chip, const std::vector<MetricBinding>& bindings) {
    int invalid = 0;
    std::cout << std::left << std::setw(14) << "group" << std::setw(22) << "canonical"
              << std::setw(62) << "metric"
              << "valid\n";
    for (const auto& binding : bindings) {
        std::vector<host::MetricCheck> checks;
        const host::HostStatus status =
            metric_host_api().check_metrics(chip, binding.metrics, checks);
        if (!status.ok) {
            throw std::runtime_error(status.error);
        }
        for (const auto& check : checks) {
            invalid += check.valid ? 0 : 1;
            std::cout << std::setw(14) << config::group_name(binding.group) << std::setw(22)
                      << binding.canonical << std::setw(62) << check.metric
                      << (check.valid ? "yes" : "NO") << "\n";
        }
    }
    return invalid;
}

int run_metrics(Options options) {
    if (options.chip.empty() && !options.ncu) {
        throw InputError("--chip is required (e.g. --chip GH100)");
    }
    if (options.chip.empty()) {
        options.chip = "GH100"; // --ncu alone: the chip of the shipped H100 entries
    }
    const auto family = config::chip_family(options.chip);
    if (!family) {
        throw InputError("--chip " + options.chip +
                         ": no metric map for this chip (families: GV100, TU10x, GA100, GA10x, "
                         "AD10x, GH100, GB10x, GB20x)");
    }
    if (options.ncu) {
        std::cout << ncu_command_lines(*family, options.chip);
        return 0;
    }
    (void)metric_host_api(); // a missing module fails here, before any line is printed
    std::cout << "chip " << options.chip << " (family " << config::family_name(*family)
              << "), offline host API, no counter-availability image\n";
    const int invalid = print_metrics(options.chip, listed_bindings(*family, options.group));
    int base = 0;
    std::cout << "default passes: "
              << passes_text(options.chip, config::metric_bindings(*family, false, false), &base)
              << "\n";
    for (const MetricGroup group : {MetricGroup::pipe_mix, MetricGroup::tensor_types}) {
        int with = 0;
        int alone = 0;
        const std::string total =
            passes_text(options.chip,
                        config::metric_bindings(*family, group == MetricGroup::pipe_mix,
                                                group == MetricGroup::tensor_types),
                        &with);
        const std::string own =
            passes_text(options.chip, config::group_bindings(*family, group), &alone);
        std::cout << "group " << config::group_name(group) << ": +" << (with - base) << " passes ("
                  << total << " with the default set, " << own << " alone)\n";
    }
    if (*family == config::ChipFamily::gv100) {
        std::cout << "note: the Range Profiler needs compute capability 7.5 or newer; irf times "
                     "kernels on "
                  << options.chip << " but cannot collect these counters\n";
    }
    if (invalid > 0) {
        std::cout << invalid << " invalid metric name(s) for " << options.chip << "\n";
        return 1;
    }
    return 0;
}

const bool s_metrics_registered = register_command(
    {"metrics", "List irf's CUPTI metrics for a chip, check them and count replay passes",
     [](CLI::App& app) -> std::function<int()> {
         auto options = std::make_shared<Options>();
         app.add_option("--chip", options->chip,
                        "CUPTI chip name, e.g. GH100, GA100, GB202 (required without --ncu; "
                        "with --ncu the default is GH100)");
         app.add_flag("--ncu", options->ncu,
                      "Print the ncu command lines that collect irf's metrics, for "
                      "`irf-report import`");
         app.add_option("--group", options->group, "metrics to list")
             ->check(CLI::IsMember({"default", "pipe_mix", "tensor_types", "all"}));
         return [options] { return run_metrics(*options); };
     }});

} // namespace
} // namespace irf::report

// SPDX-License-Identifier: Apache-2.0
// ncu command lines from the metric sets (config/metric_sets, the one name table).
#include "tools/irf_report/ncu_command.hpp"

#include "config/text_list.hpp"

namespace irf::report {
namespace {

std::string metrics_option(const std::vector<config::MetricBinding>& bindings) {
    return "--metrics " + config::join(config::metric_names(bindings), ",");
}

} // namespace

std::string ncu_command_lines(config::ChipFamily family, const std::string& chip) {
    // Base units keep counts exact (ncu rounds scaled values such as "16.78 Mbyte").
    const std::string ncu = "ncu --csv --print-units base ";
    std::string out = "# irf's default set for " + chip + " (family " +
                      std::string(config::family_name(family)) +
                      "); ncu replays each kernel as often as the set needs\n";
    out += ncu + metrics_option(config::metric_bindings(family, false, false)) +
           " ./app args > irf-default.csv\n";
    for (const config::MetricGroup group :
         {config::MetricGroup::pipe_mix, config::MetricGroup::tensor_types}) {
        out += "# optional group " + std::string(config::group_name(group)) +
               " (IRF_METRICS), collected in a second run\n";
        out += ncu + metrics_option(config::group_bindings(family, group)) + " ./app args > irf-" +
               std::string(config::group_name(group)) + ".csv\n";
    }
    out += "# then: irf-report import irf-default.csv [irf-pipe_mix.csv ...] -o run.json\n";
    return out;
}

} // namespace irf::report

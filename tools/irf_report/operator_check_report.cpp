// SPDX-License-Identifier: Apache-2.0
// Text, Markdown and JSON of an operator check (tools/irf_report/operator_check.hpp).
#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/string_printf.hpp"
#include "common/text_safety.hpp"
#include "tools/irf_report/operator_check.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

std::string error_of(double predicted, double measured) {
    return signed_percent((predicted - measured) / measured);
}

std::string shorten(const std::string& name, std::size_t width) {
    const std::string safe = common::printable(name);
    return safe.size() <= width ? safe : safe.substr(0, width - 3) + "...";
}

void table(std::ostringstream& out, const std::vector<OperatorProjection>& rows, bool markdown) {
    const char* row_format = markdown ? "| %s | %s | %s | %s - %s | %s | %s | %s | %s | %s | %s | "
                                        "%s |\n"
                                      : "  %-44s %9s %9s %9s - %-9s %9s %8s %-6s %8s %8s %8s %s\n";
    if (markdown) {
        out << "| operator | recorded | predicted | interval | measured | error | inside | SMs x "
               "clock | DRAM | by bound | bound |\n|---|---:|---:|---:|---:|---:|---|---:|---:|"
               "---:|---|\n";
    } else {
        out << common::string_printf(row_format, "operator", "recorded", "predicted", "interval",
                                     "", "measured", "error", "inside", "SMxclk", "DRAM",
                                     "by-bound", "bound (recorded GPU)");
    }
    for (const OperatorProjection& op : rows) {
        const std::string name = markdown ? common::markdown_code(op.name) : shorten(op.name, 44);
        out << common::string_printf(
            row_format, name.c_str(), format_time(op.recorded_ns).c_str(),
            format_time(op.predicted_ns).c_str(), format_time(op.low_ns).c_str(),
            format_time(op.high_ns).c_str(), format_time(op.measured_ns).c_str(),
            signed_percent(op.error).c_str(), op.inside ? "yes" : "no",
            error_of(op.sm_clock_ns, op.measured_ns).c_str(),
            error_of(op.dram_ns, op.measured_ns).c_str(),
            error_of(op.by_bound_ns, op.measured_ns).c_str(),
            op.bound.empty() ? "?" : op.bound.c_str());
    }
}

std::string summary_line(const char* what, const OperatorSummary& s) {
    if (s.count == 0) {
        return common::string_printf("%s: no operators\n", what);
    }
    return common::string_printf("%s: %zu operators; MAPE %.1f%% (time-weighted %.1f%%); inside "
                                 "the interval %.0f%% of operators, %.0f%% of measured time; ",
                                 what, s.count, 100 * s.mape, 100 * s.weighted_mape,
                                 100 * s.inside_share, 100 * s.weighted_inside) +
           naive_comparison(s.mape, s.naive) + "\n";
}

nlohmann::json summary_json(const OperatorSummary& s) {
    nlohmann::json out = {{"count", s.count},
                          {"mape", s.mape},
                          {"weighted_mape", s.weighted_mape},
                          {"inside_share", s.inside_share},
                          {"weighted_inside", s.weighted_inside}};
    put_naive_json(out, s.naive);
    return out;
}

} // namespace

std::string operator_check_text(const OperatorCheck& check, std::size_t top, bool markdown) {
    std::ostringstream out;
    out << "projected onto: " << common::printable(check.target) << "\n\n";
    const std::size_t shown = std::min(top, check.operators.size());
    table(out, {check.operators.begin(), check.operators.begin() + static_cast<long>(shown)},
          markdown);
    if (shown < check.operators.size()) {
        out << "(" << check.operators.size() - shown << " more operators; --top to show them)\n";
    }
    if (!check.left_out.empty()) {
        out << "\nleft out (" << check.left_out.size() << "):\n";
        for (const std::string& line : check.left_out) {
            out << "  " << common::printable(line) << "\n";
        }
    }
    out << "\n"
        << summary_line("headline", check.headline)
        << summary_line("launch-bound (measured under the floor)", check.launch_bound);
    return out.str();
}

std::string operator_check_json(const OperatorCheck& check) {
    nlohmann::json ops = nlohmann::json::array();
    for (const OperatorProjection& op : check.operators) {
        ops.push_back({{"name", op.name},
                       {"kernels", op.kernels},
                       {"recorded_ns", op.recorded_ns},
                       {"predicted_ns", op.predicted_ns},
                       {"low_ns", op.low_ns},
                       {"high_ns", op.high_ns},
                       {"model_low_ns", op.model_low_ns},
                       {"model_high_ns", op.model_high_ns},
                       {"measured_ns", op.measured_ns},
                       {"error", op.error},
                       {"inside", op.inside},
                       {"sm_clock_ns", op.sm_clock_ns},
                       {"dram_ns", op.dram_ns},
                       {"by_bound_ns", op.by_bound_ns},
                       {"bound", op.bound},
                       {"confidence", op.confidence},
                       {"launch_bound", op.launch_bound}});
    }
    const nlohmann::json out = {{"target", check.target},
                                {"operators", ops},
                                {"left_out", check.left_out},
                                {"headline", summary_json(check.headline)},
                                {"launch_bound", summary_json(check.launch_bound)}};
    return out.dump(1) + "\n";
}

} // namespace irf::report

// SPDX-License-Identifier: Apache-2.0
// The slicing options of irf-report's kernel tables (tools/irf_report/view_options.hpp).
#include "tools/irf_report/view_options.hpp"

#include <algorithm>
#include <cstdlib>

#include "common/cli.hpp"
#include "common/environment.hpp"

namespace irf::report {
namespace {

/// Characters of the kernel table other than the name column (model/summary/text_summary.cpp).
constexpr long k_other_columns = 140;

} // namespace

model::KernelOrder ViewOptions::order() const {
    return model::parse_kernel_order(sort).value_or(model::KernelOrder::time);
}

common::NameMode ViewOptions::name_mode() const {
    return common::parse_name_mode(names).value_or(common::NameMode::function);
}

std::size_t ViewOptions::name_width() const {
    if (width > 0) {
        return width;
    }
    if (name_mode() != common::NameMode::function) {
        return 0; // the full forms were asked for: cut nothing
    }
    // The kernel table's other columns take about 130 characters; a wider terminal gives the
    // names the rest (COLUMNS is what shells export for it).
    const char* columns = common::process_env("COLUMNS");
    char* end = nullptr;
    const long value = columns != nullptr ? std::strtol(columns, &end, 10) : 0;
    if (columns == nullptr || end == columns || *end != '\0' || value <= 0) {
        return model::k_label_width;
    }
    return static_cast<std::size_t>(
        std::clamp<long>(value - k_other_columns, static_cast<long>(model::k_label_width), 200));
}

void add_view_options(CLI::App& app, ViewOptions& o, bool with_format,
                      const std::string& top_help) {
    app.add_option("-k,--kernels", o.kernels,
                   "Only kernels matching this RE2 regex (ncu's regex: prefix accepted)");
    app.add_option("--sort", o.sort,
                   "Order of kernels: time (default), roofline, name or recoverable (time x (1 - "
                   "% of roofline): what reaching the roofline would save)")
        ->check(CLI::IsMember({"time", "roofline", "name", "recoverable"}));
    app.add_option("--top", o.top, top_help + " (default " + std::to_string(k_default_top) + ")")
        ->check(common::whole_number(1));
    app.add_option("--names", o.names,
                   "Kernel names: function (innermost name, default), demangled or mangled")
        ->check(CLI::IsMember({"function", "demangled", "mangled"}));
    app.add_option("--width", o.width,
                   "Width of the kernel and region name columns (default: 40, more on a terminal "
                   "wider than 180 columns (COLUMNS); --names demangled/mangled: not cut)")
        ->check(common::whole_number(12, 1000));
    if (with_format) {
        app.add_option("--format", o.format, "text (default) or md (a Markdown table)")
            ->check(CLI::IsMember({"text", "md"}));
    }
}

} // namespace irf::report

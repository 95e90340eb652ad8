// SPDX-License-Identifier: Apache-2.0
#include "tools/irf_report/view_options.hpp"

#include "common/cli.hpp"

namespace irf::report {

model::KernelOrder ViewOptions::order() const {
    return model::parse_kernel_order(sort).value_or(model::KernelOrder::time);
}

common::NameMode ViewOptions::name_mode() const {
    return common::parse_name_mode(names).value_or(common::NameMode::function);
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
    if (with_format) {
        app.add_option("--format", o.format, "text (default) or md (a Markdown table)")
            ->check(CLI::IsMember({"text", "md"}));
    }
}

} // namespace irf::report

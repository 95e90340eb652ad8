// SPDX-License-Identifier: Apache-2.0
// `irf-report compare BEFORE.json AFTER.json [-k RE] [--sort S] [--top N] [--format md]`: how
// each kernel moved (text or Markdown to stdout).
#include <iostream>

#include "tools/irf_report/command.hpp"
#include "tools/irf_report/tools_common.hpp"
#include "tools/irf_report/tools_compare.hpp"
#include "tools/irf_report/view_options.hpp"

namespace irf::report {
namespace {

struct CompareOptions {
    std::string before, after;
    ViewOptions view;
};

int run_compare(const CompareOptions& o) {
    model::Profile before = load_input(o.before);
    model::Profile after = load_input(o.after);
    keep_matching_kernels(before, o.view.kernels, "--kernels");
    keep_matching_kernels(after, o.view.kernels, "--kernels");
    const CompareView view{o.view.top, o.view.order(), o.view.name_mode(), o.view.format == "md"};
    std::cout << compare_text(before, o.before, after, o.after, view);
    return 0;
}

const bool s_registered = register_command(
    {"compare", "Compare two profiles kernel by kernel (before -> after)",
     [](CLI::App& sub) -> std::function<int()> {
         auto options = std::make_shared<CompareOptions>();
         sub.add_option("before", options->before, "Profile before the change")->required();
         sub.add_option("after", options->after, "Profile after the change")->required();
         add_view_options(sub, options->view, true, "Matched kernels shown");
         return [options] { return run_compare(*options); };
     }});

} // namespace
} // namespace irf::report

// SPDX-License-Identifier: Apache-2.0
// `irf-report compare BEFORE.json AFTER.json`: how each kernel moved (text to stdout).
#include <iostream>

#include "tools/irf_report/command.hpp"
#include "tools/irf_report/tools_common.hpp"
#include "tools/irf_report/tools_compare.hpp"

namespace irf::report {
namespace {

struct CompareOptions {
    std::string before, after;
};

const bool s_registered = register_command(
    {"compare", "Compare two profiles kernel by kernel (before -> after)",
     [](CLI::App& sub) -> std::function<int()> {
         auto options = std::make_shared<CompareOptions>();
         sub.add_option("before", options->before, "Profile before the change")->required();
         sub.add_option("after", options->after, "Profile after the change")->required();
         return [options] {
             const model::Profile before = load_input(options->before);
             const model::Profile after = load_input(options->after);
             std::cout << compare_text(before, options->before, after, options->after);
             return 0;
         };
     }});

} // namespace
} // namespace irf::report

// SPDX-License-Identifier: Apache-2.0
// `irf-report show PROFILE.json KERNEL [--format text|md|json]`: one kernel in full (launch,
// call site, time, counters with units, every verdict with its numbers, projections).
#include <algorithm>
#include <iostream>
#include <memory>

#include "common/text_safety.hpp"
#include "config/kernel_regex.hpp"
#include "model/profile/kernel_labels.hpp"
#include "model/profile/profile_json.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/show_kernel.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

struct ShowOptions {
    std::string profile;
    std::string kernel;
    std::string format = "text";
};

/// Indices of the kernels `wanted` names exactly (display name as the tables show it, whole
/// function name, demangled or mangled name); else of those whose demangled name the launcher's
/// regex `wanted` matches (irf run -k).
std::vector<std::size_t> resolve(const model::Profile& p, const std::string& wanted,
                                 const std::vector<std::string>& labels) {
    const std::vector<std::string> whole =
        model::kernel_labels(p.kernels, common::NameMode::function, 0);
    std::vector<std::size_t> found;
    for (std::size_t i = 0; i < p.kernels.size(); ++i) {
        const model::KernelRecord& k = p.kernels[i];
        if (wanted == labels[i] || wanted == whole[i] || wanted == k.name || wanted == k.mangled) {
            found.push_back(i);
        }
    }
    if (!found.empty()) {
        return found;
    }
    const config::KernelRegex re(wanted);
    if (!re.ok()) {
        throw InputError("KERNEL '" + common::printable(wanted) + "': no kernel has this name, " +
                         "and as a regex: " + re.problem());
    }
    for (std::size_t i = 0; i < p.kernels.size(); ++i) {
        if (re.search(p.kernels[i].name)) {
            found.push_back(i);
        }
    }
    return found;
}

/// Several kernels match: name them (as the tables do, with total time and launch) so the user
/// can pick one; exit 2 as for any other ambiguous input.
int list_matches(const model::Profile& p, const ShowOptions& o,
                 const std::vector<std::size_t>& found, const std::vector<std::string>& labels) {
    std::cerr << "irf-report: error: KERNEL '" << common::printable(o.kernel) << "' matches "
              << found.size() << " kernels of " << common::printable(o.profile)
              << "; give one of these names (or a regex that matches one):\n";
    // At most k_listed: a name matching 200,000 kernels printed all of them (issue #39).
    constexpr std::size_t k_listed = 20;
    for (std::size_t n = 0; n < std::min(found.size(), k_listed); ++n) {
        const model::KernelRecord& k = p.kernels[found[n]];
        std::cerr << "  " << common::printable(labels[found[n]]) << "  (" << format_total_time(k)
                  << ", " << format_launch(k.launch) << ")\n";
    }
    if (found.size() > k_listed) {
        std::cerr << "  ... and " << found.size() - k_listed << " more\n";
    }
    return common::exit_bad_input;
}

int run_show(const ShowOptions& o) {
    // Every kernel's name and launch (for the labels and the match), then the one shown in full:
    // the counters and analysis of the others are never built (docs/performance.md, "Tools on
    // 100,000 kernels").
    model::Profile profile = load_input(o.profile, true);
    const std::vector<std::string> labels = model::kernel_labels(profile.kernels);
    const std::vector<std::size_t> found = resolve(profile, o.kernel, labels);
    if (found.empty()) {
        throw InputError("KERNEL '" + common::printable(o.kernel) + "': no kernel of " + o.profile +
                         " has this name or matches it as a regex");
    }
    if (found.size() > 1) {
        return list_matches(profile, o, found, labels);
    }
    const std::size_t index = found.front();
    try {
        profile.kernels[index] = std::move(model::load_kernels(o.profile, {index}).front());
    } catch (const model::FormatError& e) {
        throw InputError(e.what());
    }
    if (o.format == "json") {
        // The kernel's object exactly as the profile JSON holds it (display_name included).
        std::cout << model::dump_json(model::kernel_entry(profile, index, labels));
        return 0;
    }
    const model::KernelRecord& kernel = profile.kernels[index];
    std::vector<ShowSection> sections = kernel_sections(kernel, labels[index]);
    for (ShowSection& s : verdict_sections(profile, kernel)) {
        sections.push_back(std::move(s));
    }
    std::cout << (o.format == "md" ? render_markdown(sections) : render_text(sections));
    return 0;
}

const bool s_show_registered = register_command(
    {"show", "Print one kernel in full: launch, time, counters, every verdict, projections",
     [](CLI::App& app) -> std::function<int()> {
         auto o = std::make_shared<ShowOptions>();
         app.add_option("profile", o->profile,
                        "Profile JSON written by irf (analysed for verdicts)")
             ->required();
         app.add_option("kernel", o->kernel,
                        "The kernel: its name as the tables show it, its demangled or mangled "
                        "name, or a regex (as irf run -k) that matches only it")
             ->required();
         app.add_option("--format", o->format,
                        "text (default), md (Markdown) or json (the kernel's object)")
             ->check(CLI::IsMember({"text", "md", "json"}));
         return [o] { return run_show(*o); };
     }});

} // namespace
} // namespace irf::report

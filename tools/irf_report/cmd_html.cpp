// SPDX-License-Identifier: Apache-2.0
// `irf-report html PROFILE.json [-o report.html] [--trajectory T.json] [--ceilings Y]
// [--targets L]`: one self-contained interactive page (figures, kernel table, each kernel in
// full) that opens offline (docs/tools.md, "irf-report html").
#include <iostream>

#include "common/file_io.hpp"
#include "common/text_safety.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/html_page.hpp"
#include "tools/irf_report/reanalysis.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace {

struct HtmlOptions {
    std::string profile;
    std::string output;
    std::string trajectory;
    AnalysisOptions analysis;
};

/// PROFILE.json -> PROFILE.html beside it (any other name gets .html appended).
std::string default_output(const std::string& profile) {
    const std::string suffix = ".json";
    if (profile.size() > suffix.size() &&
        profile.compare(profile.size() - suffix.size(), suffix.size(), suffix) == 0) {
        return profile.substr(0, profile.size() - suffix.size()) + ".html";
    }
    return profile + ".html";
}

/// The irf.trajectory/v1 document of `irf-report trajectory -o`, checked for its schema.
nlohmann::json load_trajectory(const std::string& path) {
    std::string text;
    const std::string error = common::read_file_bounded(path, text);
    if (!error.empty()) {
        throw InputError(error);
    }
    nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        throw InputError(path + ": not valid JSON");
    }
    if (doc.value("schema", "") != "irf.trajectory/v1" ||
        !doc.value("kernels", nlohmann::json()).is_array()) {
        throw InputError(path + ": not an irf.trajectory/v1 document (irf-report trajectory -o)");
    }
    return checked_trajectory(doc, path);
}

int run_html(const HtmlOptions& o) {
    const std::string output = o.output.empty() ? default_output(o.profile) : o.output;
    refuse_output_over_inputs("irf-report html", output,
                              {o.profile, o.trajectory, o.analysis.ceilings});
    model::Profile profile = load_input(o.profile);
    std::optional<nlohmann::json> trajectory;
    if (!o.trajectory.empty()) {
        trajectory = load_trajectory(o.trajectory);
    }
    analyze_if_needed(profile, o.analysis, o.profile, "irf-report html");
    HtmlAssets assets;
    try {
        assets = load_html_assets();
    } catch (const AssetsMissing& e) {
        std::cerr << "irf-report: error: " << common::printable(e.what()) << "\n";
        return common::exit_failed;
    }
    const std::string page =
        render_html_page(assets, script_safe_json(html_page_data(profile, o.profile, trajectory)));
    const std::string error = common::write_file_atomic(output, page);
    if (!error.empty()) {
        throw InputError(error);
    }
    std::cerr << "irf-report html: wrote " << common::printable(output) << " ("
              << profile.kernels.size() << " kernels, " << (page.size() + 512 * 1024) / (1 << 20)
              << " MB)\n";
    return 0;
}

const bool s_html_registered = register_command(
    {"html", "Write one self-contained interactive HTML page (figures, kernel table, details)",
     [](CLI::App& app) -> std::function<int()> {
         auto o = std::make_shared<HtmlOptions>();
         app.add_option("profile", o->profile, "Profile JSON written by irf (raw: analysed now)")
             ->required();
         app.add_option("-o,--output", o->output,
                        "The page to write (atomically); default: PROFILE with .html for .json");
         app.add_option("--trajectory", o->trajectory,
                        "Also draw the trajectories of this irf-report trajectory JSON");
         add_analysis_options(app, o->analysis);
         return [o] { return run_html(*o); };
     }});

} // namespace
} // namespace irf::report

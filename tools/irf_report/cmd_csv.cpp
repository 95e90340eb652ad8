// SPDX-License-Identifier: Apache-2.0
// `irf-report csv PROFILE.json [-o FILE]`: one row per kernel with the analysed values.
#include <iostream>

#include "common/file_io.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/tools_common.hpp"
#include "tools/irf_report/tools_csv.hpp"

namespace irf::report {
namespace {

struct CsvOptions {
    std::string input, output;
    bool regions = false;
};

int run_csv(const CsvOptions& o) {
    const model::Profile profile = load_input(o.input);
    const std::string text = o.regions ? regions_csv(profile) : profile_csv(profile);
    if (o.output.empty()) {
        std::cout << text;
        return 0;
    }
    if (const std::string error = common::write_file_atomic(o.output, text); !error.empty()) {
        throw InputError(error);
    }
    return 0;
}

const bool s_registered =
    register_command({"csv", "One CSV row per kernel with the analysed values (RFC 4180)",
                      [](CLI::App& sub) -> std::function<int()> {
                          auto options = std::make_shared<CsvOptions>();
                          sub.add_option("profile", options->input, "Profile JSON")->required();
                          sub.add_option("-o,--output", options->output,
                                         "Write to this file (default: standard output)");
                          sub.add_flag("--regions", options->regions,
                                       "One row per NVTX region instead (docs/regions.md)");
                          return [options] { return run_csv(*options); };
                      }});

} // namespace
} // namespace irf::report

// SPDX-License-Identifier: Apache-2.0
// `irf-report version`: the version and the profile schema this build reads and writes.
#include <iostream>

#include "model/profile/version.hpp"
#include "tools/irf_report/command.hpp"

namespace irf::report {
namespace {

const bool s_version_registered = register_command(
    {"version", "Print irf's version and schemas", [](CLI::App&) -> std::function<int()> {
         return [] {
             std::cout << "irf " << model::version() << "\nprofile schema: irf.profile/v1"
                       << "\nceilings schema: "
                          "irf.ceilings/v1\n";
             return 0;
         };
     }});

} // namespace
} // namespace irf::report

// SPDX-License-Identifier: Apache-2.0
// `irf run --html`: the application runs as a child instead of replacing irf, so that irf can
// write the profile's HTML page (irf-report html) once the application has ended.
#pragma once

#include <string>

#include "tools/irf/launch.hpp"

namespace irf::launcher {

/// Runs the application of `options` with `library` injected as a child process, waits for it
/// (Ctrl-C reaches it through the terminal; SIGTERM and SIGHUP sent to irf are passed on), then
/// runs `report_bin html PROFILE.json -o PROFILE.html`. Returns the application's exit status
/// (128 + signal when it was killed, 127/126 when it could not be executed), or 1 when it
/// succeeded but no page could be written (one line says why).
[[nodiscard]] int run_with_html(const RunOptions& options, const std::string& library,
                                const std::string& report_bin);

} // namespace irf::launcher

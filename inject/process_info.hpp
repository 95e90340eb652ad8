// SPDX-License-Identifier: Apache-2.0
// Facts about this process for the profile header and the output stem.
#pragma once

#include <string>
#include <vector>

namespace irf::inject {

/// The command line from /proc/self/cmdline (empty when unreadable).
[[nodiscard]] std::vector<std::string> read_argv();

/// Base name of argv[0], else of /proc/self/exe, else "app".
[[nodiscard]] std::string app_name(const std::vector<std::string>& argv);

/// Current time as ISO 8601 UTC with milliseconds, e.g. "2026-11-22T15:41:29.123Z".
[[nodiscard]] std::string now_iso8601();

/// The directory holding libirf.so (or the binary irf is linked into), via dladdr.
[[nodiscard]] std::string library_dir();

/// The current working directory ("" when unknown).
[[nodiscard]] std::string current_dir();

} // namespace irf::inject

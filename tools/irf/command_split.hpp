// SPDX-License-Identifier: Apache-2.0
// Where the launcher's own arguments end and the application's begin. As ncu, nsys and mpirun
// do, options are read only up to the first positional argument (the application) or "--";
// everything after belongs to the application, even what looks like an option of irf
// (`irf run ./app -c 3` gives the app `-c 3`; issue #39 item 4).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace irf::launcher {

/// The launcher's arguments (program name and subcommand included) and the application's.
struct CommandSplit {
    std::vector<std::string> own;         ///< parsed by CLI11
    std::vector<std::string> application; ///< the command and its arguments, untouched
};

/// Splits `args` (argv, program name first) at the first argument after the subcommand that is
/// neither an option of `app`'s subcommands nor an option's value, or at the first "--" (which
/// is dropped). An unknown option stays with irf, so CLI11 reports it.
[[nodiscard]] CommandSplit split_command(const CLI::App& app, const std::vector<std::string>& args);

} // namespace irf::launcher

// SPDX-License-Identifier: Apache-2.0
// irf-report subcommands register themselves here; main() builds the CLI from the registry.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/cli.hpp"

namespace irf::report {

/// Bad input to a tool (file, value, schema): printed as one line, exit code 2.
class InputError : public common::BadInput {
public:
    using common::BadInput::BadInput;
};

/// A subcommand: `setup` adds its options to the CLI11 subcommand and returns the action that
/// runs it after parsing (the action returns the process exit code).
struct Command {
    std::string name;
    std::string description;
    std::function<std::function<int()>(CLI::App&)> setup;
};

/// Adds a command to the registry; used from a static initializer in each command's file.
bool register_command(Command command);

/// All registered commands, in name order.
[[nodiscard]] std::vector<Command> registered_commands();

} // namespace irf::report

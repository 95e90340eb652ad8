// SPDX-License-Identifier: Apache-2.0
// irf-report: offline analysis of irf profiles (analyze, merge, compare, csv, metrics, ceilings).
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>

#include "common/cli.hpp"
#include "common/nearest_name.hpp"
#include "common/text_safety.hpp"
#include "model/profile/version.hpp"
#include "tools/irf_report/command.hpp"

namespace irf::report {
namespace {

std::vector<Command>& registry() {
    static std::vector<Command> commands;
    return commands;
}

} // namespace

bool register_command(Command command) {
    registry().push_back(std::move(command));
    return true;
}

std::vector<Command> registered_commands() {
    auto commands = registry();
    std::sort(commands.begin(), commands.end(),
              [](const Command& a, const Command& b) { return a.name < b.name; });
    return commands;
}

namespace {

// The one line for a first argument that names no command ("analyzee"), or "" when it does (or
// is an option); CLI11 would say only "A subcommand is required".
std::string unknown_command(int argc, char** argv, const std::vector<std::string>& known) {
    if (argc < 2 || argv[1][0] == '-' || std::string_view(argv[1]) == "analyse" ||
        std::find(known.begin(), known.end(), argv[1]) != known.end()) {
        return "";
    }
    std::string list;
    for (const std::string& name : known) {
        list += (list.empty() ? "" : ", ") + name;
    }
    return "irf-report: error: unknown command '" + irf::common::printable(argv[1]) + "'" +
           irf::common::did_you_mean(argv[1], known) + " (commands: " + list + ")";
}

} // namespace

} // namespace irf::report

int main(int argc, char** argv) {
    using namespace irf::report;
    CLI::App app{"irf-report: analyse, merge and compare irf profiles offline", "irf-report"};
    irf::common::set_version(app, "irf-report", irf::model::version());
    app.require_subcommand(1);
    std::map<CLI::App*, std::function<int()>> actions;
    for (const auto& command : registered_commands()) {
        CLI::App* sub = app.add_subcommand(command.name, command.description);
        actions[sub] = command.setup(*sub);
        if (command.name == "analyze") {
            sub->alias("analyse"); // British spelling, as docs/ write it
        }
    }
    std::vector<std::string> known;
    for (const auto& command : registered_commands()) {
        known.push_back(command.name);
    }
    if (const std::string line = unknown_command(argc, argv, known); !line.empty()) {
        std::cerr << line << "\n";
        return irf::common::exit_bad_input;
    }
    if (const auto done = irf::common::parse_command_line(app, argc, argv, "irf-report",
                                                          "see irf-report --help")) {
        return *done;
    }
    return irf::common::run_tool("irf-report", [&] {
        for (auto& [sub, action] : actions) {
            if (sub->parsed()) {
                return action();
            }
        }
        return int{irf::common::exit_bad_input};
    });
}

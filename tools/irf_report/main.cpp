// SPDX-License-Identifier: Apache-2.0
// irf-report: offline analysis of irf profiles (analyze, merge, compare, csv, metrics, ceilings).
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>

#include "common/text_safety.hpp"
#include "model/version.hpp"
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

} // namespace irf::report

int main(int argc, char** argv) {
    using namespace irf::report;
    CLI::App app{"irf-report: analyse, merge and compare irf profiles offline", "irf-report"};
    app.set_version_flag("--version", std::string("irf-report ") + irf::model::version());
    app.require_subcommand(1);
    std::map<CLI::App*, std::function<int()>> actions;
    for (const auto& command : registered_commands()) {
        CLI::App* sub = app.add_subcommand(command.name, command.description);
        actions[sub] = command.setup(*sub);
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "irf-report: " << irf::common::printable(e.what())
                  << " (see irf-report --help)\n";
        return 2;
    }
    try {
        for (auto& [sub, action] : actions) {
            if (sub->parsed()) {
                return action();
            }
        }
    } catch (const InputError& e) {
        std::cerr << "irf-report: error: " << irf::common::printable(e.what()) << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "irf-report: internal error: " << irf::common::printable(e.what()) << "\n";
        return 3;
    }
    return 2;
}

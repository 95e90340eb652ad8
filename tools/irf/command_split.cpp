// SPDX-License-Identifier: Apache-2.0
#include "tools/irf/command_split.hpp"

#include <CLI/CLI.hpp>

namespace irf::launcher {
namespace {

/// The subcommand of `app` named `name`, or nullptr.
const CLI::App* subcommand_named(const CLI::App& app, const std::string& name) {
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
        if (sub->get_name() == name) {
            return sub;
        }
    }
    return nullptr;
}

/// True when `arg` is an option of `sub` that takes its value from the next argument: "-o X"
/// and "--output X", but not "-oX", "--output=X" or a flag such as --help.
bool takes_next_argument(const CLI::App& sub, const std::string& arg) {
    const bool long_form = arg.rfind("--", 0) == 0;
    if ((long_form && arg.find('=') != std::string::npos) || (!long_form && arg.size() > 2)) {
        return false;
    }
    const CLI::Option* option = sub.get_option_no_throw(arg);
    return option != nullptr && option->get_expected_min() > 0;
}

} // namespace

CommandSplit split_command(const CLI::App& app, const std::vector<std::string>& args) {
    CommandSplit out;
    const CLI::App* sub = nullptr;
    std::size_t i = 0;
    for (; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--") {
            ++i;
            break;
        }
        const bool option = arg.size() > 1 && arg[0] == '-';
        if (i > 0 && sub == nullptr && !option) {
            sub = subcommand_named(app, arg); // "run", "trajectory"; else CLI11 says so
            out.own.push_back(arg);
            continue;
        }
        if (sub != nullptr && !option) {
            break; // the application
        }
        out.own.push_back(arg);
        if (sub != nullptr && i + 1 < args.size() && takes_next_argument(*sub, arg)) {
            out.own.push_back(args[++i]);
        }
    }
    out.application.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
    return out;
}

} // namespace irf::launcher

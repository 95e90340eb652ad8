// SPDX-License-Identifier: Apache-2.0
#include "common/cli.hpp"

#include "common/temporaries.hpp"
#include "common/text_safety.hpp"
#include "common/whole_number.hpp"

#include <charconv>
#include <iostream>
#include <new>

namespace irf::common {

CLI::Validator whole_number(long long min, std::optional<long long> max) {
    const std::string rule = whole_number_rule(
        min, max ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(*max)) : std::nullopt);
    return CLI::Validator(
        [min, max, rule](std::string& value) -> std::string {
            long long n = 0;
            const char* end = value.data() + value.size();
            const auto [ptr, ec] = std::from_chars(value.data(), end, n);
            if (ec != std::errc() || ptr != end || n < min || (max && n > *max)) {
                return "'" + value + "' " + rule;
            }
            return std::string();
        },
        "", "whole_number");
}

void set_version(CLI::App& app, const std::string& tool, const std::string& version) {
    app.set_version_flag("--version", tool + " " + version);
}

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv, const std::string& tool,
                                      const std::string& hint) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << tool << ": " << printable(e.what()) << " (" << hint << ")\n";
        return exit_bad_input;
    }
    return std::nullopt;
}

int run_tool(const std::string& tool, const std::function<int()>& action) {
    remove_temporaries_on_signals();
    try {
        return action();
    } catch (const BadInput& e) {
        std::cerr << tool << ": error: " << printable(e.what()) << "\n";
        return exit_bad_input;
    } catch (const std::bad_alloc&) {
        // Input too large for the memory this process may use (ulimit -v, a cgroup): bad input
        // as far as the user can act on it, not an abort (issue #39 item 8).
        std::cerr << tool
                  << ": error: out of memory (input too large for this process's memory "
                     "limit)\n";
        return exit_bad_input;
    } catch (const std::exception& e) {
        std::cerr << tool << ": internal error: " << printable(e.what()) << "\n";
        return exit_internal;
    } catch (...) {
        std::cerr << tool << ": internal error: unknown exception\n";
        return exit_internal;
    }
}

} // namespace irf::common

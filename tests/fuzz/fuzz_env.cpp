// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: IRF_* parsing and output-stem expansion. The input is split at newlines
// into values for the variables in option-table order, then extra names for %q{VAR}.
#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/env.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> values;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = text.find('\n', start);
        values.push_back(text.substr(start, end == std::string::npos ? end : end - start));
        if (end == std::string::npos) {
            break;
        }
        start = end + 1;
    }
    std::map<std::string, std::string> env;
    const auto& table = irf::config::option_table();
    for (std::size_t i = 0; i < table.size() && i < values.size(); ++i) {
        env[table[i].name] = values[i];
    }
    // Spare values become the job id and rank variables %j and %r read.
    env["SLURM_JOB_ID"] = values.size() > table.size() ? values[table.size()] : "";
    env["SLURM_PROCID"] = values.size() > table.size() + 1 ? values[table.size() + 1] : "";
    const irf::config::EnvLookup lookup = [&env](const char* name) -> const char* {
        const auto found = env.find(name);
        return found == env.end() ? nullptr : found->second.c_str();
    };
    const irf::config::ParseResult parsed = irf::config::parse_env(lookup);
    (void)parsed.config.effective();
    irf::config::StemContext context;
    context.app = "app";
    context.host = "host";
    context.pid = 42;
    context.rank = irf::config::detect_rank(lookup);
    context.env = lookup;
    // parse_env only accepts stems that check_stem accepts; expanding one fails only with the
    // documented invalid_argument (a component that expands to nothing).
    try {
        (void)irf::config::expand_stem(
            irf::config::stem_with_rank(parsed.config.output, context.rank), context);
    } catch (const std::invalid_argument&) {
    }
    return 0;
}

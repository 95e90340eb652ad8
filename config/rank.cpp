// SPDX-License-Identifier: Apache-2.0
#include "config/rank.hpp"

#include <charconv>
#include <cstdlib>
#include <cstring>

namespace irf::config {

std::optional<int> detect_rank(const EnvLookup& env) {
    for (const char* name : k_rank_variables) {
        const char* value = env(name);
        if (value == nullptr || *value == '\0') {
            continue;
        }
        int rank = -1;
        const char* end = value + std::strlen(value);
        const auto [ptr, ec] = std::from_chars(value, end, rank);
        if (ec == std::errc() && ptr == end && rank >= 0) {
            return rank;
        }
    }
    return std::nullopt;
}

std::optional<int> detect_rank() {
    return detect_rank(common::process_env);
}

} // namespace irf::config

// SPDX-License-Identifier: Apache-2.0
// Splitting the comma and colon lists of IRF_* values, IRF_CEILINGS paths and CLI options.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace irf::config {

/// The parts of `s` between `sep`s, empty ones included ("" -> {""}, "a," -> {"a", ""}).
inline std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::string::size_type start = 0;
    while (start <= s.size()) {
        const auto end = std::min(s.find(sep, start), s.size());
        parts.push_back(s.substr(start, end - start));
        start = end + 1;
    }
    return parts;
}

} // namespace irf::config

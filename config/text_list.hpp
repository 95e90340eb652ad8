// SPDX-License-Identifier: Apache-2.0
// Splitting (and joining) the comma and colon lists of IRF_* values, IRF_CEILINGS paths and CLI
// options.
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

/// The inverse of split: `parts` with `sep` between them ({} -> "", {"", "b"} -> ",b").
inline std::string join(const std::vector<std::string>& parts, const std::string& sep) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        out += (i == 0 ? "" : sep) + parts[i];
    }
    return out;
}

} // namespace irf::config

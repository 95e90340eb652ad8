// SPDX-License-Identifier: Apache-2.0
// Folding identical messages with a count.
#include "common/repeats.hpp"

#include <unordered_map>

namespace irf::common {

std::vector<std::pair<std::string, std::size_t>>
count_repeats(const std::vector<std::string>& texts) {
    std::vector<std::pair<std::string, std::size_t>> out;
    std::unordered_map<std::string, std::size_t> index; // text -> position in out
    for (const std::string& text : texts) {
        const auto [it, added] = index.emplace(text, out.size());
        if (added) {
            out.emplace_back(text, 1);
        } else {
            ++out[it->second].second;
        }
    }
    return out;
}

std::string repeat_suffix(std::size_t times) {
    return times > 1 ? " (x" + std::to_string(times) + ")" : std::string();
}

} // namespace irf::common

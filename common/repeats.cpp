// SPDX-License-Identifier: Apache-2.0
// Folding identical messages with a count.
#include "common/repeats.hpp"

#include <utility>

namespace irf::common {

bool RepeatCounter::add(const std::string& text) {
    if (const auto it = m_index.find(text); it != m_index.end()) {
        ++m_counts[it->second].second;
        return true;
    }
    if (m_counts.size() < m_capacity) {
        m_index.emplace(text, m_counts.size());
        m_counts.emplace_back(text, 1);
    }
    return false;
}

std::vector<std::pair<std::string, std::size_t>> RepeatCounter::take() {
    m_index.clear();
    return std::exchange(m_counts, {});
}

std::vector<std::pair<std::string, std::size_t>>
count_repeats(const std::vector<std::string>& texts) {
    RepeatCounter counter;
    for (const std::string& text : texts) {
        counter.add(text);
    }
    return counter.take();
}

std::string repeat_suffix(std::size_t times) {
    return times > 1 ? " (x" + std::to_string(times) + ")" : std::string();
}

} // namespace irf::common

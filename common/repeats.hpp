// SPDX-License-Identifier: Apache-2.0
// Folding identical messages: each distinct text once with how often it came ("... (x12)"), in
// libirf's log, the profile's warnings and the tools' output.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace irf::common {

/// Counts texts in the order first seen. At most `capacity` distinct texts are kept, so a stream
/// of distinct messages cannot grow it without end; a new text beyond that is not counted.
class RepeatCounter {
public:
    explicit RepeatCounter(std::size_t capacity = std::numeric_limits<std::size_t>::max())
        : m_capacity(capacity) {}

    /// Counts `text`; true when it was counted before.
    bool add(const std::string& text);

    /// Each counted text with its number of occurrences, in first-seen order.
    [[nodiscard]] const std::vector<std::pair<std::string, std::size_t>>& counts() const {
        return m_counts;
    }

    /// counts(), and empties the counter.
    [[nodiscard]] std::vector<std::pair<std::string, std::size_t>> take();

private:
    std::size_t m_capacity;
    std::unordered_map<std::string, std::size_t> m_index; ///< text -> position in m_counts
    std::vector<std::pair<std::string, std::size_t>> m_counts;
};

/// Each distinct text of `texts` once, in the order first seen, with its number of occurrences.
[[nodiscard]] std::vector<std::pair<std::string, std::size_t>>
count_repeats(const std::vector<std::string>& texts);

/// " (xN)" for a text that came N > 1 times, "" for one that came once.
[[nodiscard]] std::string repeat_suffix(std::size_t times);

} // namespace irf::common

// SPDX-License-Identifier: Apache-2.0
// The warnings of a merged job profile: each distinct text of the ranks once, naming its ranks
// ("ranks 0-3: ..."), whether the ranks come one by one or already folded by an earlier merge.
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace irf::report {

/// "0-3, 5, 7-8": `ranks` sorted, runs written as ranges.
[[nodiscard]] std::string rank_ranges(std::vector<int> ranks);

/// Folds warnings by text, in the order first seen.
class MergeWarnings {
public:
    /// A rank profile's warning.
    void add(const std::string& text, int rank);
    /// A merged job profile's warning as merge wrote it ("rank 2: ...", "ranks 0-3, 5: ...");
    /// false when `text` has no such prefix.
    [[nodiscard]] bool add_folded(const std::string& text);
    /// Each distinct text once: "rank N: text" or "ranks A-B, C: text".
    [[nodiscard]] std::vector<std::string> folded() const;

private:
    void add_ranks(const std::string& text, const std::vector<int>& ranks);

    std::vector<std::pair<std::string, std::vector<int>>> m_folded;
    std::unordered_map<std::string, std::size_t> m_index; ///< text -> position in m_folded
};

} // namespace irf::report

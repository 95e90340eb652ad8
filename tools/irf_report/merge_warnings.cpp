// SPDX-License-Identifier: Apache-2.0
// Warnings of a merged job profile, folded by text across ranks.
#include "tools/irf_report/merge_warnings.hpp"

#include <algorithm>
#include <cctype>
#include <climits>

namespace irf::report {
namespace {

/// The number at `s[i]` (digits only), advancing `i`; false when there is none or it is too big.
bool read_rank(const std::string& s, std::size_t& i, int& out) {
    const std::size_t start = i;
    long long value = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && value <= INT_MAX) {
        value = value * 10 + (s[i++] - '0');
    }
    out = static_cast<int>(value);
    return i > start && value <= INT_MAX;
}

/// The ranks of a "0-3, 5" list that ends in ": " at `s[i]`; `i` is left after the ": ".
bool read_ranges(const std::string& s, std::size_t& i, std::vector<int>& ranks) {
    for (;;) {
        int first = 0;
        int last = 0;
        if (!read_rank(s, i, first)) {
            return false;
        }
        last = first;
        // A range longer than any job (2^20 ranks) is text, not a list merge wrote.
        if (i < s.size() && s[i] == '-' &&
            (!read_rank(s, ++i, last) || last < first || last - first > (1 << 20))) {
            return false;
        }
        for (long long r = first; r <= last; ++r) {
            ranks.push_back(static_cast<int>(r));
        }
        if (s.compare(i, 2, ": ") == 0) {
            i += 2;
            return true;
        }
        if (s.compare(i, 2, ", ") != 0) {
            return false;
        }
        i += 2;
    }
}

} // namespace

std::string rank_ranges(std::vector<int> ranks) {
    std::sort(ranks.begin(), ranks.end());
    std::string out;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) {
            ++j;
        }
        out += (out.empty() ? "" : ", ") + std::to_string(ranks[i]) +
               (j > i ? "-" + std::to_string(ranks[j]) : "");
        i = j + 1;
    }
    return out;
}

void MergeWarnings::add(const std::string& text, int rank) {
    add_ranks(text, {rank});
}

bool MergeWarnings::add_folded(const std::string& text) {
    const bool many = text.rfind("ranks ", 0) == 0;
    if (!many && text.rfind("rank ", 0) != 0) {
        return false;
    }
    std::size_t i = many ? 6 : 5;
    std::vector<int> ranks;
    if (!read_ranges(text, i, ranks)) {
        return false;
    }
    add_ranks(text.substr(i), ranks);
    return true;
}

void MergeWarnings::add_ranks(const std::string& text, const std::vector<int>& ranks) {
    const auto [at, added] = m_index.emplace(text, m_folded.size());
    if (added) {
        m_folded.push_back({text, {}});
    }
    std::vector<int>& where = m_folded[at->second].second;
    for (const int rank : ranks) {
        if (where.empty() || where.back() != rank) { // inputs come rank by rank
            where.push_back(rank);
        }
    }
}

std::vector<std::string> MergeWarnings::folded() const {
    std::vector<std::string> out;
    for (const auto& [text, where] : m_folded) {
        std::vector<int> ranks = where;
        std::sort(ranks.begin(), ranks.end());
        ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
        out.push_back((ranks.size() == 1 ? "rank " : "ranks ") + rank_ranges(ranks) + ": " + text);
    }
    return out;
}

} // namespace irf::report

// SPDX-License-Identifier: Apache-2.0
// Correlation ids of profiled launches, so that only the first kernel record of a replayed
// launch is delivered; pruned as ids move on, because CUPTI's 32-bit ids wrap (plain C++).
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>

namespace irf::intercept::cupti {

/// Not thread-safe: the backend guards it with its state lock.
class ProfiledIds {
public:
    /// A sample started on the launch `id` (a reused id starts afresh).
    void add(std::uint64_t id) {
        m_first_seen[id] = false;
        m_order.push_back(id);
    }

    /// True for the record to deliver: any record of an unprofiled launch, and the first one of
    /// a profiled launch (kernel replay may emit one per pass, docs/cupti-notes.md question 3).
    bool first_record(std::uint64_t id) {
        prune(id);
        const auto it = m_first_seen.find(id);
        if (it == m_first_seen.end()) {
            return true;
        }
        const bool first = !it->second;
        it->second = true;
        return first;
    }

    /// Profiled ids still kept.
    [[nodiscard]] std::size_t size() const noexcept { return m_first_seen.size(); }

private:
    // A profiled launch's records arrive long before ids move on by 2^30 (a quarter of the
    // 32-bit space); by then its id must be forgotten, or the launch that reuses it after the
    // wrap would lose its duration.
    static constexpr std::int64_t k_horizon = std::int64_t{1} << 30;

    void prune(std::uint64_t newest) {
        while (!m_order.empty()) {
            const std::uint64_t oldest = m_order.front();
            // Signed 32-bit distance: a record slightly older than the kept id prunes nothing.
            const auto ahead = static_cast<std::int32_t>(static_cast<std::uint32_t>(newest) -
                                                         static_cast<std::uint32_t>(oldest));
            if (ahead <= k_horizon) {
                return;
            }
            m_order.pop_front();
            m_first_seen.erase(oldest);
        }
    }

    std::deque<std::uint64_t> m_order;                    ///< ids in the order their samples began
    std::unordered_map<std::uint64_t, bool> m_first_seen; ///< id -> its first record came
};

} // namespace irf::intercept::cupti

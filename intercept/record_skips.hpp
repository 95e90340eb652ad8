// SPDX-License-Identifier: Apache-2.0
// Launches whose kernel record is dropped on arrival (IRF_TIMING=sampled, docs/configuration.md,
// "Sampled timing"): one bit per correlation id in a ring, set on the launch path, tested and
// cleared when the record comes, so an untimed launch is neither logged nor looked up.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace irf::intercept {

/// A ring of 2^20 bits indexed by correlation id. A record more than 2^20 launches late may
/// find its bit reused by a newer launch: it is then processed (or dropped) as that launch's.
class RecordSkips {
public:
    static constexpr std::uint64_t k_bits = std::uint64_t{1} << 20; ///< ids the ring spans

    RecordSkips() : m_words(new std::atomic<std::uint64_t>[k_bits / 64]) {
        for (std::uint64_t i = 0; i < k_bits / 64; ++i) {
            m_words[i].store(0, std::memory_order_relaxed);
        }
    }

    /// Marks launch `id`'s record to be dropped (`skip`) or kept; a kept launch clears a bit
    /// left by an older launch whose record never came.
    void mark(std::uint64_t id, bool skip) noexcept {
        std::atomic<std::uint64_t>& word = m_words[(id % k_bits) / 64];
        const std::uint64_t bit = std::uint64_t{1} << (id % 64);
        if (skip) {
            word.fetch_or(bit, std::memory_order_release);
        } else if ((word.load(std::memory_order_relaxed) & bit) != 0) {
            word.fetch_and(~bit, std::memory_order_relaxed); // only when set: no write otherwise
        }
    }

    /// True once for a marked `id` (the mark is cleared): its record is to be dropped.
    [[nodiscard]] bool take(std::uint64_t id) noexcept {
        std::atomic<std::uint64_t>& word = m_words[(id % k_bits) / 64];
        const std::uint64_t bit = std::uint64_t{1} << (id % 64);
        if ((word.load(std::memory_order_acquire) & bit) == 0) {
            return false;
        }
        return (word.fetch_and(~bit, std::memory_order_relaxed) & bit) != 0;
    }

private:
    std::unique_ptr<std::atomic<std::uint64_t>[]> m_words;
};

} // namespace irf::intercept

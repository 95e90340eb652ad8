// SPDX-License-Identifier: Apache-2.0
// Objects that never move, allocated a chunk at a time so that those made one after another lie
// together: the launch path reads one per kernel, and with thousands of kernels each in its own
// allocation (between the kernels' larger stats) every read missed the caches and the TLB
// (issue 55 item 2; docs/performance.md, C12).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace irf::intercept {

/// Append-only storage of `T` in chunks of `k_chunk`; an element's address never changes. Not
/// thread-safe: the caller serialises add (readers reach elements through pointers it published).
template <typename T, std::size_t k_chunk = 64> class StablePool {
public:
    static_assert(k_chunk > 0, "a chunk holds at least one element");

    /// A new default-constructed element (throws std::bad_alloc; the pool is then unchanged).
    T& add() {
        if (m_size == m_chunks.size() * k_chunk) {
            // push_back's strong guarantee: if it throws, `chunk` still owns the new chunk.
            auto chunk = std::make_unique<T[]>(k_chunk);
            m_chunks.push_back(std::move(chunk));
        }
        T& fresh = (*this)[m_size];
        ++m_size;
        return fresh;
    }

    /// Elements added so far.
    [[nodiscard]] std::size_t size() const noexcept { return m_size; }

    /// Element `i` (< size()), in the order added.
    [[nodiscard]] T& operator[](std::size_t i) noexcept {
        return m_chunks[i / k_chunk][i % k_chunk];
    }

    /// Element `i` (< size()), in the order added.
    [[nodiscard]] const T& operator[](std::size_t i) const noexcept {
        return m_chunks[i / k_chunk][i % k_chunk];
    }

private:
    std::vector<std::unique_ptr<T[]>> m_chunks;
    std::size_t m_size = 0;
};

} // namespace irf::intercept

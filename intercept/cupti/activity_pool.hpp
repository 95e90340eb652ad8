// SPDX-License-Identifier: Apache-2.0
// Activity buffers kept for reuse, zeroed when they come back (plain C++): CUPTI asks for a
// buffer on the launching thread (per-thread buffers, CUDA 13), where a fresh 4 MiB allocation
// and CUPTI's own zeroing of it stall a launch; a returned buffer is zeroed on the thread that
// completes it instead (../shared/reference/overhead.md section 6; issue 55 item 2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace irf::intercept::cupti {

/// A bounded free list of equal, zeroed buffers.
class ActivityBufferPool {
public:
    /// Buffers of `bytes` each; at most `kept` wait in the pool (more are freed).
    ActivityBufferPool(std::size_t bytes, std::size_t kept) : m_bytes(bytes), m_kept(kept) {
        m_free.reserve(kept);
    }
    ActivityBufferPool(const ActivityBufferPool&) = delete;
    ActivityBufferPool& operator=(const ActivityBufferPool&) = delete;
    ~ActivityBufferPool() {
        for (std::uint8_t* buffer : m_free) {
            std::free(buffer);
        }
    }

    /// A zeroed buffer of bytes() (reused if one waits), or nullptr when memory ran out.
    std::uint8_t* take() noexcept {
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            if (!m_free.empty()) {
                std::uint8_t* buffer = m_free.back();
                m_free.pop_back();
                ++m_reused;
                return buffer;
            }
        }
        // Fresh pages from the system are zero already: calloc need not write them.
        return static_cast<std::uint8_t*>(std::calloc(1, m_bytes));
    }

    /// Takes `buffer` back (from take()): zeroed here, kept if there is room, else freed.
    void give_back(std::uint8_t* buffer) noexcept {
        if (buffer == nullptr) {
            return;
        }
        std::memset(buffer, 0, m_bytes);
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            if (m_free.size() < m_kept) {
                m_free.push_back(buffer); // within the reserved capacity: no allocation
                return;
            }
        }
        std::free(buffer);
    }

    [[nodiscard]] std::size_t bytes() const noexcept { return m_bytes; }
    /// Buffers waiting in the pool now.
    [[nodiscard]] std::size_t waiting() const noexcept {
        const std::lock_guard<std::mutex> lock(m_mutex);
        return m_free.size();
    }
    /// take() calls answered from the pool.
    [[nodiscard]] std::uint64_t reused() const noexcept {
        const std::lock_guard<std::mutex> lock(m_mutex);
        return m_reused;
    }

private:
    std::size_t m_bytes;
    std::size_t m_kept;
    mutable std::mutex m_mutex;
    std::vector<std::uint8_t*> m_free; ///< zeroed, m_bytes each
    std::uint64_t m_reused = 0;
};

} // namespace irf::intercept::cupti

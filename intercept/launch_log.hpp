// SPDX-License-Identifier: Apache-2.0
// A single-writer append log (of launches: one per application thread, drained by the collector).
// Appending is a plain store plus one release store: no lock, no shared cache line, and an
// allocation only once per 4096 launches.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>

#include "intercept/backend.hpp"

namespace irf::intercept {

struct KernelStats;

/// One intercepted launch, as the collector needs it to attribute duration and counters.
struct LaunchLogEntry {
    std::uint64_t correlation_id = 0;
    KernelStats* stats = nullptr;
    bool cold = false; ///< first launch of its function (lazy module load inside)
    LaunchDecision decision = LaunchDecision::time_only; ///< on_launch's answer
    std::uint16_t why = 0;    ///< UnprofiledWhy bits when not profiled (collector.hpp)
    std::uint32_t region = 0; ///< the thread's NVTX path id at launch (nvtx_stack.hpp)
};

/// Appended to by exactly one thread, drained by one reader at a time (the collector holds its
/// lock). The writer never waits for the reader, so a writer stopped anywhere (e.g. in a signal
/// handler) never blocks a drain.
template <typename Entry> class AppendLog {
public:
    AppendLog() : m_write(new Chunk), m_read(m_write) {}
    ~AppendLog() {
        for (Chunk* c = m_read; c != nullptr;) {
            Chunk* next = c->next.load(std::memory_order_relaxed);
            delete c;
            c = next;
        }
    }
    AppendLog(const AppendLog&) = delete;
    AppendLog& operator=(const AppendLog&) = delete;

    /// Writer thread only. False (entry dropped) only when a new chunk cannot be allocated.
    bool append(const Entry& entry) noexcept {
        if (m_write_pos == k_chunk) {
            Chunk* fresh = new (std::nothrow) Chunk;
            if (fresh == nullptr) {
                return false;
            }
            m_write->next.store(fresh, std::memory_order_release);
            m_write = fresh;
            m_write_pos = 0;
        }
        m_write->entries[m_write_pos++] = entry;
        m_published.store(m_published.load(std::memory_order_relaxed) + 1,
                          std::memory_order_release);
        return true;
    }

    /// Reader (one at a time): calls `f` on every entry published since the last drain and frees
    /// chunks the writer has left behind.
    template <typename F> void drain(F&& f) {
        const std::uint64_t published = m_published.load(std::memory_order_acquire);
        while (m_consumed < published) {
            if (m_read_pos == k_chunk) {
                Chunk* next = m_read->next.load(std::memory_order_acquire);
                delete m_read; // the writer moved on to `next` before publishing past it
                m_read = next;
                m_read_pos = 0;
            }
            f(m_read->entries[m_read_pos++]);
            ++m_consumed;
        }
    }

private:
    static constexpr std::size_t k_chunk = 4096;
    struct Chunk {
        Entry entries[k_chunk];
        std::atomic<Chunk*> next{nullptr};
    };

    // Writer side (its own cache line, so readers do not slow the writer down).
    alignas(64) Chunk* m_write;
    std::size_t m_write_pos = 0;
    std::atomic<std::uint64_t> m_published{0};
    // Reader side.
    alignas(64) Chunk* m_read;
    std::size_t m_read_pos = 0;
    std::uint64_t m_consumed = 0;
};

/// The collector's per-thread log of launches.
using LaunchLog = AppendLog<LaunchLogEntry>;

} // namespace irf::intercept

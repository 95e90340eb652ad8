// SPDX-License-Identifier: Apache-2.0
// The per-device sample lock (plain C++): launches and device-writing calls hold it shared, a
// sampled launch exclusive, and a waiting sampler is not starved by a stream of shared holders.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <shared_mutex>
#include <thread>

namespace irf::intercept::cupti {

/// A reader-writer lock whose shared side is one atomic add and one load while no writer is
/// about (a launch's ENTER takes it and its EXIT leaves it: issue 55 item 2 wants no lock on
/// the path of a launch that is not sampled). A writer takes the rwlock below exclusively, then
/// announces itself and waits for the readers in flight to leave; readers that find a writer
/// queue on that rwlock behind it, so threads that keep launching or copying cannot keep a
/// sampler out. Every wait is bounded by its deadline (docs/cupti-notes.md, sample windows).
class SampleLock {
public:
    using Clock = std::chrono::steady_clock;

    /// Shared side; false when `wait` ran out (the caller goes on unprotected).
    bool lock_shared_for(std::chrono::milliseconds wait) {
        if (try_enter()) {
            return true;
        }
        const Clock::time_point deadline = Clock::now() + wait;
        for (;;) {
            // A writer holds m_lock from before it announced itself until it leaves.
            if (!m_lock.try_lock_shared_until(deadline)) {
                return false;
            }
            m_lock.unlock_shared();
            if (try_enter()) {
                return true;
            }
            if (Clock::now() >= deadline) {
                return false;
            }
            std::this_thread::yield(); // the next writer took it between the two
        }
    }

    /// Releases the shared side.
    void unlock_shared() { m_readers.fetch_sub(1, std::memory_order_release); }

    /// Exclusive side; false when `wait` ran out.
    bool lock_for(std::chrono::milliseconds wait) {
        const Clock::time_point deadline = Clock::now() + wait;
        if (!m_lock.try_lock_until(deadline)) {
            return false;
        }
        m_writer.store(true);
        for (int round = 0; m_readers.load() != 0; ++round) {
            // Readers hold it for one driver call's ENTER to EXIT: usually microseconds.
            if (Clock::now() >= deadline) {
                leave();
                return false;
            }
            if (round < k_yield_rounds) {
                std::this_thread::yield();
            } else {
                std::this_thread::sleep_for(std::chrono::microseconds(50));
            }
        }
        return true;
    }

    /// Exclusive side if it is free now, without waiting (the idle release: a launch or sample
    /// in flight means "later"). A plain try-lock, which ThreadSanitizer sees: GCC 12's does not
    /// intercept the clock-based rwlock wait of a zero-length lock_for, and took the release
    /// thread's teardown for a race with the sample it had excluded.
    bool try_lock() {
        if (!m_lock.try_lock()) {
            return false;
        }
        m_writer.store(true);
        if (m_readers.load() != 0) {
            leave();
            return false;
        }
        return true;
    }

    /// Releases the exclusive side.
    void unlock() { leave(); }

private:
    static constexpr int k_yield_rounds = 64;

    /// The reader's fast path. Sequentially consistent with the writer's store-then-load, so
    /// of a reader and a writer arriving together at least one sees the other.
    bool try_enter() {
        m_readers.fetch_add(1);
        if (!m_writer.load()) {
            return true;
        }
        m_readers.fetch_sub(1, std::memory_order_release);
        return false;
    }

    void leave() {
        m_writer.store(false);
        m_lock.unlock();
    }

    std::atomic<std::uint32_t> m_readers{0}; ///< shared holders in flight
    std::atomic<bool> m_writer{false};       ///< from a writer's announcement until it leaves
    /// Held exclusively by the writer, shared for an instant by readers that wait for it. A
    /// shared_timed_mutex, not a timed_mutex: libstdc++'s timed_mutex waits with
    /// pthread_mutex_clocklock, which GCC 12's ThreadSanitizer does not intercept (it then
    /// reports the unlock as one of an unlocked mutex); the rwlock waits it does intercept.
    std::shared_timed_mutex m_lock;
};

} // namespace irf::intercept::cupti

// SPDX-License-Identifier: Apache-2.0
// The per-device sample lock (plain C++): launches and device-writing calls hold it shared, a
// sampled launch exclusive, and a waiting sampler is not starved by a stream of shared holders.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <shared_mutex>

namespace irf::intercept::cupti {

/// A reader-writer lock with a writer gate. glibc's rwlock (under std::shared_timed_mutex)
/// prefers readers, so threads that keep launching or copying, each holding the shared side
/// for a moment, could keep a sampler out for its whole wait. While a writer waits, new readers
/// queue at the gate behind it; the writer leaves the gate as soon as it holds the lock.
/// Every wait is bounded by its deadline (docs/cupti-notes.md, sample windows).
class SampleLock {
public:
    using Clock = std::chrono::steady_clock;

    /// Shared side; false when `wait` ran out (the caller goes on unprotected).
    bool lock_shared_for(std::chrono::milliseconds wait) {
        const Clock::time_point deadline = Clock::now() + wait;
        if (m_writer_waiting.load(std::memory_order_acquire)) {
            if (!m_gate.try_lock_until(deadline)) {
                return false;
            }
            m_gate.unlock();
        }
        return m_lock.try_lock_shared_until(deadline);
    }

    /// Releases the shared side.
    void unlock_shared() { m_lock.unlock_shared(); }

    /// Exclusive side; false when `wait` ran out.
    bool lock_for(std::chrono::milliseconds wait) {
        const Clock::time_point deadline = Clock::now() + wait;
        if (!m_gate.try_lock_until(deadline)) {
            return false;
        }
        m_writer_waiting.store(true, std::memory_order_release);
        const bool locked = m_lock.try_lock_until(deadline);
        m_writer_waiting.store(false, std::memory_order_release);
        m_gate.unlock();
        return locked;
    }

    /// Exclusive side if it is free now, without waiting (the idle release: a launch or sample
    /// in flight means "later"). Plain try-locks, which ThreadSanitizer sees: GCC 12's does not
    /// intercept the clock-based rwlock wait of a zero-length lock_for, and took the release
    /// thread's teardown for a race with the sample it had excluded.
    bool try_lock() {
        if (!m_gate.try_lock()) {
            return false;
        }
        const bool locked = m_lock.try_lock();
        m_gate.unlock();
        return locked;
    }

    /// Releases the exclusive side.
    void unlock() { m_lock.unlock(); }

private:
    /// Held by the one writer waiting for m_lock. A shared_timed_mutex used exclusively, not a
    /// timed_mutex: libstdc++'s timed_mutex waits with pthread_mutex_clocklock, which GCC 12's
    /// ThreadSanitizer does not intercept (it then reports the unlock as one of an unlocked
    /// mutex); the rwlock waits it does intercept.
    std::shared_timed_mutex m_gate;
    std::atomic<bool> m_writer_waiting{false};
    std::shared_timed_mutex m_lock;
};

} // namespace irf::intercept::cupti

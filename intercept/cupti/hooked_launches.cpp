// SPDX-License-Identifier: Apache-2.0
// Launch ids and record matching under IRF_FAST_INTERCEPT=1 (hooked_launches.hpp).
#include "intercept/cupti/hooked_launches.hpp"

#include <algorithm>

namespace irf::intercept::cupti {
namespace {

constexpr std::uint64_t k_ring_mask = HookedLaunches::k_ring - 1;

/// Signed distance from `older` to `newer` in a 32-bit space that wraps.
std::int32_t ahead_of(std::uint32_t newer, std::uint32_t older) noexcept {
    return static_cast<std::int32_t>(newer - older);
}

} // namespace

HookedLaunches::HookedLaunches()
    : m_cells(new Cell[k_ring]), m_callbacks(new std::atomic<std::uint64_t>[k_callback_slots]) {
    // A bounded multi-producer ring (a cell's sequence says whose turn it is): producers never
    // wait for each other or for the matching side.
    for (std::size_t i = 0; i < k_ring; ++i) {
        m_cells[i].sequence.store(i, std::memory_order_relaxed);
    }
    for (std::size_t i = 0; i < k_callback_slots; ++i) {
        m_callbacks[i].store(0, std::memory_order_relaxed);
    }
}

std::uint64_t HookedLaunches::next_id() noexcept {
    // 32-bit like CUPTI's ids, which the collector's bounds assume; 0 means "none" there.
    std::uint32_t id = m_next.fetch_add(1, std::memory_order_relaxed) + 1;
    while (id == 0) {
        id = m_next.fetch_add(1, std::memory_order_relaxed) + 1;
    }
    return id;
}

bool HookedLaunches::try_push(const HookedLaunch& launch) noexcept {
    std::uint64_t at = m_push_at.load(std::memory_order_relaxed);
    for (;;) {
        Cell& cell = m_cells[at & k_ring_mask];
        const std::uint64_t sequence = cell.sequence.load(std::memory_order_acquire);
        const auto turn = static_cast<std::int64_t>(sequence - at);
        if (turn == 0) {
            if (m_push_at.compare_exchange_weak(at, at + 1, std::memory_order_relaxed)) {
                cell.launch = launch;
                cell.sequence.store(at + 1, std::memory_order_release);
                return true;
            }
        } else if (turn < 0) {
            return false; // full: the matching side is k_ring launches behind
        } else {
            at = m_push_at.load(std::memory_order_relaxed);
        }
    }
}

void HookedLaunches::push(const HookedLaunch& launch) noexcept {
    if (try_push(launch)) {
        return;
    }
    // No record came for k_ring launches (records arrive in buffers, late): the launching
    // thread empties the ring itself, the only lock on the hook's path, once per k_ring.
    try {
        const std::lock_guard<std::mutex> lock(m_mutex);
        drain_locked();
        if (launch.cancel) {
            cancel_locked(launch);
        } else {
            keep_locked(launch);
        }
    } catch (...) {
        m_forgotten.fetch_add(1, std::memory_order_relaxed);
    }
}

void HookedLaunches::cancel(const HookedLaunch& launch) noexcept {
    HookedLaunch cancelled = launch;
    cancelled.cancel = true;
    push(cancelled);
}

void HookedLaunches::note_callback(std::uint32_t cupti_id, std::uint64_t id) noexcept {
    m_callbacks[cupti_id % k_callback_slots].store(
        (std::uint64_t{cupti_id} << 32) | (id & 0xffffffffu), std::memory_order_release);
}

int HookedLaunches::match_callback(std::uint32_t cupti_id, std::uint64_t& id) const noexcept {
    const std::uint64_t kept =
        m_callbacks[cupti_id % k_callback_slots].load(std::memory_order_acquire);
    const auto kept_cupti = static_cast<std::uint32_t>(kept >> 32);
    if (kept != 0 && kept_cupti == cupti_id) {
        id = kept & 0xffffffffu;
        return 1;
    }
    // A later launch took the slot: this record's launch went through a callback, long ago.
    return kept != 0 && ahead_of(kept_cupti, cupti_id) > 0 ? -1 : 0;
}

void HookedLaunches::drain_locked() noexcept {
    for (;;) {
        Cell& cell = m_cells[m_pop_at & k_ring_mask];
        if (cell.sequence.load(std::memory_order_acquire) != m_pop_at + 1) {
            return; // empty, or a producer is still writing this cell
        }
        const HookedLaunch launch = cell.launch;
        cell.sequence.store(m_pop_at + k_ring, std::memory_order_release);
        ++m_pop_at;
        if (launch.cancel) {
            cancel_locked(launch);
            continue;
        }
        try {
            keep_locked(launch);
        } catch (...) {
            m_forgotten.fetch_add(1, std::memory_order_relaxed);
            m_forgot_waiting = true;
        }
    }
}

void HookedLaunches::keep_locked(const HookedLaunch& launch) {
    if (m_waiting >= k_max_waiting) {
        m_forgotten.fetch_add(1, std::memory_order_relaxed);
        m_forgot_waiting = true;
        const auto found = m_streams.find(launch.stream_key);
        if (found == m_streams.end()) {
            return;
        }
        // The oldest of its stream: its record is the least likely to come.
        found->second.pop_front(); // never empty: an emptied stream is erased
        --m_waiting;
    }
    m_streams[launch.stream_key].push_back({launch, 0});
    ++m_waiting;
}

void HookedLaunches::forget_if_empty_locked(
    std::unordered_map<std::uint64_t, std::deque<Waiting>>::iterator stream) noexcept {
    // Streams come and go (stream ids are not reused): an empty one is not kept, so the map
    // holds only streams with launches waiting.
    if (stream->second.empty()) {
        m_streams.erase(stream);
    }
}

void HookedLaunches::cancel_locked(const HookedLaunch& launch) noexcept {
    const auto found = m_streams.find(launch.stream_key);
    if (found == m_streams.end()) {
        return;
    }
    std::deque<Waiting>& waiting = found->second;
    // From the back: a refused launch is cancelled right after it was pushed.
    const auto it = std::find_if(waiting.rbegin(), waiting.rend(),
                                 [&launch](const Waiting& w) { return w.launch.id == launch.id; });
    if (it != waiting.rend()) {
        waiting.erase(std::next(it).base());
        --m_waiting;
        forget_if_empty_locked(found);
    }
}

bool HookedLaunches::match_waiting_locked(std::uint64_t stream_key,
                                          const std::array<std::uint32_t, 3>& grid,
                                          const std::array<std::uint32_t, 3>& block,
                                          std::uint64_t& id) {
    const auto found = m_streams.find(stream_key);
    if (found == m_streams.end()) {
        return false;
    }
    std::deque<Waiting>& waiting = found->second;
    const std::size_t window = std::min(waiting.size(), k_window);
    for (std::size_t i = 0; i < window; ++i) {
        if (waiting[i].launch.grid != grid || waiting[i].launch.block != block) {
            continue;
        }
        id = waiting[i].launch.id;
        waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(i));
        --m_waiting;
        // The launches passed over ran later than their turn (threads sharing a stream) or
        // never got a record; the latter would block the window, so they go in time.
        for (std::size_t j = 0; j < i && j < waiting.size();) {
            if (++waiting[j].skips > k_max_skips) {
                waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(j));
                --m_waiting;
                --i;
                m_forgotten.fetch_add(1, std::memory_order_relaxed);
                continue;
            }
            ++j;
        }
        forget_if_empty_locked(found);
        return true;
    }
    return false;
}

RecordMatch HookedLaunches::match(std::uint32_t cupti_id, std::uint64_t stream_key,
                                  const std::array<std::uint32_t, 3>& grid,
                                  const std::array<std::uint32_t, 3>& block,
                                  std::uint64_t& id) noexcept {
    // First by CUPTI id: a callback launch of the same grid on the same stream must not take a
    // hooked launch's place.
    const int callback = cupti_id != 0 ? match_callback(cupti_id, id) : 0;
    if (callback > 0) {
        m_callback_matches.fetch_add(1, std::memory_order_relaxed);
        return RecordMatch::callback;
    }
    try {
        const std::lock_guard<std::mutex> lock(m_mutex);
        drain_locked();
        if (match_waiting_locked(stream_key, grid, block, id)) {
            m_hooked_matches.fetch_add(1, std::memory_order_relaxed);
            return RecordMatch::hooked;
        }
        if (callback < 0 || m_forgot_waiting) {
            return RecordMatch::lost;
        }
    } catch (...) {
        return RecordMatch::lost;
    }
    return RecordMatch::unseen;
}

std::size_t HookedLaunches::streams_waiting() noexcept {
    try {
        const std::lock_guard<std::mutex> lock(m_mutex);
        drain_locked();
        return m_streams.size();
    } catch (...) {
        return 0;
    }
}

std::size_t HookedLaunches::waiting() noexcept {
    try {
        const std::lock_guard<std::mutex> lock(m_mutex);
        drain_locked();
        return m_waiting;
    } catch (...) {
        return 0;
    }
}

} // namespace irf::intercept::cupti

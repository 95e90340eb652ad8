// SPDX-License-Identifier: Apache-2.0
// Launch ids under `irf run --fast-intercept` (IRF_FAST_INTERCEPT=1; docs/tools.md, "Launches
// without CUPTI callbacks"): every launch gets an id of irf's own, and each kernel record finds
// its launch again. A launch seen through CUPTI's callback is found by CUPTI's correlation id; a
// launch seen only by libirf_entry.so's hook (no CUPTI id then) is found in launch order on its
// stream, checked by grid and block. Plain C++ (no CUPTI types), so tests drive it directly.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace irf::intercept::cupti {

/// One launch seen by the hook, waiting for its kernel record.
struct HookedLaunch {
    std::uint64_t id = 0;         ///< irf's id (what the sink knows it by)
    std::uint64_t stream_key = 0; ///< CUPTI context id << 32 | CUPTI stream id
    std::array<std::uint32_t, 3> grid{};
    std::array<std::uint32_t, 3> block{};
    bool cancel = false; ///< the driver refused the launch: no record will come for `id`
};

/// How a kernel record was matched to its launch.
enum class RecordMatch : std::uint8_t {
    callback, ///< by CUPTI's correlation id (the launch went through a CUPTI callback)
    hooked,   ///< in launch order on its stream (the launch went through the hook only)
    unseen,   ///< no launch: neither saw it (code that calls libcuda directly)
    lost,     ///< its launch was forgotten (bounds below): its duration is dropped
};

/// Ids and matching; thread-safe. Neither launch path takes a lock: hooked launches go through
/// a fixed ring that the matching side empties, callback launches into a table by CUPTI id.
class HookedLaunches {
public:
    /// Launches kept waiting for a record (per process), and the ring between the two sides.
    static constexpr std::size_t k_max_waiting = std::size_t{1} << 18;
    static constexpr std::size_t k_ring = std::size_t{1} << 14;
    /// Slots of the callback table (CUPTI id modulo this): a record that comes after this many
    /// later callback launches finds its slot taken and is `lost` (2 MiB).
    static constexpr std::size_t k_callback_slots = std::size_t{1} << 18;
    /// A waiting launch passed over by this many later matches on its stream never gets a record.
    static constexpr std::uint32_t k_max_skips = 64;
    /// How far into a stream's waiting launches a record looks for its grid and block.
    static constexpr std::size_t k_window = 16;

    HookedLaunches();

    /// A new id: 32-bit, never 0, in launch order (the collector's order of ids, which wraps).
    [[nodiscard]] std::uint64_t next_id() noexcept;

    /// The hook reported `launch` to the sink (before the driver's call).
    void push(const HookedLaunch& launch) noexcept;

    /// The driver refused `launch` (after the hook pushed it).
    void cancel(const HookedLaunch& launch) noexcept;

    /// A launch went through CUPTI's callback with correlation id `cupti_id`; `id` is irf's.
    void note_callback(std::uint32_t cupti_id, std::uint64_t id) noexcept;

    /// Matches one kernel record (CUPTI id 0 when CUPTI gave none); sets `id` unless `lost`.
    [[nodiscard]] RecordMatch match(std::uint32_t cupti_id, std::uint64_t stream_key,
                                    const std::array<std::uint32_t, 3>& grid,
                                    const std::array<std::uint32_t, 3>& block,
                                    std::uint64_t& id) noexcept;

    /// Launches forgotten by the bounds (their records are dropped as `lost`).
    [[nodiscard]] std::uint64_t forgotten() const noexcept { return m_forgotten.load(); }
    /// Records matched so far, to hooked and to callback launches (replays' records included).
    [[nodiscard]] std::uint64_t matched_hooked() const noexcept { return m_hooked_matches.load(); }
    [[nodiscard]] std::uint64_t matched_callback() const noexcept {
        return m_callback_matches.load();
    }
    /// Hooked launches now waiting for their record (the ring emptied first).
    [[nodiscard]] std::size_t waiting() noexcept;
    /// Streams with hooked launches waiting (the ring emptied first).
    [[nodiscard]] std::size_t streams_waiting() noexcept;

private:
    struct Cell {
        std::atomic<std::uint64_t> sequence{0};
        HookedLaunch launch;
    };
    struct Waiting {
        HookedLaunch launch;
        std::uint32_t skips = 0;
    };

    bool try_push(const HookedLaunch& launch) noexcept;
    void drain_locked() noexcept;
    void keep_locked(const HookedLaunch& launch);
    void cancel_locked(const HookedLaunch& launch) noexcept;
    void forget_if_empty_locked(
        std::unordered_map<std::uint64_t, std::deque<Waiting>>::iterator stream) noexcept;
    bool match_waiting_locked(std::uint64_t stream_key, const std::array<std::uint32_t, 3>& grid,
                              const std::array<std::uint32_t, 3>& block, std::uint64_t& id);
    /// 1: found (`id` set); 0: never kept; -1: its slot was taken by a later launch.
    int match_callback(std::uint32_t cupti_id, std::uint64_t& id) const noexcept;

    std::atomic<std::uint32_t> m_next{0};
    std::unique_ptr<Cell[]> m_cells;
    std::atomic<std::uint64_t> m_push_at{0};
    std::uint64_t m_pop_at = 0;                                ///< under m_mutex
    std::unique_ptr<std::atomic<std::uint64_t>[]> m_callbacks; ///< CUPTI id << 32 | irf's id
    std::atomic<std::uint64_t> m_forgotten{0};
    std::atomic<std::uint64_t> m_hooked_matches{0};   ///< the matching side's (one thread)
    std::atomic<std::uint64_t> m_callback_matches{0}; ///< likewise

    std::mutex m_mutex; ///< the matching side: everything below
    std::unordered_map<std::uint64_t, std::deque<Waiting>> m_streams;
    std::size_t m_waiting = 0;
    bool m_forgot_waiting = false; ///< some hooked launch was dropped by a bound
};

} // namespace irf::intercept::cupti

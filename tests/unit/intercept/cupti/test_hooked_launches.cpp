// SPDX-License-Identifier: Apache-2.0
// IRF_FAST_INTERCEPT's ids and record matching (intercept/cupti/hooked_launches.hpp): by CUPTI
// id for callback launches, in launch order per stream for hooked ones, and what is neither.
#include <algorithm>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "intercept/cupti/hooked_launches.hpp"

namespace irf::intercept::cupti {
namespace test_hooked_launches {
namespace {

using Dims = std::array<std::uint32_t, 3>;
constexpr Dims k_grid_a{8, 1, 1};
constexpr Dims k_grid_b{16, 2, 1};
constexpr Dims k_block{256, 1, 1};
constexpr std::uint64_t k_stream = (std::uint64_t{1} << 32) | 7; // context 1, stream 7

HookedLaunch hooked(std::uint64_t id, const Dims& grid, std::uint64_t stream = k_stream) {
    HookedLaunch launch;
    launch.id = id;
    launch.stream_key = stream;
    launch.grid = grid;
    launch.block = k_block;
    return launch;
}

/// The id a record of `grid` on `stream` (CUPTI id `cupti`) is matched to; 0 with `how` set
/// when it is not.
std::uint64_t matched(HookedLaunches& launches, std::uint32_t cupti, const Dims& grid,
                      RecordMatch& how, std::uint64_t stream = k_stream) {
    std::uint64_t id = 0;
    how = launches.match(cupti, stream, grid, k_block, id);
    return how == RecordMatch::callback || how == RecordMatch::hooked ? id : 0;
}

TEST(HookedLaunches, IdsAreThirtyTwoBitInLaunchOrder) {
    HookedLaunches launches;
    EXPECT_EQ(launches.next_id(), 1u);
    EXPECT_EQ(launches.next_id(), 2u);
    EXPECT_EQ(launches.next_id(), 3u);
}

TEST(HookedLaunches, CallbackLaunchesAreFoundByCuptiIdEachTime) {
    HookedLaunches launches;
    launches.note_callback(700, 5);
    launches.push(hooked(6, k_grid_a)); // same grid, same stream: must not take its place
    RecordMatch how{};
    EXPECT_EQ(matched(launches, 700, k_grid_a, how), 5u);
    EXPECT_EQ(how, RecordMatch::callback);
    // A kernel replay's records share the id: each finds the launch (the backend keeps the first).
    EXPECT_EQ(matched(launches, 700, k_grid_a, how), 5u);
    EXPECT_EQ(launches.waiting(), 1u);
    EXPECT_EQ(matched(launches, 701, k_grid_a, how), 6u);
    EXPECT_EQ(how, RecordMatch::hooked);
    EXPECT_EQ(launches.waiting(), 0u);
    EXPECT_EQ(launches.matched_callback(), 2u); // what IRF_LOG=debug's line at exit counts
    EXPECT_EQ(launches.matched_hooked(), 1u);
}

TEST(HookedLaunches, HookedLaunchesAreFoundInOrderPerStreamByGrid) {
    HookedLaunches launches;
    constexpr std::uint64_t other = (std::uint64_t{1} << 32) | 9;
    launches.push(hooked(10, k_grid_a));
    launches.push(hooked(11, k_grid_b));
    launches.push(hooked(12, k_grid_a, other));
    launches.push(hooked(13, k_grid_a));
    RecordMatch how{};
    // Two threads on one stream can submit out of turn: grid b's record finds 11, not 10.
    EXPECT_EQ(matched(launches, 0, k_grid_b, how), 11u);
    EXPECT_EQ(matched(launches, 0, k_grid_a, how), 10u);
    EXPECT_EQ(matched(launches, 0, k_grid_a, how, other), 12u);
    EXPECT_EQ(matched(launches, 0, k_grid_a, how), 13u);
    EXPECT_EQ(how, RecordMatch::hooked);
}

TEST(HookedLaunches, ARecordOfNoLaunchIsUnseen) {
    HookedLaunches launches;
    launches.push(hooked(20, k_grid_a));
    RecordMatch how{};
    EXPECT_EQ(matched(launches, 900, k_grid_b, how), 0u); // not its grid
    EXPECT_EQ(how, RecordMatch::unseen);
    EXPECT_EQ(matched(launches, 901, k_grid_a, how, 42), 0u); // another stream
    EXPECT_EQ(how, RecordMatch::unseen);
    EXPECT_EQ(launches.waiting(), 1u);
}

TEST(HookedLaunches, ARefusedLaunchIsForgotten) {
    HookedLaunches launches;
    launches.push(hooked(30, k_grid_a));
    launches.push(hooked(31, k_grid_a));
    launches.cancel(hooked(30, k_grid_a)); // the driver refused it: no record comes
    RecordMatch how{};
    EXPECT_EQ(matched(launches, 0, k_grid_a, how), 31u);
    EXPECT_EQ(launches.waiting(), 0u);
}

TEST(HookedLaunches, StreamsWithNothingWaitingAreNotKept) {
    // An application that creates a stream per step: ids are not reused, so a stream whose
    // launches all found their records (or were refused) must leave nothing behind.
    HookedLaunches launches;
    RecordMatch how{};
    for (std::uint64_t s = 1; s <= 1000; ++s) {
        launches.push(hooked(s, k_grid_a, (std::uint64_t{1} << 32) | s));
    }
    EXPECT_EQ(launches.streams_waiting(), 1000u);
    for (std::uint64_t s = 1; s <= 999; ++s) {
        EXPECT_EQ(matched(launches, 0, k_grid_a, how, (std::uint64_t{1} << 32) | s), s);
    }
    EXPECT_EQ(launches.streams_waiting(), 1u);
    launches.cancel(hooked(1000, k_grid_a, (std::uint64_t{1} << 32) | 1000));
    EXPECT_EQ(launches.streams_waiting(), 0u);
    EXPECT_EQ(launches.waiting(), 0u);
}

TEST(HookedLaunches, ACallbackSlotTakenByALaterLaunchMakesItsRecordLost) {
    HookedLaunches launches;
    launches.note_callback(100, 1);
    launches.note_callback(100 + HookedLaunches::k_callback_slots, 2); // the same slot, later
    RecordMatch how{};
    EXPECT_EQ(matched(launches, 100, k_grid_a, how), 0u);
    EXPECT_EQ(how, RecordMatch::lost); // not `unseen`: that would report the launch twice
    EXPECT_EQ(matched(launches, 100 + HookedLaunches::k_callback_slots, k_grid_a, how), 2u);
}

TEST(HookedLaunches, ALaunchPassedOverTooOftenIsDroppedSoTheWindowStaysOpen) {
    HookedLaunches launches;
    launches.push(hooked(1, k_grid_a)); // its record never comes
    RecordMatch how{};
    // Passed over by 64 matches it stays (a late record may still come); the 65th drops it.
    for (std::uint64_t id = 2; id < 2 + HookedLaunches::k_max_skips; ++id) {
        launches.push(hooked(id, k_grid_b));
        ASSERT_EQ(matched(launches, 0, k_grid_b, how), id);
    }
    EXPECT_EQ(launches.waiting(), 1u);
    EXPECT_EQ(launches.forgotten(), 0u);
    launches.push(hooked(100, k_grid_b));
    EXPECT_EQ(matched(launches, 0, k_grid_b, how), 100u);
    EXPECT_EQ(launches.waiting(), 0u);
    EXPECT_EQ(launches.forgotten(), 1u);
}

TEST(HookedLaunches, AFullRingIsEmptiedByTheLaunchingThread) {
    // No record for more than the ring's launches (CUPTI delivers buffers late): nothing lost.
    HookedLaunches launches;
    const std::uint64_t n = HookedLaunches::k_ring + 5;
    for (std::uint64_t id = 1; id <= n; ++id) {
        launches.push(hooked(id, k_grid_a));
    }
    EXPECT_EQ(launches.waiting(), n);
    RecordMatch how{};
    EXPECT_EQ(matched(launches, 0, k_grid_a, how), 1u);
    EXPECT_EQ(launches.forgotten(), 0u);
}

TEST(HookedLaunches, ThreadsPushWhileRecordsAreMatched) {
    HookedLaunches launches;
    constexpr int k_threads = 4;
    constexpr std::uint64_t k_each = 20000;
    std::vector<std::thread> threads;
    for (int t = 0; t < k_threads; ++t) {
        threads.emplace_back([&launches, t] {
            for (std::uint64_t i = 0; i < k_each; ++i) {
                launches.push(hooked(launches.next_id(), k_grid_a, 1000 + t));
            }
        });
    }
    // Matched while the threads push, as CUPTI's buffer thread does: each launch exactly once.
    std::uint64_t found = 0;
    std::uint64_t id = 0;
    while (found < k_threads * k_each) {
        for (int t = 0; t < k_threads; ++t) {
            found += launches.match(0, 1000 + t, k_grid_a, k_block, id) == RecordMatch::hooked;
        }
    }
    for (std::thread& th : threads) {
        th.join();
    }
    EXPECT_EQ(launches.waiting(), 0u);
    EXPECT_EQ(found, k_threads * k_each);
    EXPECT_EQ(launches.forgotten(), 0u);
}

} // namespace
} // namespace test_hooked_launches
} // namespace irf::intercept::cupti

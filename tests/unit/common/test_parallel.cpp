// SPDX-License-Identifier: Apache-2.0
// common::for_each_range: the ranges cover every item once, in order, split as documented; an
// exception in any range reaches the caller after all have ended.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "common/parallel.hpp"

namespace irf::test {
namespace test_parallel {
namespace {

std::vector<std::pair<std::size_t, std::size_t>> ranges_of(std::size_t count, unsigned threads,
                                                           std::size_t min_per_worker) {
    std::mutex lock;
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    common::for_each_range(count, threads, min_per_worker, [&](std::size_t b, std::size_t e) {
        const std::lock_guard<std::mutex> hold(lock);
        ranges.emplace_back(b, e);
    });
    std::sort(ranges.begin(), ranges.end());
    return ranges;
}

TEST(CommonParallel, RangesCoverEveryItemOnceSplitEvenly) {
    // 10 items, 3 threads, at least 2 each: 3 workers, [0,3) [3,6) [6,10) (10 * w / 3).
    using R = std::vector<std::pair<std::size_t, std::size_t>>;
    EXPECT_EQ(ranges_of(10, 3, 2), (R{{0, 3}, {3, 6}, {6, 10}}));
    // At least 4 each: 10 / 4 = 2 workers, [0,5) [5,10).
    EXPECT_EQ(ranges_of(10, 8, 4), (R{{0, 5}, {5, 10}}));
    // Fewer items than the minimum, no item, or 0 threads: one range on the calling thread.
    EXPECT_EQ(ranges_of(3, 8, 4), (R{{0, 3}}));
    EXPECT_EQ(ranges_of(0, 8, 4), (R{{0, 0}}));
    EXPECT_EQ(ranges_of(10, 0, 1), (R{{0, 10}}));
}

TEST(CommonParallel, EveryItemIsVisitedExactlyOnce) {
    std::vector<std::atomic<int>> seen(1000);
    common::for_each_range(seen.size(), 4, 10, [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) {
            ++seen[i];
        }
    });
    for (const auto& s : seen) {
        EXPECT_EQ(s.load(), 1);
    }
}

TEST(CommonParallel, AnExceptionReachesTheCallerAfterEveryRangeEnded) {
    std::atomic<int> ended{0};
    const auto work = [&](std::size_t b, std::size_t) {
        if (b == 0) {
            throw std::runtime_error("first range failed");
        }
        ++ended;
    };
    EXPECT_THROW(common::for_each_range(100, 4, 1, work), std::runtime_error);
    EXPECT_EQ(ended.load(), 3); // the other three ranges ran to the end
}

} // namespace
} // namespace test_parallel
} // namespace irf::test

// SPDX-License-Identifier: Apache-2.0
// The activity buffer pool (intercept/cupti/activity_pool.hpp): buffers come zeroed, returned
// ones are reused zeroed, and no more than the bound wait (issue 55 item 2).
#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include "intercept/cupti/activity_pool.hpp"

namespace irf::intercept::cupti {
namespace test_activity_pool {
namespace {

bool all_zero(const std::uint8_t* buffer, std::size_t bytes) {
    return std::all_of(buffer, buffer + bytes, [](std::uint8_t b) { return b == 0; });
}

TEST(ActivityBufferPool, AFreshBufferIsZeroed) {
    ActivityBufferPool pool(4096, 2);
    std::uint8_t* buffer = pool.take();
    ASSERT_NE(buffer, nullptr);
    EXPECT_TRUE(all_zero(buffer, pool.bytes()));
    EXPECT_EQ(pool.reused(), 0u);
    pool.give_back(buffer);
}

TEST(ActivityBufferPool, AReturnedBufferIsReusedZeroed) {
    ActivityBufferPool pool(4096, 2);
    std::uint8_t* buffer = pool.take();
    std::fill(buffer, buffer + pool.bytes(), std::uint8_t{0xAB}); // records CUPTI wrote
    pool.give_back(buffer);
    EXPECT_EQ(pool.waiting(), 1u);
    std::uint8_t* again = pool.take();
    EXPECT_EQ(again, buffer);
    EXPECT_EQ(pool.reused(), 1u);
    EXPECT_TRUE(all_zero(again, pool.bytes()));
    pool.give_back(again);
}

TEST(ActivityBufferPool, NoMoreThanTheBoundWait) {
    ActivityBufferPool pool(4096, 2);
    std::vector<std::uint8_t*> taken;
    for (int i = 0; i < 5; ++i) {
        taken.push_back(pool.take());
    }
    for (std::uint8_t* buffer : taken) {
        pool.give_back(buffer);
    }
    EXPECT_EQ(pool.waiting(), 2u); // three were freed
    pool.give_back(nullptr);       // CUPTI's "no buffer": nothing to keep
    EXPECT_EQ(pool.waiting(), 2u);
}

} // namespace
} // namespace test_activity_pool
} // namespace irf::intercept::cupti

// SPDX-License-Identifier: Apache-2.0
// The "inside irf" depth the signal handler reads (issue 38 item 8): per thread, nested.
#include <thread>

#include <gtest/gtest.h>

#include "common/inside_irf.hpp"

namespace irf::common {
namespace test_inside_irf {
namespace {

TEST(InsideIrf, DepthIsPerThreadAndNests) {
    EXPECT_FALSE(inside_irf());
    {
        const InsideIrf outer;
        {
            const InsideIrf inner;
            EXPECT_TRUE(inside_irf());
        }
        EXPECT_TRUE(inside_irf());
        bool other_thread = true;
        std::thread([&other_thread] { other_thread = inside_irf(); }).join();
        EXPECT_FALSE(other_thread) << "another thread's signal must still wait for the profile";
    }
    EXPECT_FALSE(inside_irf());
}

} // namespace
} // namespace test_inside_irf
} // namespace irf::common

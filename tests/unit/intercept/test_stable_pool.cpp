// SPDX-License-Identifier: Apache-2.0
// StablePool (intercept/stable_pool.hpp): elements never move as chunks are added, and the
// collector keeps its functions and configurations there, past many chunks.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "intercept/stable_pool.hpp"
#include "tests/unit/intercept/collector_profile.hpp"

namespace irf::intercept {
namespace test_stable_pool {
namespace {

struct Item {
    int value = -1;
    std::string text;
};

TEST(StablePool, StartsEmptyAndAddsDefaultConstructedElements) {
    StablePool<Item, 4> pool;
    EXPECT_EQ(pool.size(), 0u);
    Item& first = pool.add();
    EXPECT_EQ(pool.size(), 1u);
    EXPECT_EQ(first.value, -1);
    EXPECT_TRUE(first.text.empty());
    EXPECT_EQ(&pool[0], &first);
}

TEST(StablePool, ElementsKeepTheirAddressesAndOrderAsChunksAreAdded) {
    StablePool<Item, 4> pool;
    std::vector<Item*> seen;
    for (int i = 0; i < 41; ++i) { // 11 chunks of 4, the last one partly used
        Item& item = pool.add();
        item.value = i;
        item.text = "item " + std::to_string(i);
        seen.push_back(&item);
    }
    ASSERT_EQ(pool.size(), 41u);
    const StablePool<Item, 4>& read = pool;
    for (int i = 0; i < 41; ++i) {
        EXPECT_EQ(&pool[static_cast<std::size_t>(i)], seen[static_cast<std::size_t>(i)]);
        EXPECT_EQ(read[static_cast<std::size_t>(i)].value, i);
        EXPECT_EQ(read[static_cast<std::size_t>(i)].text, "item " + std::to_string(i));
    }
    // Within a chunk, one element follows the other: what the launch path relies on.
    EXPECT_EQ(seen[1], seen[0] + 1);
    EXPECT_EQ(seen[3], seen[0] + 3);
}

TEST(StablePool, ChunksOfOneHoldOneElementEach) {
    StablePool<int, 1> pool;
    int& a = pool.add();
    a = 7;
    int& b = pool.add();
    b = 9;
    EXPECT_EQ(pool.size(), 2u);
    EXPECT_EQ(pool[0], 7);
    EXPECT_EQ(pool[1], 9);
}

// 300 kernels of two configurations each fill several chunks of the collector's pools of
// functions (first configurations) and of further configurations. After timing stops, every
// launch is counted in the configuration it found: each kernel's count must come back whole.
TEST(StablePool, CollectorCountsEveryConfigurationOfHundredsOfKernels) {
    config::Config cfg;
    cfg.samples = 0;
    Collector c(cfg);
    constexpr std::uint32_t k_kernels = 300;
    std::vector<std::string> names;
    for (std::uint32_t k = 0; k < k_kernels; ++k) {
        names.push_back("_Z1kILi" + std::to_string(k) + "EEvv");
    }
    std::uint64_t id = 0;
    const auto launch = [&](std::uint32_t k, std::uint32_t grid) {
        LaunchEvent e;
        e.function = reinterpret_cast<const void*>(std::uintptr_t{0x1000} + 16 * k);
        e.mangled = names[k].c_str();
        e.launch.grid = {grid, 1, 1};
        e.correlation_id = ++id;
        static_cast<void>(c.on_launch(e));
    };
    c.on_timing_stopped(); // counts per configuration, no record waited for
    for (int round = 0; round < 3; ++round) {
        for (std::uint32_t k = 0; k < k_kernels; ++k) {
            launch(k, 1);
            launch(k, 2);
            if (k % 2 == 0) {
                launch(k, 2); // even kernels: one more launch of the second configuration
            }
        }
    }
    const model::Profile p = test::profile_of(c);
    ASSERT_EQ(p.kernels.size(), 2 * k_kernels);
    std::uint64_t total = 0;
    for (const model::KernelRecord& kernel : p.kernels) {
        const std::uint32_t k =
            static_cast<std::uint32_t>(std::stoul(kernel.name.substr(kernel.name.find('<') + 1)));
        const bool second = kernel.launch.grid[0] == 2;
        const std::uint64_t expected = second && k % 2 == 0 ? 6 : 3;
        EXPECT_EQ(kernel.launches, expected) << kernel.name << " grid " << kernel.launch.grid[0];
        total += kernel.launches;
    }
    EXPECT_EQ(total, 3u * (2 * k_kernels + k_kernels / 2));
}

} // namespace
} // namespace test_stable_pool
} // namespace irf::intercept

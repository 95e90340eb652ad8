// SPDX-License-Identifier: Apache-2.0
// NVTX capture under hostile use (issue #39 items 6 and 11): starts without ends, many domains,
// many distinct names, and '/' inside a range name.
#include <chrono>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "intercept/nvtx_stack.hpp"
#include "model/profile/profile_json.hpp"

namespace irf::intercept {
namespace test_nvtx_limits {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// 20 million nvtxRangeStartA without an end took 1.45 GB before: the open map had no bound.
// In a child process: the ranges it leaves open are process-wide, and later start/end tests in
// the same process would find the table full.
TEST(NvtxLimits, StartsWithoutEndsAreCappedAndCounted) {
    EXPECT_EXIT(
        {
            const std::uint64_t before = nvtx::stats().open_dropped;
            for (std::size_t i = 0; i < nvtx::k_max_open_ranges + 100; ++i) {
                EXPECT_NE(nvtx::start_range(nvtx::k_default_domain, "leak " + std::to_string(i)),
                          0u);
            }
            EXPECT_LE(nvtx::open_ranges().size(), nvtx::k_max_open_ranges);
            EXPECT_GE(nvtx::stats().open_dropped, before + 100);
            std::exit(::testing::Test::HasFailure() ? 1 : 0);
        },
        ::testing::ExitedWithCode(0), "");
}

// A linear search over the domains: 100,000 nvtxDomainCreateA names took 11.5 s (the bound
// leaves room for sanitizer builds; the hash index takes well under 1 s).
TEST(NvtxLimits, DomainCreationIsLinear) {
    const auto start = std::chrono::steady_clock::now();
    std::uint32_t first = 0;
    for (int i = 0; i < 100000; ++i) {
        const std::uint32_t d = nvtx::domain("domain " + std::to_string(i));
        first = i == 0 ? d : first;
    }
    EXPECT_EQ(nvtx::domain("domain 0"), first);
    EXPECT_LT(seconds_since(start), 5.0);
}

// A range named "a/b" and the ranges a, b nested were one region in the profile.
TEST(NvtxLimits, SlashInsideANameIsNotASeparator) {
    nvtx::set_stack({"a/b"});
    const std::string one = nvtx::path_name(nvtx::current_path());
    nvtx::set_stack({"a", "b"});
    const std::string two = nvtx::path_name(nvtx::current_path());
    nvtx::set_stack({"a\\", "b"});
    const std::string backslash = nvtx::path_name(nvtx::current_path());
    nvtx::set_stack({});
    EXPECT_EQ(one, "a\\/b");
    EXPECT_EQ(two, "a/b");
    EXPECT_EQ(backslash, "a\\\\/b");
}

/// A million distinct names made the exit take 39 s and 6.4 GB; at the cap the profile of one
/// kernel launched under every kept path is built and written in well under 2 s (bound kept
/// generous for sanitizer builds), and under 64 MB.
void fill_the_path_table_and_profile() {
    config::Config c;
    c.samples = 0;
    Collector collector(c);
    const std::uint64_t dropped = nvtx::stats().paths_dropped;
    for (std::uint32_t i = 0; i < nvtx::k_max_paths + 100; ++i) {
        nvtx::set_stack({"seq " + std::to_string(i)});
        LaunchEvent e;
        e.function = reinterpret_cast<const void*>(std::uintptr_t{7});
        e.mangled = "_Z4gemmv";
        e.correlation_id = i + 1;
        (void)collector.on_launch(e);
        collector.on_duration({e.correlation_id, 0, 100});
    }
    nvtx::set_stack({});
    EXPECT_GE(nvtx::stats().paths_dropped, dropped + 100);
    const auto start = std::chrono::steady_clock::now();
    model::Profile p;
    collector.fill_profile(p);
    const std::string json = model::dump_profile(p);
    EXPECT_LT(seconds_since(start), 10.0);
    EXPECT_LT(json.size(), 64u << 20);
}

// Runs in a child process (gtest's death-test fork): it fills the process-wide path table, and
// every test after it in the same process could keep no new path.
TEST(NvtxLimits, ProfileAtThePathCapIsQuick) {
    EXPECT_EXIT(
        {
            fill_the_path_table_and_profile();
            std::exit(::testing::Test::HasFailure() ? 1 : 0);
        },
        ::testing::ExitedWithCode(0), "");
}

} // namespace
} // namespace test_nvtx_limits
} // namespace irf::intercept

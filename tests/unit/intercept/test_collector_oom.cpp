// SPDX-License-Identifier: Apache-2.0
// Out of memory on the launch path (a program of its own: it replaces the global operator new).
// Each allocation a new kernel's first launch makes, and a new configuration's, fails once in
// turn: the launch is dropped or counted, the application goes on, and the profile written
// afterwards holds no kernel without launches and no entry without its statistics.
#include <atomic>
#include <cstdlib>
#include <new>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "tests/unit/intercept/collector_profile.hpp"

namespace irf::intercept {
namespace test_collector_oom {
namespace {

std::atomic<long> g_fail_at{-1}; ///< the allocation (counted from 0 once armed) that fails
std::atomic<long> g_allocations{0};

/// malloc, or std::bad_alloc when it is the armed allocation.
void* allocate(std::size_t bytes) {
    const long fail_at = g_fail_at.load(std::memory_order_relaxed);
    if (fail_at >= 0 && g_allocations.fetch_add(1, std::memory_order_relaxed) == fail_at) {
        throw std::bad_alloc();
    }
    if (void* p = std::malloc(bytes != 0 ? bytes : 1)) {
        return p;
    }
    throw std::bad_alloc();
}

} // namespace
} // namespace test_collector_oom
} // namespace irf::intercept

void* operator new(std::size_t bytes) {
    return irf::intercept::test_collector_oom::allocate(bytes);
}
void* operator new[](std::size_t bytes) {
    return irf::intercept::test_collector_oom::allocate(bytes);
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t /*bytes*/) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t /*bytes*/) noexcept {
    std::free(p);
}

namespace irf::intercept {
namespace test_collector_oom {
namespace {

LaunchEvent launch_of(std::uintptr_t function, const char* name, std::uint32_t grid,
                      std::uint64_t id) {
    LaunchEvent e;
    e.function = reinterpret_cast<const void*>(function);
    e.mangled = name;
    e.launch.grid = {grid, 1, 1};
    e.correlation_id = id;
    return e;
}

/// Runs `armed` with the `k`th allocation failing; true when it made more than k allocations
/// (so the failure happened inside it).
template <class Fn> bool with_failure_at(long k, Fn&& armed) {
    g_allocations = 0;
    g_fail_at = k;
    armed();
    g_fail_at = -1;
    return g_allocations.load() > k;
}

/// Every kernel of `c`'s profile has launches (none of them a ghost of a failed allocation).
void expect_no_ghosts(Collector& c, long k) {
    const model::Profile p = test::profile_of(c);
    for (const model::KernelRecord& kernel : p.kernels) {
        EXPECT_GT(kernel.launches, 0u) << kernel.name << " (allocation " << k << " failed)";
    }
}

config::Config plain() {
    config::Config cfg;
    cfg.callstack = 0;
    return cfg;
}

TEST(CollectorOom, EachAllocationOfANewKernelsFirstLaunchFailingLeavesNoGhost) {
    long k = 0;
    for (; k < 400; ++k) {
        Collector c{plain()};
        c.on_duration({1, 0, 100});
        static_cast<void>(c.on_launch(launch_of(0x10, "_Z4warmv", 1, 1))); // thread log exists
        const bool failed = with_failure_at(
            k, [&c] { static_cast<void>(c.on_launch(launch_of(0x20, "_Z3newv", 8, 2))); });
        c.on_duration({2, 0, 50});
        expect_no_ghosts(c, k);
        if (!failed) {
            break; // every allocation of that launch has failed once
        }
    }
    EXPECT_GT(k, 0) << "the launch allocated nothing: the test checks nothing";
    EXPECT_LT(k, 400);
}

TEST(CollectorOom, EachAllocationOfANewConfigurationFailingLeavesNoGhost) {
    long k = 0;
    for (; k < 400; ++k) {
        Collector c{plain()};
        static_cast<void>(c.on_launch(launch_of(0x20, "_Z3newv", 8, 1)));
        c.on_duration({1, 0, 100});
        const bool failed = with_failure_at(k, [&c] {
            static_cast<void>(c.on_launch(launch_of(0x20, "_Z3newv", 16, 2))); // a new grid
        });
        c.on_duration({2, 0, 50});
        expect_no_ghosts(c, k);
        if (!failed) {
            break;
        }
    }
    EXPECT_GT(k, 0) << "the launch allocated nothing: the test checks nothing";
    EXPECT_LT(k, 400);
}

} // namespace
} // namespace test_collector_oom
} // namespace irf::intercept

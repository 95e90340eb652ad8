// SPDX-License-Identifier: Apache-2.0
// The launching thread's caches (intercept/cupti/launch_caches.cpp) and the sample lock's
// lock-free shared side (sample_lock.hpp): a warmed-up launch asks CUPTI nothing, a destroyed
// stream or context is asked again, and the lock still excludes (issue 55 item 2).
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "intercept/cupti/launch_caches.hpp"
#include "tests/integration/cupti_fake_platform.hpp"

namespace irf::intercept::cupti::test {
namespace test_cupti_launch_caches {
namespace {

using namespace std::chrono_literals;

/// One launch of `_Z1kv` on `stream` of context `context`; the stream the sink saw.
std::uint32_t launch_on(SeamRig& rig, CUstream stream, CUcontext context = ctx(0x10)) {
    FakeLaunch launch(7, "_Z1kv", context);
    launch.params.hStream = stream;
    launch.run(rig.backend);
    return rig.sink.launches.back().stream;
}

CUstream stream_handle(std::uintptr_t n) {
    return reinterpret_cast<CUstream>(n);
}

void resource_callback(SeamRig& rig, CUpti_CallbackId cbid, CUcontext context) {
    CUpti_ResourceData resource{};
    resource.context = context;
    rig.backend.on_callback(CUPTI_CB_DOMAIN_RESOURCE, cbid, &resource);
}

TEST(LaunchCaches, EachStreamIsAskedForItsIdOnce) {
    SeamRig rig;
    EXPECT_EQ(launch_on(rig, stream_handle(0x50)), 0x50u);
    EXPECT_EQ(launch_on(rig, stream_handle(0x50)), 0x50u);
    EXPECT_EQ(launch_on(rig, stream_handle(0x60)), 0x60u);
    EXPECT_EQ(launch_on(rig, stream_handle(0x50)), 0x50u);
    EXPECT_EQ(launch_on(rig, stream_handle(0x60)), 0x60u);
    EXPECT_EQ(rig.script.stream_id_queries.load(), 2);
}

TEST(LaunchCaches, ADestroyedStreamsHandleIsAskedAgain) {
    SeamRig rig;
    launch_on(rig, stream_handle(0x50));
    resource_callback(rig, CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING, ctx(0x10));
    launch_on(rig, stream_handle(0x50)); // a new stream may have that handle now
    EXPECT_EQ(rig.script.stream_id_queries.load(), 2);
}

TEST(LaunchCaches, ADestroyedContextsStreamsAreAskedAgain) {
    SeamRig rig;
    launch_on(rig, stream_handle(0x50));
    resource_callback(rig, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING, ctx(0x10));
    launch_on(rig, stream_handle(0x50));
    EXPECT_EQ(rig.script.stream_id_queries.load(), 2);
}

TEST(LaunchCaches, WithoutTheStreamDestroyCallbackEveryLaunchAsks) {
    FakeScript script;
    RecordingSink sink;
    CuptiBackend backend{CuptiOptions{}};
    SamplingSeam seam{std::make_unique<FakePlatform>(script), 2000ms, 60s, k_timing_check};
    seam.stream_destroys_seen = false; // CUPTI refused CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING
    backend.set_sampling_seam_for_test(quiet_seam(std::move(seam)));
    backend.attach_sink_for_test(sink);
    for (std::uint32_t id = 1; id <= 3; ++id) {
        FakeLaunch launch(id, "_Z1kv", ctx(0x10));
        launch.params.hStream = stream_handle(0x50);
        launch.run(backend);
    }
    EXPECT_EQ(script.stream_id_queries.load(), 3);
    ASSERT_EQ(sink.launches.size(), 3u);
    EXPECT_EQ(sink.launches.back().stream, 0x50u);
}

TEST(LaunchCaches, PerThreadDefaultStreamsKeepTheirOwnIds) {
    SeamRig rig;
    std::vector<std::uint32_t> seen(2);
    // One thread after the other: each has its own default stream and cache, and libcupti (not
    // instrumented) is not entered from two threads at once, which ThreadSanitizer would take
    // for a race inside it.
    for (std::size_t t = 0; t < 2; ++t) {
        std::thread thread([&rig, &seen, t] {
            for (int i = 0; i < 3; ++i) {
                // Code built with --default-stream per-thread: stream 0 through the _ptsz entry.
                FakeLaunch launch(static_cast<std::uint32_t>(10 * t + i), "_Z1kv", ctx(0x10));
                for (const CUpti_ApiCallbackSite site : {CUPTI_API_ENTER, CUPTI_API_EXIT}) {
                    launch.data.callbackSite = site;
                    rig.backend.on_callback(CUPTI_CB_DOMAIN_DRIVER_API,
                                            CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                                            &launch.data);
                }
            }
            std::lock_guard<std::mutex> lock(rig.sink.mutex);
            seen[t] = rig.sink.launches.back().stream;
        });
        thread.join();
    }
    EXPECT_NE(seen[0], seen[1]);
    EXPECT_GE(seen[0], 0x10000u);
    EXPECT_EQ(rig.script.stream_id_queries.load(), 2); // once per thread
}

TEST(LaunchCaches, AnotherBackendDoesNotReadThisOnesEntries) {
    { // same thread, same stream handle and epochs, another backend (a test's or a fork's)
        SeamRig first;
        launch_on(first, stream_handle(0x50));
    }
    SeamRig second;
    launch_on(second, stream_handle(0x50));
    EXPECT_EQ(second.script.stream_id_queries.load(), 1);
}

/// One launch of function handle `function` (a kernel of its own).
void launch_function(SeamRig& rig, std::uintptr_t function) {
    FakeLaunch launch(7, "_Z1kv", ctx(0x10), function);
    launch.run(rig.backend);
}

// 4,096 kernels cycling (past the 256 slots the table starts with): each goes to the shared map
// once, on its first launch, and never again (was: every launch past 256 kernels).
TEST(LaunchCaches, ThousandsOfKernelsCyclingMissOnlyOnTheirFirstLaunch) {
    SeamRig rig;
    const std::uint64_t before = attribute_table_misses();
    for (int round = 0; round < 3; ++round) {
        for (std::uintptr_t k = 0; k < 4096; ++k) {
            launch_function(rig, 0x100000 + k * 0x40);
        }
    }
    EXPECT_EQ(attribute_table_misses() - before, 4096u);
}

// A module unload empties the table: a new kernel at a freed handle is looked up again.
TEST(LaunchCaches, AModuleUnloadEmptiesTheAttributeTable) {
    SeamRig rig;
    launch_function(rig, 0x2000);
    launch_function(rig, 0x2000);
    const std::uint64_t before = attribute_table_misses();
    CUpti_ResourceData resource{};
    rig.backend.on_callback(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING,
                            &resource);
    launch_function(rig, 0x2000);
    launch_function(rig, 0x2000);
    EXPECT_EQ(attribute_table_misses() - before, 1u);
}

TEST(SampleLockFastPath, AWriterWaitsForAReaderInFlightAndGivesUp) {
    SampleLock lock;
    ASSERT_TRUE(lock.lock_shared_for(0ms));
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_FALSE(lock.lock_for(30ms));
    EXPECT_GE(std::chrono::steady_clock::now() - t0, 30ms);
    EXPECT_FALSE(lock.try_lock());
    lock.unlock_shared();
    EXPECT_TRUE(lock.try_lock());
    lock.unlock();
}

TEST(SampleLockFastPath, AReaderWaitsBehindAWriterAndGivesUp) {
    SampleLock lock;
    ASSERT_TRUE(lock.lock_for(0ms));
    std::thread reader([&lock] { // another thread: the writer's own would be refused at once
        const auto t0 = std::chrono::steady_clock::now();
        EXPECT_FALSE(lock.lock_shared_for(30ms));
        EXPECT_GE(std::chrono::steady_clock::now() - t0, 30ms);
    });
    reader.join();
    lock.unlock();
    EXPECT_TRUE(lock.lock_shared_for(0ms));
    lock.unlock_shared();
}

TEST(SampleLockFastPath, AReaderWaitingBehindAWriterEntersWhenItLeaves) {
    SampleLock lock;
    ASSERT_TRUE(lock.lock_for(0ms));
    std::atomic<bool> entered{false};
    std::thread reader([&] {
        if (lock.lock_shared_for(5000ms)) {
            entered = true;
            lock.unlock_shared();
        }
    });
    std::this_thread::sleep_for(20ms);
    EXPECT_FALSE(entered.load());
    lock.unlock();
    reader.join();
    EXPECT_TRUE(entered.load());
}

TEST(SampleLockFastPath, NoReaderIsInsideWhileAWriterHoldsIt) {
    SampleLock lock;
    std::atomic<int> inside{0};
    std::atomic<bool> stop{false};
    std::atomic<long> overlaps{0};
    std::vector<std::thread> readers;
    for (int i = 0; i < 3; ++i) {
        readers.emplace_back([&] {
            while (!stop.load()) {
                if (lock.lock_shared_for(1000ms)) {
                    ++inside;
                    --inside;
                    lock.unlock_shared();
                }
            }
        });
    }
    int held = 0;
    for (int i = 0; i < 200; ++i) {
        if (lock.lock_for(1000ms)) {
            ++held;
            for (int spin = 0; spin < 100; ++spin) {
                overlaps += inside.load() != 0 ? 1 : 0;
            }
            lock.unlock();
        }
    }
    stop = true;
    for (auto& thread : readers) {
        thread.join();
    }
    EXPECT_EQ(held, 200);
    EXPECT_EQ(overlaps.load(), 0);
}

} // namespace
} // namespace test_cupti_launch_caches
} // namespace irf::intercept::cupti::test

// SPDX-License-Identifier: Apache-2.0
// IRF_FAST_INTERCEPT=1 through the CUPTI backend's seam (issue 55 item 5; docs/tools.md,
// "Launches without CUPTI callbacks"): launches reported by libirf_entry.so's hooks (called
// through the struct the backend registers, as the library would), CUPTI's callbacks of the
// hooked entry points on only while a chosen launch is sampled, records matched to launches.
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "tests/integration/cupti_fake_platform.hpp"

namespace irf::intercept::cupti::test {
namespace test_cupti_entry_hooks {
namespace {

constexpr std::uintptr_t k_kernel = 0x1000;  // a kernel the sink only times (_Z1kv)
constexpr std::uintptr_t k_sampled = 0x2000; // the sink profiles it (_Z1pv)

/// A backend with IRF_FAST_INTERCEPT=1 on the fake platform, libirf_entry.so "preloaded".
struct HookRig {
    FakeScript script;
    RecordingSink sink;
    CuptiBackend backend{fast_options()};
    explicit HookRig(bool entry_loaded = true) {
        script.entry_loaded = entry_loaded;
        script.current = ctx(1);
        script.function_names[reinterpret_cast<CUfunction>(k_kernel)] = "_Z1kv";
        script.function_names[reinterpret_cast<CUfunction>(k_sampled)] = "_Z1pv";
        backend.set_sampling_seam_for_test(
            quiet_seam({std::make_unique<FakePlatform>(script), std::chrono::milliseconds(2000),
                        std::chrono::seconds(60), k_timing_check}));
        backend.attach_sink_for_test(sink);
        sink.profiled["_Z1pv"] = 1;
        backend.start_fast_intercept_for_test();
    }
    static CuptiOptions fast_options() {
        CuptiOptions options;
        options.fast_intercept = true;
        return options;
    }
    [[nodiscard]] long count(const std::string& entry) {
        std::lock_guard<std::mutex> lock(script.mutex);
        return std::count(script.journal.begin(), script.journal.end(), entry);
    }
};

/// One cuLaunchKernel as the wrapper hands it to the hooks.
IrfEntryLaunch entry_launch(std::uintptr_t function, std::uint32_t grid_x = 8,
                            std::uintptr_t stream = 7) {
    IrfEntryLaunch launch{};
    launch.entry = IRF_ENTRY_LAUNCH_KERNEL;
    launch.function = reinterpret_cast<void*>(function);
    launch.stream = reinterpret_cast<void*>(stream);
    launch.grid[0] = grid_x;
    launch.grid[1] = 2;
    launch.grid[2] = 1;
    launch.block[0] = 256;
    launch.block[1] = 1;
    launch.block[2] = 1;
    return launch;
}

/// What the wrapper does around the driver's call; `inside` stands for the driver (CUPTI's
/// callbacks, when on, fire there).
template <class Inside = void (*)()>
void hooked_launch(
    HookRig& rig, const IrfEntryLaunch& launch, int result = CUDA_SUCCESS, Inside inside = [] {}) {
    ASSERT_NE(rig.script.entry_hooks, nullptr);
    const std::uint64_t cookie = rig.script.entry_hooks->before(&launch);
    inside();
    rig.script.entry_hooks->after(&launch, cookie, result);
}

/// The kernel record of a launch of grid (grid_x, 2, 1) x 256 on stream 7 (context id 0: the
/// fake context has none), CUPTI id `cupti` (0: CUPTI gave none).
KernelActivity record_of(std::uint32_t cupti, std::uint32_t grid_x, std::uint64_t start,
                         const char* name = "_Z1kv", std::uint32_t stream = 7) {
    KernelActivity r = kernel_record(cupti, start, start + 100);
    r.name = name;
    r.stream = stream;
    r.launch.grid = {grid_x, 2, 1};
    r.launch.block = {256, 1, 1};
    return r;
}

TEST(EntryHooks, HookedLaunchesGetIrfIdsAndTheirRecordsFindThem) {
    HookRig rig;
    hooked_launch(rig, entry_launch(k_kernel, 8));
    hooked_launch(rig, entry_launch(k_kernel, 16));
    // The first hooked launch turned the hooked entry points' callbacks off.
    EXPECT_EQ(rig.count("hooked callbacks off 0"), 1);
    EXPECT_FALSE(rig.backend.hooked_callbacks_on());
    ASSERT_EQ(rig.sink.launches.size(), 2u);
    EXPECT_EQ(rig.sink.names[0], "_Z1kv");
    EXPECT_EQ(rig.sink.launches[0].correlation_id, 1u);
    EXPECT_EQ(rig.sink.launches[1].correlation_id, 2u);
    EXPECT_EQ(rig.sink.launches[1].launch.grid[0], 16u);
    EXPECT_EQ(rig.sink.launches[0].stream, 7u);
    // CUPTI's ids in the records mean nothing to the sink: matched by stream and grid.
    rig.backend.on_kernel_record(record_of(5001, 16, 2000));
    rig.backend.on_kernel_record(record_of(5000, 8, 1000));
    ASSERT_EQ(rig.sink.durations.size(), 2u);
    EXPECT_EQ(rig.sink.durations[0].correlation_id, 2u);
    EXPECT_EQ(rig.sink.durations[0].start_ns, 2000u);
    EXPECT_EQ(rig.sink.durations[1].correlation_id, 1u);
    EXPECT_TRUE(rig.sink.warnings.empty()) << rig.sink.warnings.front();
}

TEST(EntryHooks, AChosenLaunchIsSampledThroughItsCallbackUnderItsHookId) {
    HookRig rig;
    hooked_launch(rig, entry_launch(k_kernel)); // callbacks off
    FakeLaunch cupti(777, "_Z1pv", ctx(1), k_sampled);
    hooked_launch(rig, entry_launch(k_sampled), CUDA_SUCCESS, [&] { cupti.run(rig.backend); });
    EXPECT_EQ(rig.count("hooked callbacks on 0"), 1); // on for the chosen launch
    ASSERT_EQ(rig.sink.launches.size(), 2u);          // asked once, by the hook
    EXPECT_EQ(rig.sink.launches[1].correlation_id, 2u);
    EXPECT_EQ(rig.count("start 1"), 1);
    ASSERT_EQ(rig.sink.samples.size(), 1u);
    EXPECT_EQ(rig.sink.samples[0].correlation_id, 2u);
    // Its records (one per replay pass) carry CUPTI's id: the first one is its duration.
    rig.backend.on_kernel_record(record_of(777, 8, 5000, "_Z1pv"));
    rig.backend.on_kernel_record(record_of(777, 8, 6000, "_Z1pv"));
    ASSERT_EQ(rig.sink.durations.size(), 1u);
    EXPECT_EQ(rig.sink.durations[0].correlation_id, 2u);
    EXPECT_EQ(rig.sink.durations[0].start_ns, 5000u);
}

TEST(EntryHooks, CallbacksGoOffAgainAfterTheLaunchesASampleMayNeed) {
    HookRig rig;
    FakeLaunch chosen(100, "_Z1pv", ctx(1), k_sampled);
    hooked_launch(rig, entry_launch(k_sampled), CUDA_SUCCESS, [&] { chosen.run(rig.backend); });
    ASSERT_TRUE(rig.backend.hooked_callbacks_on());
    // While on, the callbacks report each launch (the hook routes it to them), under new ids.
    for (std::uint32_t i = 0; i < 256; ++i) {
        FakeLaunch cupti(200 + i, "_Z1kv", ctx(1), k_kernel);
        hooked_launch(rig, entry_launch(k_kernel), CUDA_SUCCESS, [&] { cupti.run(rig.backend); });
    }
    EXPECT_TRUE(rig.backend.hooked_callbacks_on());
    EXPECT_EQ(rig.sink.launches.size(), 257u);
    EXPECT_EQ(rig.sink.launches.back().correlation_id, 257u);
    hooked_launch(rig, entry_launch(k_kernel)); // the 257th after the choice: off, by the hook
    EXPECT_FALSE(rig.backend.hooked_callbacks_on());
    EXPECT_EQ(rig.sink.launches.size(), 258u);
    // A callback launch's record is found by CUPTI's id, a hooked one's by stream and grid.
    rig.backend.on_kernel_record(record_of(300, 8, 100));
    rig.backend.on_kernel_record(record_of(9000, 8, 200));
    ASSERT_EQ(rig.sink.durations.size(), 2u);
    EXPECT_EQ(rig.sink.durations[0].correlation_id, 102u); // CUPTI id 300: the 101st routed
    EXPECT_EQ(rig.sink.durations[1].correlation_id, 258u);
}

TEST(EntryHooks, ACallbackThatFiresForAHookedLaunchIsIgnored) {
    // Another thread turned the callbacks on between this launch's hook and its driver call.
    HookRig rig;
    FakeLaunch late(55, "_Z1kv", ctx(1), k_kernel);
    hooked_launch(rig, entry_launch(k_kernel), CUDA_SUCCESS, [&] { late.run(rig.backend); });
    EXPECT_EQ(rig.sink.launches.size(), 1u);
    EXPECT_EQ(late.scratch, 0u); // nothing held for its EXIT
}

TEST(EntryHooks, ARoutedLaunchWhoseCallbackNeverCameIsReportedAfterwards) {
    HookRig rig;
    FakeLaunch chosen(100, "_Z1pv", ctx(1), k_sampled);
    hooked_launch(rig, entry_launch(k_sampled), CUDA_SUCCESS, [&] { chosen.run(rig.backend); });
    hooked_launch(rig, entry_launch(k_kernel, 4)); // routed to callbacks that did not fire
    ASSERT_EQ(rig.sink.launches.size(), 2u);
    EXPECT_EQ(rig.sink.launches[1].launch.grid[0], 4u);
    rig.backend.on_kernel_record(record_of(4242, 4, 100));
    ASSERT_EQ(rig.sink.durations.size(), 1u);
    EXPECT_EQ(rig.sink.durations[0].correlation_id, rig.sink.launches[1].correlation_id);
}

TEST(EntryHooks, ARefusedLaunchLeavesNoLaunchWaitingForARecord) {
    HookRig rig;
    hooked_launch(rig, entry_launch(k_kernel), CUDA_ERROR_INVALID_VALUE);
    hooked_launch(rig, entry_launch(k_kernel));
    rig.backend.on_kernel_record(record_of(10, 8, 100));
    ASSERT_EQ(rig.sink.durations.size(), 1u);
    EXPECT_EQ(rig.sink.durations[0].correlation_id, 2u); // not the refused launch 1
}

TEST(EntryHooks, AKernelTheHookDidNotSeeIsReportedAndTurnsTheCallbacksBackOn) {
    HookRig rig;
    hooked_launch(rig, entry_launch(k_kernel));
    // A library linked against libcuda launched this one: no hook, no callback.
    rig.backend.on_kernel_record(record_of(8000, 32, 100, "_Z6directv"));
    ASSERT_EQ(rig.sink.launches.size(), 2u);
    EXPECT_EQ(rig.sink.names[1], "_Z6directv");
    ASSERT_EQ(rig.sink.durations.size(), 1u);
    EXPECT_EQ(rig.sink.durations[0].correlation_id, rig.sink.launches[1].correlation_id);
    EXPECT_TRUE(rig.sink.warned("did not see"));
    // Switched on by the next hooked launch (not on CUPTI's buffer thread), and for good.
    EXPECT_FALSE(rig.backend.hooked_callbacks_on());
    FakeLaunch next(8001, "_Z1kv", ctx(1), k_kernel);
    hooked_launch(rig, entry_launch(k_kernel), CUDA_SUCCESS, [&] { next.run(rig.backend); });
    EXPECT_TRUE(rig.backend.hooked_callbacks_on());
    EXPECT_EQ(rig.sink.launches.size(), 3u);
    for (std::uint32_t i = 0; i < 300; ++i) {
        FakeLaunch cupti(8100 + i, "_Z1kv", ctx(1), k_kernel);
        hooked_launch(rig, entry_launch(k_kernel), CUDA_SUCCESS, [&] { cupti.run(rig.backend); });
    }
    EXPECT_TRUE(rig.backend.hooked_callbacks_on());
}

TEST(EntryHooks, ARefusalToTurnCallbacksBackOnIsAskedOnce) {
    HookRig rig;
    hooked_launch(rig, entry_launch(k_kernel)); // off
    rig.script.refuse_hooked_callbacks = true;
    rig.backend.on_kernel_record(record_of(8000, 32, 100, "_Z6directv")); // unseen: on for good
    for (int i = 0; i < 3; ++i) {
        hooked_launch(rig, entry_launch(k_kernel)); // the hook goes on seeing them
    }
    EXPECT_EQ(rig.count("hooked callbacks on 0"), 1); // asked once, not at every launch
    EXPECT_TRUE(rig.sink.warned("refused to turn its launch callbacks on"));
    EXPECT_EQ(rig.sink.launches.size(), 5u); // 4 hooked, 1 from its record
}

TEST(EntryHooks, GraphLaunchesStayWithCuptiCallbacks) {
    HookRig rig;
    IrfEntryLaunch graph{};
    graph.entry = IRF_ENTRY_GRAPH_LAUNCH;
    hooked_launch(rig, graph);
    EXPECT_TRUE(rig.sink.launches.empty());
    EXPECT_TRUE(rig.backend.hooked_callbacks_on()); // no kernel launch came through the hook
}

TEST(EntryHooks, WithoutTheLibraryEveryLaunchStaysWithCuptiCallbacks) {
    HookRig rig(false);
    EXPECT_EQ(rig.script.entry_hooks, nullptr);
    EXPECT_TRUE(rig.sink.warned("libirf_entry.so is not loaded"));
    FakeLaunch plain(31, "_Z1kv", ctx(1), k_kernel);
    plain.run(rig.backend);
    ASSERT_EQ(rig.sink.launches.size(), 1u);
    EXPECT_EQ(rig.sink.launches[0].correlation_id, 31u); // CUPTI's id, as without the option
    rig.backend.on_kernel_record(record_of(31, 8, 100));
    ASSERT_EQ(rig.sink.durations.size(), 1u);
    EXPECT_EQ(rig.sink.durations[0].correlation_id, 31u);
}

TEST(EntryHooks, ARefusalToTurnCallbacksOffKeepsThemOn) {
    HookRig rig;
    rig.script.refuse_hooked_callbacks = true;
    FakeLaunch cupti(40, "_Z1kv", ctx(1), k_kernel);
    hooked_launch(rig, entry_launch(k_kernel), CUDA_SUCCESS, [&] { cupti.run(rig.backend); });
    EXPECT_TRUE(rig.backend.hooked_callbacks_on());
    EXPECT_TRUE(rig.sink.warned("refused to turn its launch callbacks off"));
    EXPECT_EQ(rig.sink.launches.size(), 1u);
    EXPECT_EQ(rig.count("hooked callbacks off 0"), 1); // tried once, never again
    FakeLaunch again(41, "_Z1kv", ctx(1), k_kernel);
    hooked_launch(rig, entry_launch(k_kernel), CUDA_SUCCESS, [&] { again.run(rig.backend); });
    EXPECT_EQ(rig.count("hooked callbacks off 0"), 1);
}

TEST(EntryHooks, ThreadsLaunchWhileSamplesSwitchTheCallbacks) {
    // One thread's launches are all chosen (each switches the callbacks on and is sampled by
    // them), another's only timed; the "driver" delivers a launch's callbacks when they are on
    // at its call. Every launch reaches the sink once, and every sample comes back.
    HookRig rig;
    constexpr std::uint32_t k_each = 400;
    const auto launcher = [&rig](std::uintptr_t function, const char* name, std::uint32_t base) {
        for (std::uint32_t i = 0; i < k_each; ++i) {
            FakeLaunch cupti(base + i, name, ctx(1), function);
            hooked_launch(rig, entry_launch(function), CUDA_SUCCESS, [&] {
                if (rig.backend.hooked_callbacks_on()) {
                    cupti.run(rig.backend);
                }
            });
        }
    };
    // CUPTI initialises itself at its first call, as the injection does on the main thread; two
    // threads doing it at once is a race inside libcupti, which TSan cannot see synchronised.
    hooked_launch(rig, entry_launch(k_kernel));
    std::thread sampled(launcher, k_sampled, "_Z1pv", 10000);
    std::thread timed(launcher, k_kernel, "_Z1kv", 20000);
    sampled.join();
    timed.join();
    std::lock_guard<std::mutex> lock(rig.sink.mutex);
    EXPECT_EQ(rig.sink.launches.size(), 2u * k_each + 1);
    EXPECT_EQ(rig.sink.samples.size(), k_each);
    std::set<std::uint64_t> ids;
    for (const LaunchEvent& e : rig.sink.launches) {
        ids.insert(e.correlation_id);
    }
    EXPECT_EQ(ids.size(), 2u * k_each + 1); // irf's ids: each once
}

} // namespace
} // namespace test_cupti_entry_hooks
} // namespace irf::intercept::cupti::test

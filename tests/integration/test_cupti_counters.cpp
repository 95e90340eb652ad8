// SPDX-License-Identifier: Apache-2.0
// Who holds the counters (issue 51): busy counters at a tensor-types setup, and the range
// profiler handing the counters back between bursts of samples. Through the CUPTI backend's
// seam into a real collector.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <utility>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "tests/integration/cupti_fake_platform.hpp"

namespace irf::intercept::cupti::test {
namespace test_cupti_counters {
namespace {

constexpr const char* k_inst_tensor = "smsp__inst_executed_pipe_tensor.sum";
constexpr const char* k_bf16 = "sm__ops_path_tensor_src_bf16_dst_fp32.sum";

/// The CUPTI backend on the fake platform (chip GH100), delivering to a real collector.
struct CountersRig {
    FakeScript script;
    Collector collector{config::Config{}};
    CuptiBackend backend{CuptiOptions{}};
    std::uint64_t clock_ns = 1000;
    explicit CountersRig(SamplingSeam seam = quiet_seam({})) {
        seam.platform = std::make_unique<FakePlatform>(script);
        seam.lock_wait = std::chrono::milliseconds(2000);
        seam.sample_budget = std::chrono::seconds(60);
        backend.set_sampling_seam_for_test(std::move(seam));
        backend.attach_sink_for_test(collector);
    }
    /// Launch `id` of the kernel at `function` with its 1 us activity record.
    void launch(std::uint32_t id, const char* symbol = "_Z4gemmv", std::uintptr_t function = 0x40) {
        FakeLaunch(id, symbol, nullptr, function).run(backend);
        backend.on_kernel_record(kernel_record(id, clock_ns, clock_ns + 1000));
        clock_ns += 2000;
    }
    [[nodiscard]] long count(const std::string& entry) {
        std::lock_guard<std::mutex> lock(script.mutex);
        return std::count(script.journal.begin(), script.journal.end(), entry);
    }
    [[nodiscard]] model::Profile profile() {
        model::Profile p;
        collector.fill_profile(p);
        return p;
    }
};

long warnings_with(const model::Profile& p, const std::string& text) {
    return std::count_if(p.warnings.begin(), p.warnings.end(), [&text](const std::string& w) {
        return w.find(text) != std::string::npos;
    });
}

TEST(CuptiCounters, BusyCountersAtATensorTypesSetupAreBusyCountersNotAMissingCounter) {
    // ncu or DCGM takes the counters between the standard samples and the tensor-types one.
    // Before: "tensor ops by input type unavailable on device 0", which blames the chip, and no
    // later tensor-types sample of the device; the busy device was not marked either.
    CountersRig rig;
    rig.script.values[k_inst_tensor] = 4096; // 32 a warp: tensor math, not register moves
    rig.launch(1); // standard (cold), tensor instructions: asks for the second sample
    rig.launch(2); // standard (warm)
    rig.script.failing_metric = k_bf16;
    rig.script.metric_failure = {ProfilerFailure::busy,
                                 "cuptiRangeProfilerEnable: CUPTI_ERROR_HARDWARE_BUSY"};
    rig.launch(3);                    // tensor types: the setup finds the counters busy
    rig.launch(4, "_Z5otherv", 0x80); // another kernel: the device is busy, no setup tried
    EXPECT_EQ(rig.script.setups.size(), 2u);
    const model::Profile p = rig.profile();
    EXPECT_EQ(warnings_with(p, "counters in use by another client on device 0"), 1);
    EXPECT_EQ(warnings_with(p, "tensor ops by input type unavailable"), 0);
}

/// Idle release and busy retry within a test's time; no release at launches.
SamplingSeam quick_release() {
    SamplingSeam seam;
    seam.idle_release = std::chrono::milliseconds(30);
    seam.release_period = std::chrono::milliseconds(5);
    seam.busy_retry = std::chrono::milliseconds(50);
    return seam;
}

/// True once `done` holds, polling for at most 5 s.
template <class Done> bool eventually(Done done) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!done()) {
        if (std::chrono::steady_clock::now() > until) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

TEST(CuptiCounters, AnIdleProfilerIsReleasedWithoutAnotherLaunch) {
    // A graph-only or idle server makes no launch that could hand the counters back: irf's own
    // thread does. Before: released only at a launch, every 1,024th.
    CountersRig rig(quick_release());
    rig.launch(1); // a sample: the profiler is set up
    EXPECT_TRUE(eventually([&rig] { return rig.count("teardown 0") == 1; }));
    {
        std::lock_guard<std::mutex> lock(rig.script.mutex);
        ASSERT_EQ(rig.script.teardown_threads.size(), 1u);
        EXPECT_NE(rig.script.teardown_threads[0], std::this_thread::get_id());
    }
    rig.launch(2, "_Z5otherv", 0x80); // the next sample sets one up again
    EXPECT_EQ(rig.count("setup 0"), 2);
    EXPECT_EQ(rig.profile().coverage.profiled_launches, 2u);
}

TEST(CuptiCounters, TheReleaseNeverRunsInsideAnApplicationLaunch) {
    // Issue 51 A1: a teardown (Stop, Disable) inside an unsampled application launch, possibly
    // of another device's context, could stall it or, if Disable waits for that context's work,
    // hang a thread driving two GPUs. The release thread's period is an hour here: the 2,048
    // launches after the idle time must release nothing themselves. Before: every 1,024th
    // launch released the idle profiler, on the launching thread.
    SamplingSeam seam = quick_release();
    seam.release_period = std::chrono::hours(1);
    CountersRig rig(std::move(seam));
    for (std::uint32_t id = 1; id <= 10; ++id) {
        rig.launch(id); // its samples, then timed only
    }
    const long samples = rig.count("stop 0");
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
    for (std::uint32_t id = 11; id <= 2058; ++id) {
        rig.launch(id);
    }
    EXPECT_EQ(rig.count("stop 0"), samples) << "no sample after the idle time";
    EXPECT_EQ(rig.count("teardown 0"), 0);
}

TEST(CuptiCounters, ALaunchDuringAReleaseDefersItsSampleInsteadOfWaiting) {
    // On the H200 a release's Disable waited 0.35-0.49 s for the context's work (and in a loop
    // that never synchronised no release line came at all), while the release held the
    // device's sample lock. A new kernel's first launch then waited for that lock, up to the
    // lock wait (10 s; 2 s here). Now it runs unprofiled at once and is sampled later.
    CountersRig rig(quick_release());
    std::atomic<bool> tearing{false};
    std::atomic<bool> let_go{false};
    rig.script.during_teardown = [&tearing, &let_go] {
        tearing = true;
        for (int ms = 0; ms < 5000 && !let_go; ++ms) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    };
    rig.launch(1); // a sample: the profiler is set up, then released when idle
    ASSERT_TRUE(eventually([&tearing] { return tearing.load(); }));
    const auto start = std::chrono::steady_clock::now();
    rig.launch(2, "_Z5otherv", 0x80); // wants its first sample while the release runs
    const auto waited = std::chrono::steady_clock::now() - start;
    let_go = true;
    EXPECT_LT(waited, std::chrono::milliseconds(500));
    ASSERT_TRUE(eventually([&rig] { return rig.count("teardown 0") == 1; }));
    rig.script.during_teardown = nullptr;
    rig.launch(3, "_Z5otherv", 0x80); // its sample, asked again
    EXPECT_EQ(rig.count("setup 0"), 2);
    EXPECT_EQ(rig.profile().coverage.profiled_launches, 2u);
}

TEST(CuptiCounters, ACaptureBegunAfterTheIdleCheckKeepsTheProfiler) {
    // A capture begins between the release's idle check and its sample lock (the hook opens
    // one there, once). The count of open captures is read again under the lock, as a sample
    // does: no teardown while the capture is open (global mode forbids what it may
    // synchronise), and one after it ends. Before: read once, before the lock.
    SamplingSeam seam = quick_release();
    std::atomic<bool> begun{false};
    CuptiBackend* backend = nullptr;
    seam.before_release_lock = [&begun, &backend] {
        if (!begun.exchange(true)) {
            FakeCall(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2).run(*backend);
        }
    };
    CountersRig rig(std::move(seam));
    backend = &rig.backend;
    rig.launch(1);
    ASSERT_TRUE(eventually([&begun] { return begun.load(); }));
    std::this_thread::sleep_for(std::chrono::milliseconds(100)); // twenty release periods
    EXPECT_EQ(rig.count("teardown 0"), 0);
    FakeCall end(CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture);
    end.run(rig.backend);
    EXPECT_TRUE(eventually([&rig] { return rig.count("teardown 0") == 1; }));
}

TEST(CuptiCounters, BusyCountersAreTriedAgainLater) {
    // Before: a busy device was timed only for the rest of the run.
    CountersRig rig(quick_release());
    rig.script.setup_failures[nullptr] = {ProfilerFailure::busy,
                                          "cuptiRangeProfilerEnable: CUPTI_ERROR_HARDWARE_BUSY"};
    rig.launch(1);                    // busy: declined, one line
    rig.launch(2, "_Z5otherv", 0x80); // within the retry time: not even tried
    EXPECT_EQ(rig.count("setup 0"), 1);
    rig.script.setup_failures.clear(); // the other client is done
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    rig.launch(3, "_Z5thirdv", 0xc0); // tried again: a sample
    EXPECT_EQ(rig.count("setup 0"), 2);
    // The availability image read while the other client held the counters is not kept: the
    // set-up again reads it afresh (on the H200 a kept, partial one refused every set-up).
    EXPECT_TRUE(rig.script.seen_availability.empty());
    const model::Profile p = rig.profile();
    EXPECT_EQ(p.coverage.profiled_launches, 1u);
    EXPECT_EQ(warnings_with(p, "counters in use by another client on device 0"), 1);
}

TEST(CuptiCounters, AKernelDeclinedWhileTheCountersWereBusyIsSampledWhenTheyAreBack) {
    // On the H200 ncu held the counters for irf-hz-loop's first 8 s: every sample its kernel
    // was to take was declined, and none came in the 7.5 million launches after ncu ended.
    // Once the retry time has passed, the declined samples are asked again.
    CountersRig rig(quick_release());
    rig.script.setup_failures[nullptr] = {ProfilerFailure::busy,
                                          "cuptiRangeProfilerEnable: CUPTI_ERROR_HARDWARE_BUSY"};
    for (std::uint32_t id = 1; id <= 8; ++id) {
        rig.launch(id); // its samples, all declined (busy), then timed only
    }
    rig.script.setup_failures.clear();                           // the other client is done
    std::this_thread::sleep_for(std::chrono::milliseconds(100)); // the 50 ms retry time
    for (std::uint32_t id = 9; id <= 12; ++id) {
        rig.launch(id);
    }
    EXPECT_EQ(rig.count("setup 0"), 2);
    const model::Profile p = rig.profile();
    EXPECT_GE(p.coverage.profiled_launches, 1u); // and its tensor-types sample (value 3)
    EXPECT_EQ(warnings_with(p, "counters in use by another client on device 0"), 1);
}

TEST(CuptiCounters, ARefusedSetUpAgainAfterAReleaseIsTriedLaterNotTheEndOfProfiling) {
    // After an idle release, ncu or DCGM takes the counters and the set-up again is refused
    // with a code that would mean "no support" on a fresh device. The counters worked on this
    // device, so it is another client: before, profiling was turned off for the process.
    CountersRig rig(quick_release());
    rig.launch(1);
    ASSERT_TRUE(eventually([&rig] { return rig.count("teardown 0") == 1; }));
    rig.script.setup_failures[nullptr] = {ProfilerFailure::unsupported,
                                          "cuptiRangeProfilerEnable: CUPTI_ERROR_NOT_SUPPORTED"};
    rig.launch(2, "_Z5otherv", 0x80); // refused: declined, tried again later
    rig.script.setup_failures.clear();
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    rig.launch(3, "_Z5thirdv", 0xc0);
    EXPECT_EQ(rig.count("setup 0"), 3);
    const model::Profile p = rig.profile();
    EXPECT_EQ(p.coverage.profiled_launches, 2u);
    EXPECT_EQ(warnings_with(p, "hardware counters disabled"), 0);
    EXPECT_EQ(warnings_with(p, "counters in use by another client on device 0"), 1);
}

/// Opens a sample, has a capture start and a stream memory write of two other threads try to
/// get in, and closes the window after `open_for`. True for each call that got in before.
std::pair<bool, bool> calls_inside_a_sample(SeamRig& rig, std::chrono::milliseconds open_for) {
    FakeLaunch sampled(1, "_Z1pv");
    sampled.enter(rig.backend);
    std::atomic<bool> window_closed{false};
    std::atomic<bool> capture_inside{false};
    std::atomic<bool> write_inside{false};
    std::thread capturer([&] {
        FakeCall begin(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, 2);
        begin.enter(rig.backend);
        capture_inside = !window_closed.load();
        begin.result = CUDA_ERROR_INVALID_VALUE; // opens nothing
        begin.exit(rig.backend);
    });
    std::thread writer([&] {
        FakeCall write(CUPTI_DRIVER_TRACE_CBID_cuStreamWriteValue32_v2, 3);
        write.enter(rig.backend);
        write_inside = !window_closed.load();
        write.exit(rig.backend);
    });
    std::this_thread::sleep_for(open_for);
    window_closed = true;
    sampled.exit(rig.backend);
    capturer.join();
    writer.join();
    return {capture_inside.load(), write_inside.load()};
}

TEST(CuptiSampleWindow, ACaptureStartOrADeviceWriteWaitsOutALongSample) {
    // Issue 51 A2: a cold sample of a long kernel (replay and decode) outlasts the 100 ms lock
    // wait (10 s by default). Before: the capture start and the write went on after it, inside
    // the window: the capture would fail (replay and decode synchronise the context), the write
    // be undone by the replay's restore. They wait as long as a sample may last, with one line.
    SeamRig rig(std::chrono::milliseconds(100), std::chrono::seconds(60));
    const auto [capture_inside, write_inside] =
        calls_inside_a_sample(rig, std::chrono::milliseconds(400));
    EXPECT_FALSE(capture_inside);
    EXPECT_FALSE(write_inside);
    EXPECT_EQ(rig.sink.samples.size(), 1u) << "the sample was not breached";
    EXPECT_TRUE(rig.sink.warned("waited over 100 ms for another thread's sample"));
}

TEST(CuptiSampleWindow, AWaitThatRunsOutGoesOnAndSaysSo) {
    // The wait is bounded (budget + lock wait: 300 ms here): a sample that never ends (its
    // kernel waits for the very thread that waits here) must not hang the application.
    SeamRig rig(std::chrono::milliseconds(100), std::chrono::milliseconds(200));
    const auto [capture_inside, write_inside] =
        calls_inside_a_sample(rig, std::chrono::milliseconds(900));
    EXPECT_TRUE(capture_inside);
    EXPECT_TRUE(write_inside);
    EXPECT_TRUE(rig.sink.warned("went on inside another thread's sample after waiting 300 ms"));
    EXPECT_EQ(rig.sink.discards, (std::vector<std::string>{k_discard_breach}));
}

} // namespace
} // namespace test_cupti_counters
} // namespace irf::intercept::cupti::test

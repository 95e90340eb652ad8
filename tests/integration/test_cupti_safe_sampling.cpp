// SPDX-License-Identifier: Apache-2.0
// Safe sampling on the CUPTI seam (issue 38): declined samples, the sampling thread's own
// nested calls, captures on other streams, other threads' copies, busy counters, and a context
// destroyed under a sample.
#include <atomic>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "intercept/cupti/guarded_cbids.hpp"
#include "intercept/cupti/sample_check.hpp"
#include "tests/integration/cupti_fake_platform.hpp"

namespace irf::intercept::cupti::test {
namespace test_cupti_safe_sampling {
namespace {

using namespace std::chrono_literals;

/// The shared rig, checking every 1024 launches (not 2^20) that kernel records still arrive, so
/// a test reaches that check with few launches.
struct Rig : SeamRig {
    explicit Rig(std::chrono::milliseconds wait = 2000ms, std::uint64_t timing_check = 1024)
        : SeamRig(wait, 60s, timing_check) {}
};

TEST(SafeSampling, SampleRefusedForPermissionIsDeclinedAndProfilingStops) {
    Rig rig;
    rig.script.setup_failures[nullptr] = {ProfilerFailure::permission, "no permission"};
    FakeLaunch(1, "_Z1pv").run(rig.backend);
    FakeLaunch(2, "_Z1pv").run(rig.backend);
    // Both launches ran unreplayed: the collector must time them as ordinary launches.
    EXPECT_EQ(rig.sink.declines, (std::vector<std::string>{"-", "-"}));
    EXPECT_EQ(rig.sink.profiling_off, 1) << "the collector is told to stop choosing launches";
    EXPECT_EQ(rig.count("setup 0"), 1);
    EXPECT_EQ(rig.count("start 0"), 0);
    EXPECT_TRUE(rig.sink.samples.empty());
}

TEST(SafeSampling, FailedStartIsDeclinedNotFiledAsAReplay) {
    Rig rig;
    rig.script.start_status = {ProfilerFailure::other, "start failed"};
    FakeLaunch(1, "_Z1pv").run(rig.backend);
    EXPECT_EQ(rig.sink.declines, (std::vector<std::string>{"-"}));
    EXPECT_EQ(rig.count("stop 0"), 0);
}

TEST(SafeSampling, OwnNestedLaunchInsideTheSampleIsIgnored) {
    Rig rig(300ms);
    rig.script.during_stop = [&rig] {
        // A library launch (or a replay pass) raised on the sampling thread during decode.
        FakeLaunch(7, "_Z6nestedv", nullptr, 0x2000).run(rig.backend);
        FakeCall(CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async, 8).run(rig.backend);
    };
    const auto t0 = std::chrono::steady_clock::now();
    FakeLaunch(1, "_Z1pv").run(rig.backend);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 250ms) << "the nested call waited";
    EXPECT_EQ(rig.sink.names, (std::vector<std::string>{"_Z1pv"})) << "nested launch counted";
    EXPECT_EQ(rig.sink.samples.size(), 1u);
    EXPECT_TRUE(rig.sink.discards.empty());
    FakeLaunch(9, "_Z6laterv", nullptr, 0x3000).run(rig.backend); // after the sample: counted
    EXPECT_EQ(rig.sink.names.size(), 2u);
}

TEST(SafeSampling, NoSampleWhileAnotherStreamIsCapturing) {
    Rig rig;
    FakeCall begin(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2);
    begin.run(rig.backend);
    FakeLaunch(1, "_Z1pv").run(rig.backend); // on another, non-capturing stream
    EXPECT_EQ(rig.count("start 0"), 0) << "replay and decode would break the capture";
    EXPECT_EQ(rig.sink.declines, (std::vector<std::string>{k_discard_capture}));
    FakeCall wrong_thread(CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture);
    wrong_thread.result = CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD; // the capture goes on
    wrong_thread.run(rig.backend);
    FakeLaunch(2, "_Z1pv").run(rig.backend);
    EXPECT_EQ(rig.count("start 0"), 0);
    FakeCall end(CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz);
    end.result = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED; // invalidated: still ended
    end.run(rig.backend);
    FakeLaunch(3, "_Z1pv").run(rig.backend);
    EXPECT_EQ(rig.count("start 0"), 1);
    EXPECT_EQ(rig.sink.samples.size(), 1u);
}

TEST(SafeSampling, LaunchOnACapturingStreamIsNoLaunchEvenWhenTheDriverQuerySaysNo) {
    // The first H100 run: cuStreamIsCapturing answered "not capturing" inside the launch
    // callback, and the captured launch was counted (tests/data/gpu/h100/hazards). The
    // backend also keeps the streams its capture callbacks opened.
    Rig rig; // the platform's is_capturing answers false
    const auto captured = reinterpret_cast<CUstream>(std::uintptr_t{0x77});
    const auto launch_on = [&rig](CUstream stream, std::uint32_t id, const char* symbol) {
        FakeLaunch launch(id, symbol);
        launch.params.hStream = stream;
        launch.run(rig.backend);
    };
    struct {
        CUstream stream;
        CUstreamCaptureMode mode;
    } begin_params{captured, CU_STREAM_CAPTURE_MODE_GLOBAL};
    FakeCall begin(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2);
    begin.data.functionParams = &begin_params;
    begin.run(rig.backend);
    launch_on(captured, 1, "_Z6insidev");
    EXPECT_TRUE(rig.sink.names.empty()) << "a launch recorded into a graph ran nothing";
    launch_on(nullptr, 2, "_Z7outsidev"); // another stream: a launch, not sampled
    EXPECT_EQ(rig.sink.names, (std::vector<std::string>{"_Z7outsidev"}));
    CUgraph graph = nullptr;
    struct {
        CUstream stream;
        CUgraph* graph;
    } end_params{captured, &graph};
    FakeCall end(CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture);
    end.data.functionParams = &end_params;
    end.run(rig.backend);
    launch_on(captured, 3, "_Z6insidev");
    EXPECT_EQ(rig.sink.names.size(), 2u) << "after the capture the stream runs launches again";
}

TEST(SafeSampling, AnIdleRangeProfilerIsReleasedAndSetUpAgainForTheNextSample) {
    // The first H100 run: irf's enabled range profiler kept an ncu in another process from the
    // counters long after irf's last sample (docs/validation/h100.md item 7). irf's release
    // thread (every 5 ms here) tears one idle for 50 ms down.
    Rig rig;
    SamplingSeam seam{std::make_unique<FakePlatform>(rig.script), 2000ms, 60s, 1u << 20, 50ms};
    seam.release_period = 5ms;
    rig.backend.set_sampling_seam_for_test(std::move(seam));
    const auto teardowns = [&rig] {
        std::lock_guard<std::mutex> lock(rig.script.mutex);
        return rig.script.teardown_threads.size();
    };
    const auto wait_for = [&teardowns](std::size_t n) {
        for (int i = 0; i < 2500 && teardowns() < n; ++i) {
            std::this_thread::sleep_for(2ms);
        }
        return teardowns();
    };
    const auto start = std::chrono::steady_clock::now();
    FakeLaunch(1, "_Z1pv").run(rig.backend); // a sample: the profiler is set up
    EXPECT_EQ(wait_for(1), 1u);
    EXPECT_GE(std::chrono::steady_clock::now() - start, 50ms) << "released before it was idle";
    FakeLaunch(2, "_Z1pv").run(rig.backend); // the next sample sets one up again
    EXPECT_EQ(rig.count("setup 0"), 2);
    EXPECT_EQ(rig.sink.samples.size(), 2u);
    // Never while a capture is open (a teardown may synchronise, which a capture forbids).
    FakeCall(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2).run(rig.backend);
    std::this_thread::sleep_for(120ms);
    EXPECT_EQ(teardowns(), 1u);
    FakeCall(CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture).run(rig.backend);
    EXPECT_EQ(wait_for(2), 2u);
}

TEST(SafeSampling, FailedBeginCaptureOpensNothing) {
    Rig rig;
    FakeCall begin(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture);
    begin.result = CUDA_ERROR_INVALID_VALUE;
    begin.run(rig.backend);
    FakeLaunch(1, "_Z1pv").run(rig.backend);
    EXPECT_EQ(rig.sink.samples.size(), 1u);
}

TEST(SafeSampling, ImplicitCaptureOfTheLegacyStreamMeansCapturing) {
    EXPECT_TRUE(means_capturing(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, CU_STREAM_CAPTURE_STATUS_NONE));
    EXPECT_TRUE(means_capturing(CUDA_SUCCESS, CU_STREAM_CAPTURE_STATUS_ACTIVE));
    EXPECT_FALSE(means_capturing(CUDA_SUCCESS, CU_STREAM_CAPTURE_STATUS_NONE));
    EXPECT_FALSE(means_capturing(CUDA_ERROR_INVALID_VALUE, CU_STREAM_CAPTURE_STATUS_NONE));
}

TEST(SafeSampling, OtherThreadsCopiesWaitForTheSampleWindow) {
    Rig rig;
    for (const CUpti_CallbackId cbid :
         {CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2, CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2,
          CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture}) {
        FakeLaunch sampled(1, "_Z1pv");
        sampled.enter(rig.backend);
        std::atomic<bool> window_closed{false};
        std::atomic<bool> copied_inside{false};
        std::thread copier([&] {
            FakeCall copy(cbid, 2);
            copy.enter(rig.backend); // must wait for the sample's EXIT
            copied_inside = !window_closed.load();
            copy.result = CUDA_ERROR_INVALID_VALUE; // a capture that did not open
            copy.exit(rig.backend);
        });
        std::this_thread::sleep_for(30ms);
        window_closed = true;
        sampled.exit(rig.backend);
        copier.join();
        EXPECT_FALSE(copied_inside.load()) << "cbid " << cbid << " landed inside the window";
    }
    EXPECT_EQ(rig.sink.samples.size(), 4u);
}

TEST(SafeSampling, CaptureStartOnAnotherDeviceWaitsForTheSample) {
    // Global capture mode is process-wide: a capture on device 1 must not begin while device
    // 0's sample is still to synchronise its context.
    Rig rig;
    rig.script.devices[ctx(0x10)] = 0;
    rig.script.devices[ctx(0x20)] = 1;
    FakeLaunch sampled(1, "_Z1pv", ctx(0x10));
    sampled.enter(rig.backend);
    std::atomic<bool> window_closed{false};
    std::atomic<bool> began_inside{false};
    std::thread capturer([&] {
        FakeCall begin(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, 2, ctx(0x20));
        begin.enter(rig.backend);
        began_inside = !window_closed.load();
        begin.exit(rig.backend);
    });
    std::this_thread::sleep_for(30ms);
    window_closed = true;
    sampled.exit(rig.backend);
    capturer.join();
    EXPECT_FALSE(began_inside.load());
    EXPECT_EQ(rig.sink.samples.size(), 1u);
    FakeLaunch(3, "_Z1pv", ctx(0x10)).run(rig.backend); // the capture is open now
    EXPECT_EQ(rig.sink.samples.size(), 1u);
}

TEST(SafeSampling, WriterGateLetsTheSamplerInPastAStreamOfReaders) {
    SampleLock lock;
    std::atomic<bool> stop{false};
    std::vector<std::thread> readers;
    for (int i = 0; i < 4; ++i) {
        readers.emplace_back([&] {
            while (!stop.load()) {
                if (lock.lock_shared_for(1000ms)) {
                    std::this_thread::sleep_for(2ms); // overlapping holds: never all out
                    lock.unlock_shared();
                }
            }
        });
    }
    std::this_thread::sleep_for(20ms);
    const auto t0 = std::chrono::steady_clock::now();
    const bool got = lock.lock_for(1500ms);
    const auto took = std::chrono::steady_clock::now() - t0;
    if (got) {
        lock.unlock();
    }
    stop = true;
    for (auto& t : readers) {
        t.join();
    }
    EXPECT_TRUE(got) << "the sampler starved behind readers";
    EXPECT_LT(took, 500ms);
}

TEST(SafeSampling, ContextDestroyedUnderASampleLeaksItsSession) {
    Rig rig(100ms);
    rig.script.during_stop = [&rig] {
        std::thread destroyer([&rig] { // cuCtxDestroy on another thread during the decode
            CUpti_ResourceData resource{};
            resource.context = ctx(0x10);
            rig.backend.on_callback(CUPTI_CB_DOMAIN_RESOURCE,
                                    CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING, &resource);
        });
        destroyer.join();
    };
    FakeLaunch(1, "_Z1pv", ctx(0x10)).run(rig.backend);
    EXPECT_EQ(rig.count("teardown 16"), 0) << "the profiler was torn down under its sample";
    EXPECT_EQ(rig.sink.samples.size(), 1u); // the session stayed valid for the sample
    EXPECT_TRUE(rig.sink.warned("destroyed while one of its launches was being sampled"));
    rig.script.during_stop = nullptr;
    FakeLaunch(2, "_Z1pv", ctx(0x10)).run(rig.backend); // a new context at that address
    EXPECT_EQ(rig.count("setup 16"), 2);
}

TEST(SafeSampling, BusyCountersGiveOneLineAndTimeOnlyThatDevice) {
    Rig rig;
    rig.script.devices[ctx(0x10)] = 0;
    rig.script.devices[ctx(0x20)] = 1;
    rig.script.setup_failures[ctx(0x10)] = {ProfilerFailure::busy, "HARDWARE_BUSY"};
    for (std::uint32_t id = 1; id <= 3; ++id) {
        FakeLaunch(id, "_Z1pv", ctx(0x10)).run(rig.backend);
    }
    EXPECT_EQ(rig.count("setup 16"), 1) << "asked again after the counters were busy";
    EXPECT_EQ(rig.sink.declines.size(), 3u);
    EXPECT_EQ(rig.sink.warnings.size(), 1u);
    EXPECT_TRUE(rig.sink.warned("counters in use by another client on device 0 (DCGM?"));
    EXPECT_EQ(rig.sink.profiling_off, 0);
    FakeLaunch(4, "_Z1pv", ctx(0x20)).run(rig.backend); // the other device still samples
    EXPECT_EQ(rig.sink.samples.size(), 1u);
}

TEST(SafeSampling, BusyAtStartIsOneLineToo) {
    Rig rig;
    rig.script.start_status = {ProfilerFailure::busy, "HARDWARE_BUSY"};
    FakeLaunch(1, "_Z1pv").run(rig.backend);
    FakeLaunch(2, "_Z1pv").run(rig.backend);
    EXPECT_EQ(rig.sink.warnings.size(), 1u);
    EXPECT_EQ(rig.count("start 0"), 1);
}

TEST(SafeSampling, ProfiledIdsArePrunedSoWrappedIdsKeepTheirDurations) {
    ProfiledIds ids;
    ids.add(5);
    EXPECT_TRUE(ids.first_record(5));
    EXPECT_FALSE(ids.first_record(5)); // a replay pass's repeat record
    EXPECT_TRUE(ids.first_record(4));  // a slightly older record prunes nothing
    EXPECT_EQ(ids.size(), 1u);
    EXPECT_TRUE(ids.first_record(0x50000000)); // ids moved on by more than 2^30
    EXPECT_EQ(ids.size(), 0u);
    EXPECT_TRUE(ids.first_record(5)) << "after the 32-bit wrap, id 5 is an unprofiled launch";
    EXPECT_TRUE(ids.first_record(5));
}

TEST(SafeSampling, RecordsOfAProfiledLaunchAreDeliveredOnce) {
    Rig rig;
    FakeLaunch(1, "_Z1pv").run(rig.backend);
    const KernelActivity record = kernel_record(1, 10, 20);
    rig.backend.on_kernel_record(record);
    rig.backend.on_kernel_record(record); // a second replay pass
    EXPECT_EQ(rig.sink.durations.size(), 1u);
}

TEST(SafeSampling, RecordsThatStopComingGiveOneLineAndCounts) {
    Rig rig(2000ms, 4);
    for (std::uint32_t id = 1; id <= 12; ++id) {
        FakeLaunch(id, "_Z1tv").run(rig.backend); // no kernel record ever comes
    }
    EXPECT_EQ(rig.sink.timing_stopped, 1);
    EXPECT_EQ(std::count_if(rig.sink.warnings.begin(), rig.sink.warnings.end(),
                            [](const std::string& w) {
                                return w.find("kernel timing stopped at ") != std::string::npos;
                            }),
              1);
    Rig healthy(2000ms, 4);
    for (std::uint32_t id = 1; id <= 12; ++id) {
        FakeLaunch(id, "_Z1tv").run(healthy.backend);
        const KernelActivity record = kernel_record(id, 1, 2);
        healthy.backend.on_kernel_record(record);
    }
    EXPECT_EQ(healthy.sink.timing_stopped, 0);
}

TEST(SafeSampling, RecordsHeldBackForOneIntervalDoNotStopTiming) {
    // On the H100, CUPTI returned no buffer for a million launches of a loop that never
    // synchronised; a flush brings them. One silent interval alone must not stop timing.
    Rig rig(2000ms, 4);
    for (std::uint32_t id = 1; id <= 6; ++id) {
        FakeLaunch(id, "_Z1tv").run(rig.backend); // the check at 4 sees none: flush
    }
    for (std::uint32_t id = 1; id <= 6; ++id) {
        rig.backend.on_kernel_record(kernel_record(id, 1, 2)); // what the flush returned
    }
    for (std::uint32_t id = 7; id <= 12; ++id) {
        FakeLaunch(id, "_Z1tv").run(rig.backend); // the check at 8 sees records
    }
    EXPECT_EQ(rig.sink.timing_stopped, 0);
}

TEST(SafeSampling, AForkedChildsBackendReachesNoCollector) {
    Rig rig;
    rig.backend.detach_after_fork(); // what libirf's atfork child handler does
    FakeLaunch(1, "_Z1tv").run(rig.backend);
    const KernelActivity record = kernel_record(1, 1, 2);
    rig.backend.on_kernel_record(record);
    EXPECT_TRUE(rig.sink.launches.empty());
    EXPECT_TRUE(rig.sink.durations.empty());
}

} // namespace
} // namespace test_cupti_safe_sampling
} // namespace irf::intercept::cupti::test

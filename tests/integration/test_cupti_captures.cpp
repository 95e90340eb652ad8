// SPDX-License-Identifier: Apache-2.0
// Stream captures matched by CUPTI's stream ids (issue 51 A6): one thread's per-thread default
// stream is not another's, and side streams joined into a capture through events are captured.
#include <thread>

#include <gtest/gtest.h>

#include "tests/integration/cupti_fake_platform.hpp"

namespace irf::intercept::cupti::test {
namespace test_cupti_captures {
namespace {

/// `launch` through the driver entry `cbid` (cuLaunchKernel or its _ptsz twin).
void run_as(CuptiBackend& backend, FakeLaunch& launch, CUpti_CallbackId cbid) {
    launch.data.callbackSite = CUPTI_API_ENTER;
    backend.on_callback(CUPTI_CB_DOMAIN_DRIVER_API, cbid, &launch.data);
    launch.data.callbackSite = CUPTI_API_EXIT;
    backend.on_callback(CUPTI_CB_DOMAIN_DRIVER_API, cbid, &launch.data);
}

CUstream stream(std::uintptr_t n) {
    return reinterpret_cast<CUstream>(n);
}

CUevent event(std::uintptr_t n) {
    return reinterpret_cast<CUevent>(n);
}

/// cuStreamBeginCapture_v2 (or _ptsz) and cuStreamEndCapture (or _ptsz) on `s`.
struct Capture {
    struct {
        CUstream stream;
        CUstreamCaptureMode mode;
    } begin_params{};
    struct {
        CUstream stream;
        CUgraph* graph;
    } end_params{};
    CUgraph graph = nullptr;
    bool per_thread = false;
    Capture(CUstream s, bool ptsz) : per_thread(ptsz) {
        begin_params = {s, CU_STREAM_CAPTURE_MODE_GLOBAL};
        end_params = {s, &graph};
    }
    void begin(CuptiBackend& backend) {
        FakeCall call(per_thread ? CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz
                                 : CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2);
        call.data.functionParams = &begin_params;
        call.run(backend);
    }
    void end(CuptiBackend& backend) {
        FakeCall call(per_thread ? CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz
                                 : CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture);
        call.data.functionParams = &end_params;
        call.run(backend);
    }
};

TEST(CuptiCaptures, ACaptureOnOneThreadsDefaultStreamHidesNoOtherThreadsLaunches) {
    // Code built with --default-stream per-thread captures on stream 0: NULL through a _ptsz
    // entry is the capturing thread's own stream. Before (raw handles): every other thread's
    // default-stream launches counted as captured too, so they were neither counted nor timed.
    SeamRig rig;
    Capture capture(nullptr, true);
    capture.begin(rig.backend);
    FakeLaunch own(1, "_Z4mainv", nullptr, 0x10);
    own.params.hStream = nullptr;
    run_as(rig.backend, own, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz);
    EXPECT_TRUE(rig.sink.names.empty()) << "the capturing thread's launch is recorded, not run";
    std::thread other([&rig] {
        FakeLaunch theirs(2, "_Z5otherv", nullptr, 0x20);
        theirs.params.hStream = nullptr;
        run_as(rig.backend, theirs, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz);
    });
    other.join();
    EXPECT_EQ(rig.sink.names, (std::vector<std::string>{"_Z5otherv"}));
    capture.end(rig.backend);
    FakeLaunch after(3, "_Z4mainv", nullptr, 0x10);
    run_as(rig.backend, after, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz);
    EXPECT_EQ(rig.sink.names.size(), 2u);
}

TEST(CuptiCaptures, ASideStreamJoinedThroughAnEventIsCaptured) {
    // Fork and join (PyTorch side streams, NCCL in graphs): an event recorded in the capturing
    // stream, waited for by a side stream, puts the side stream into the capture. The driver's
    // query (is_capturing, false here) was the only way to see it, and the H100 showed it
    // unreliable inside callbacks: before, the side stream's launch was counted, and its
    // duration never came.
    SeamRig rig;
    Capture capture(stream(0x71), false);
    capture.begin(rig.backend);
    struct {
        CUevent event;
        CUstream stream;
    } record{event(0xe1), stream(0x71)};
    FakeCall recorded(CUPTI_DRIVER_TRACE_CBID_cuEventRecord);
    recorded.data.functionParams = &record;
    recorded.run(rig.backend);
    struct {
        CUstream stream;
        CUevent event;
        unsigned int flags;
    } wait{stream(0x72), event(0xe1), 0};
    FakeCall waited(CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent);
    waited.data.functionParams = &wait;
    waited.run(rig.backend);
    const auto launch_on = [&rig](CUstream s, std::uint32_t id, const char* name) {
        FakeLaunch launch(id, name);
        launch.params.hStream = s;
        launch.run(rig.backend);
    };
    launch_on(stream(0x72), 1, "_Z4sidev");
    launch_on(stream(0x73), 2, "_Z7outsidev"); // never joined: an ordinary launch
    EXPECT_EQ(rig.sink.names, (std::vector<std::string>{"_Z7outsidev"}));
    capture.end(rig.backend);
    launch_on(stream(0x72), 3, "_Z4sidev"); // the capture is over: its streams run again
    EXPECT_EQ(rig.sink.names, (std::vector<std::string>{"_Z7outsidev", "_Z4sidev"}));
}

TEST(CuptiCaptures, AnEventRecordedOutsideACaptureJoinsNothing) {
    SeamRig rig;
    Capture capture(stream(0x71), false);
    capture.begin(rig.backend);
    struct {
        CUevent event;
        CUstream stream;
    } record{event(0xe2), stream(0x74)}; // not a capturing stream
    FakeCall recorded(CUPTI_DRIVER_TRACE_CBID_cuEventRecord);
    recorded.data.functionParams = &record;
    recorded.run(rig.backend);
    struct {
        CUstream stream;
        CUevent event;
        unsigned int flags;
    } wait{stream(0x75), event(0xe2), 0};
    FakeCall waited(CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent);
    waited.data.functionParams = &wait;
    waited.run(rig.backend);
    FakeLaunch launch(1, "_Z5plainv");
    launch.params.hStream = stream(0x75);
    launch.run(rig.backend);
    EXPECT_EQ(rig.sink.names, (std::vector<std::string>{"_Z5plainv"}));
    capture.end(rig.backend);
}

} // namespace
} // namespace test_cupti_captures
} // namespace irf::intercept::cupti::test

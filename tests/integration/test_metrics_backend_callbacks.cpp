// SPDX-License-Identifier: Apache-2.0
// Drives the CUPTI backend's callback and activity paths with synthetic CUPTI data on a
// machine without a GPU (the real libcupti answers CUPTI_ERROR_UNKNOWN to device calls).
#include <chrono>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include "intercept/cupti/cupti_backend_impl.hpp"
#include "intercept/nvtx_stack.hpp"
#include "tests/integration/cupti_fake_platform.hpp"

namespace irf::intercept::cupti {
namespace test_metrics_backend_callbacks {
namespace {

using test::LaunchKernelParams;
using Sink = test::RecordingSink;

// One launch's ENTER and EXIT callbacks, as CUPTI delivers them on the launching thread.
void launch(CuptiBackend& backend, std::uint32_t correlation_id, const char* symbol) {
    LaunchKernelParams p{reinterpret_cast<CUfunction>(std::uintptr_t{0x1000}),
                         8,
                         2,
                         1,
                         256,
                         1,
                         1,
                         4096,
                         nullptr,
                         nullptr,
                         nullptr};
    std::uint64_t scratch = 0;
    CUpti_CallbackData data;
    std::memset(&data, 0, sizeof data);
    data.callbackSite = CUPTI_API_ENTER;
    data.functionName = "cuLaunchKernel";
    data.functionParams = &p;
    data.symbolName = symbol;
    data.correlationData = &scratch;
    data.correlationId = correlation_id;
    backend.on_callback(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &data);
    data.callbackSite = CUPTI_API_EXIT;
    backend.on_callback(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &data);
    EXPECT_EQ(scratch, 0u) << "EXIT must release what ENTER took";
}

KernelActivity record(std::uint64_t correlation_id, std::uint32_t graph_id) {
    KernelActivity r;
    r.correlation_id = correlation_id;
    r.start_ns = 100;
    r.end_ns = 350;
    r.graph_id = graph_id;
    r.name = "_Z5graphv";
    r.launch.grid = {4, 1, 1};
    return r;
}

TEST(CuptiBackendCallbacks, LaunchBecomesAnEventAndReleasesTheLock) {
    CuptiBackend backend{CuptiOptions{}};
    Sink sink(LaunchDecision::time_only);
    backend.attach_sink_for_test(sink);
    launch(backend, 41, "_Z6kernelPf");
    launch(backend, 42, "_Z6kernelPf");
    ASSERT_EQ(sink.launches.size(), 2u);
    const LaunchEvent& e = sink.launches[0];
    EXPECT_EQ(e.correlation_id, 41u);
    EXPECT_EQ(sink.names[0], "_Z6kernelPf");
    EXPECT_EQ(e.launch.grid, (std::array<std::uint32_t, 3>{8, 2, 1}));
    EXPECT_EQ(e.launch.block, (std::array<std::uint32_t, 3>{256, 1, 1}));
    EXPECT_EQ(e.launch.smem_bytes, 4096u); // no driver: static shared memory reads as 0
    EXPECT_FALSE(e.graph);
    EXPECT_TRUE(sink.warnings.empty());
}

// IRF_CAPTURE_RANGE=cudaProfilerApi: the runtime's and the driver's profiler start/stop reach
// the sink at API entry; their exits and other APIs do not.
TEST(CuptiBackendCallbacks, ProfilerStartAndStopReachTheSink) {
    // IRF_CAPTURE_RANGE=cudaProfilerApi sets profiler_api_callbacks; without it the callbacks
    // are not enabled and the launch path does not look for them.
    for (const bool capture_range : {true, false}) {
        CuptiOptions options;
        options.profiler_api_callbacks = capture_range;
        CuptiBackend backend{options};
        Sink sink(LaunchDecision::time_only);
        backend.attach_sink_for_test(sink);
        CUpti_CallbackData data;
        std::memset(&data, 0, sizeof data);
        const auto call = [&](CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
            data.callbackSite = CUPTI_API_ENTER;
            backend.on_callback(domain, cbid, &data);
            data.callbackSite = CUPTI_API_EXIT;
            backend.on_callback(domain, cbid, &data);
        };
        call(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000);
        call(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
        call(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000);
        call(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
        call(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerInitialize);
        EXPECT_EQ(sink.profiler_ranges, capture_range
                                            ? (std::vector<bool>{true, true, false, false})
                                            : std::vector<bool>{})
            << capture_range;
        EXPECT_TRUE(sink.launches.empty());
    }
}

TEST(CuptiBackendCallbacks, ProfileRequestWithoutDriverWarnsAndTimesOnly) {
    CuptiBackend backend{CuptiOptions{}};
    Sink sink(LaunchDecision::profile);
    backend.attach_sink_for_test(sink);
    const auto t0 = std::chrono::steady_clock::now();
    launch(backend, 7, "_Z1kv");
    launch(backend, 8, "_Z1kv"); // would wait k_lock_wait if the first leaked its lock
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
    EXPECT_TRUE(sink.samples.empty());
    ASSERT_FALSE(sink.warnings.empty());
    EXPECT_EQ(sink.warnings.size(), 1u);
    EXPECT_NE(sink.warnings[0].find("cuptiProfilerInitialize"), std::string::npos)
        << sink.warnings[0];
    EXPECT_EQ(backend.passes(), 0);
}

TEST(CuptiBackendCallbacks, LaunchesFromManyThreads) {
    CuptiBackend backend{CuptiOptions{}};
    Sink sink(LaunchDecision::time_only);
    backend.attach_sink_for_test(sink);
    std::vector<std::thread> threads;
    for (std::uint32_t t = 0; t < 4; ++t) {
        threads.emplace_back([&backend, t] {
            for (std::uint32_t i = 0; i < 100; ++i) {
                launch(backend, t * 1000 + i + 1, "_Z1kv");
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    EXPECT_EQ(sink.launches.size(), 400u);
}

TEST(CuptiBackendCallbacks, ActivityRecordsBecomeDurations) {
    CuptiBackend backend{CuptiOptions{}};
    Sink sink(LaunchDecision::time_only);
    backend.attach_sink_for_test(sink);
    backend.on_kernel_record(record(41, 0));
    backend.on_kernel_record(record(0, 0)); // no correlation: ignored
    ASSERT_EQ(sink.durations.size(), 1u);
    EXPECT_EQ(sink.durations[0].correlation_id, 41u);
    EXPECT_EQ(sink.durations[0].end_ns - sink.durations[0].start_ns, 250u);
    EXPECT_TRUE(sink.launches.empty());
}

TEST(CuptiBackendCallbacks, KernelsOfADeviceLaunchedGraphAreTimed) {
    // isDeviceLaunched means "part of a device-launched graph" (cupti_activity.h), not
    // dynamic parallelism: no host launch callback, so each is a timed-only launch of its own.
    CuptiBackend backend{CuptiOptions{}};
    Sink sink(LaunchDecision::time_only);
    backend.attach_sink_for_test(sink);
    KernelActivity device_side = record(43, 0);
    device_side.device_launched = true;
    backend.on_kernel_record(device_side);
    ASSERT_EQ(sink.launches.size(), 1u);
    EXPECT_TRUE(sink.launches[0].graph);
    ASSERT_EQ(sink.durations.size(), 1u);
    EXPECT_EQ(sink.durations[0].correlation_id, sink.launches[0].correlation_id);
}

TEST(CuptiBackendCallbacks, GraphKernelsAreTimedOnlyLaunches) {
    CuptiBackend backend{CuptiOptions{}};
    Sink sink(LaunchDecision::profile);
    backend.attach_sink_for_test(sink);
    backend.on_kernel_record(record(99, 5));
    backend.on_kernel_record(record(99, 5)); // two nodes of one graph launch
    ASSERT_EQ(sink.launches.size(), 2u);
    ASSERT_EQ(sink.durations.size(), 2u);
    EXPECT_TRUE(sink.launches[0].graph);
    EXPECT_EQ(sink.names[0], "_Z5graphv");
    EXPECT_EQ(sink.launches[0].launch.grid[0], 4u);
    // Synthetic ids above 2^32 never collide with CUPTI's 32-bit correlation ids.
    EXPECT_GE(sink.launches[0].correlation_id, std::uint64_t{1} << 32);
    EXPECT_NE(sink.launches[0].correlation_id, sink.launches[1].correlation_id);
    EXPECT_EQ(sink.durations[1].correlation_id, sink.launches[1].correlation_id);
    EXPECT_TRUE(sink.samples.empty());
}

// One cuGraphLaunch's ENTER and EXIT callbacks on the calling thread.
void launch_graph(CuptiBackend& backend, std::uint32_t correlation_id) {
    irf::test::GraphLaunchParams p{nullptr, nullptr};
    std::uint64_t scratch = 0;
    CUpti_CallbackData data;
    std::memset(&data, 0, sizeof data);
    data.functionName = "cuGraphLaunch";
    data.functionParams = &p;
    data.correlationData = &scratch;
    data.correlationId = correlation_id;
    for (const CUpti_ApiCallbackSite site : {CUPTI_API_ENTER, CUPTI_API_EXIT}) {
        data.callbackSite = site;
        backend.on_callback(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
                            &data);
    }
}

TEST(CuptiBackendCallbacks, GraphKernelsCarryTheRegionOfTheirGraphLaunch) {
    CuptiBackend backend{CuptiOptions{}};
    Sink sink(LaunchDecision::time_only);
    backend.attach_sink_for_test(sink);
    nvtx::set_stack({"decode", "step"});
    const std::uint32_t step = nvtx::current_path();
    launch_graph(backend, 77);
    nvtx::set_stack({});
    // Records arrive on CUPTI's buffer thread, whose stack is not the launcher's.
    std::thread activity([&backend] {
        backend.on_kernel_record(record(77, 5)); // two kernel nodes of launch 77
        backend.on_kernel_record(record(77, 5));
        backend.on_kernel_record(record(78, 5)); // a launch irf never saw
    });
    activity.join();
    ASSERT_EQ(sink.launches.size(), 3u);
    EXPECT_TRUE(sink.launches[0].region_given);
    EXPECT_EQ(sink.launches[0].region, step);
    EXPECT_EQ(sink.launches[1].region, step);
    // a launch of unknown region runs at the top level, not in the delivering thread's range
    EXPECT_TRUE(sink.launches[2].region_given);
    EXPECT_EQ(sink.launches[2].region, nvtx::k_root);
}

TEST(CuptiBackendCallbacks, NothingReachesTheSinkAfterStop) {
    CuptiBackend backend{CuptiOptions{}};
    Sink sink(LaunchDecision::time_only);
    backend.attach_sink_for_test(sink);
    backend.stop();
    launch(backend, 5, "_Z1kv");
    backend.on_kernel_record(record(5, 0));
    backend.flush();
    EXPECT_TRUE(sink.launches.empty());
    EXPECT_TRUE(sink.durations.empty());
    EXPECT_TRUE(sink.warnings.empty());
}

} // namespace
} // namespace test_metrics_backend_callbacks
} // namespace irf::intercept::cupti

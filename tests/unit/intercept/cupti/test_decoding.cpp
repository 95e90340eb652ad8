// SPDX-License-Identifier: Apache-2.0
// Unit tests of irf_cupti's GPU-free logic: counter mapping, launch params, activity records.
#include <algorithm>
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include "intercept/cupti/activity.hpp"
#include "intercept/cupti/counter_map.hpp"
#include "intercept/cupti/driver_api.hpp"
#include "intercept/cupti/launch_params.hpp"
#include "tests/support/cuda_launch_abi.hpp"

using irf::test::GraphLaunchParams;
using irf::test::LaunchKernelExParams;
using irf::test::LaunchKernelParams;

namespace irf::intercept::cupti {
namespace test_decoding {
namespace {

CUfunction fake_function(std::uintptr_t value) {
    return reinterpret_cast<CUfunction>(value);
}
CUstream fake_stream(std::uintptr_t value) {
    return reinterpret_cast<CUstream>(value);
}

TEST(CounterMap, SumsMetricsPerCanonicalCounter) {
    const std::vector<config::MetricBinding> bindings = {
        {"inst_warp", {"smsp__inst_executed.sum"}},
        {"tensor_ops_fp16", {"a.sum", "b.sum"}},
    };
    const auto counters = to_counters(bindings, {"smsp__inst_executed.sum", "a.sum", "b.sum"},
                                      {1000.0, 256.0, 512.0});
    ASSERT_EQ(counters.size(), 2u);
    EXPECT_DOUBLE_EQ(counters.at("inst_warp"), 1000.0);
    EXPECT_DOUBLE_EQ(counters.at("tensor_ops_fp16"), 768.0); // 256 + 512
}

TEST(CounterMap, LeavesOutNaNAndMissingMetrics) {
    const std::vector<config::MetricBinding> bindings = {
        {"dram_sectors_read", {"dram.sum"}},
        {"tensor_ops_fp16", {"a.sum", "missing.sum"}},
        {"l2_sectors_read", {"lts.sum"}},
    };
    const auto counters =
        to_counters(bindings, {"dram.sum", "a.sum", "lts.sum"}, {std::nan(""), 3.0, 7.0});
    EXPECT_EQ(counters.count("dram_sectors_read"), 0u); // NaN: shared unit under MIG
    EXPECT_EQ(counters.count("tensor_ops_fp16"), 0u);   // one term missing
    EXPECT_DOUBLE_EQ(counters.at("l2_sectors_read"), 7.0);
}

TEST(CounterMap, MapsARealChipSet) {
    const auto bindings = config::metric_bindings(config::ChipFamily::gh100, false, false);
    const auto names = config::metric_names(bindings);
    std::vector<double> values(names.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = static_cast<double>(i + 1);
    }
    const auto counters = to_counters(bindings, names, values);
    // docs/metrics.md: 25 core + 9 FP; ctas_launched, inst_ldgsts; issue #18 item 6 on GH100:
    // 11 SASS classes + fp8, 7 traffic/bytes counters + LDSM (2), LDGSTS (2) and STSM (2).
    EXPECT_EQ(counters.size(), 61u);
    EXPECT_DOUBLE_EQ(counters.at("inst_warp"), 1.0); // first metric in the list
}

TEST(LaunchParams, DecodesCuLaunchKernel) {
    static_assert(sizeof(LaunchKernelParams) == 64, "cuLaunchKernel_params layout");
    LaunchKernelParams p{fake_function(0x1000), 4,       2,      1, 128, 1, 1, 1024,
                         fake_stream(0x20),     nullptr, nullptr};
    const auto d = decode_launch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &p);
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->kind, LaunchKind::kernel);
    EXPECT_EQ(d->function, fake_function(0x1000));
    EXPECT_EQ(d->config.grid, (std::array<std::uint32_t, 3>{4, 2, 1}));
    EXPECT_EQ(d->config.block, (std::array<std::uint32_t, 3>{128, 1, 1}));
    EXPECT_EQ(d->config.smem_bytes, 1024u);
    EXPECT_EQ(d->stream, fake_stream(0x20));
    EXPECT_FALSE(d->per_thread_stream);
    const auto ptsz = decode_launch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, &p);
    ASSERT_TRUE(ptsz.has_value());
    EXPECT_TRUE(ptsz->per_thread_stream);
    const auto coop = decode_launch(CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, &p);
    ASSERT_TRUE(coop.has_value());
    EXPECT_EQ(coop->config.grid[0], 4u);
}

TEST(LaunchParams, DecodesCuLaunchKernelEx) {
    CUlaunchConfig config{};
    config.gridDimX = 132;
    config.gridDimY = 1;
    config.gridDimZ = 1;
    config.blockDimX = 256;
    config.blockDimY = 2;
    config.blockDimZ = 1;
    config.sharedMemBytes = 49152;
    config.hStream = fake_stream(0x30);
    LaunchKernelExParams p{&config, fake_function(0x2000), nullptr, nullptr};
    const auto d = decode_launch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz, &p);
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->function, fake_function(0x2000));
    EXPECT_EQ(d->config.grid, (std::array<std::uint32_t, 3>{132, 1, 1}));
    EXPECT_EQ(d->config.block, (std::array<std::uint32_t, 3>{256, 2, 1}));
    EXPECT_EQ(d->config.smem_bytes, 49152u);
    EXPECT_EQ(d->stream, fake_stream(0x30));
    EXPECT_TRUE(d->per_thread_stream);
    LaunchKernelExParams no_config{nullptr, fake_function(0x2000), nullptr, nullptr};
    EXPECT_FALSE(decode_launch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, &no_config));
}

TEST(LaunchParams, GraphsAndOthers) {
    GraphLaunchParams g{nullptr, fake_stream(0x40)};
    const auto d = decode_launch(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, &g);
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->kind, LaunchKind::graph);
    EXPECT_EQ(d->stream, fake_stream(0x40));
    EXPECT_FALSE(decode_launch(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, &g));
    EXPECT_FALSE(decode_launch(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, nullptr));
    EXPECT_EQ(launch_cbids().size(), 12u);
    EXPECT_EQ(teardown_cbids().size(), 6u);
}

TEST(LaunchParams, ProfilerRangeCallbacksOnlyWithTheCaptureRange) {
    // Without IRF_CAPTURE_RANGE=cudaProfilerApi no runtime-domain callback is enabled at all.
    EXPECT_TRUE(profiler_range_cbids(false).empty());
    const auto& on = profiler_range_cbids(true);
    ASSERT_EQ(on.size(), 4u);
    EXPECT_EQ(std::count_if(on.begin(), on.end(),
                            [](const auto& c) { return c.first == CUPTI_CB_DOMAIN_RUNTIME_API; }),
              2);
    EXPECT_EQ(profiler_range_change(CUPTI_CB_DOMAIN_RUNTIME_API,
                                    CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000),
              1);
    EXPECT_EQ(
        profiler_range_change(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop),
        0);
    EXPECT_EQ(
        profiler_range_change(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart),
        -1); // a driver cbid's number in the runtime domain is another call
}

TEST(ActivityRecords, DecodesAConcurrentKernelRecord) {
    CUpti_ActivityKernel10 k;
    std::memset(&k, 0, sizeof k);
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.start = 1000;
    k.end = 3500;
    k.correlationId = 77;
    k.deviceId = 1;
    k.contextId = 2;
    k.streamId = 13;
    k.gridX = 8;
    k.gridY = 4;
    k.gridZ = 1;
    k.blockX = 64;
    k.blockY = 1;
    k.blockZ = 1;
    k.staticSharedMemory = 512;
    k.dynamicSharedMemory = 1024;
    k.registersPerThread = 40;
    k.name = "_Z6kernelv";
    const auto a = decode_kernel_record(reinterpret_cast<const CUpti_Activity*>(&k));
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(a->correlation_id, 77u);
    EXPECT_EQ(a->end_ns - a->start_ns, 2500u);
    EXPECT_EQ(a->launch.grid, (std::array<std::uint32_t, 3>{8, 4, 1}));
    EXPECT_EQ(a->launch.smem_bytes, 1536u); // 512 static + 1024 dynamic
    EXPECT_EQ(a->launch.regs, 40u);
    EXPECT_EQ(a->stream, 13u);
    EXPECT_STREQ(a->name, "_Z6kernelv");
    EXPECT_FALSE(a->device_launched);
}

TEST(ActivityRecords, DecodesUntimedKernelsAndSkipsOtherKinds) {
    CUpti_ActivityKernel10 k;
    std::memset(&k, 0, sizeof k);
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    // A kernel record without timestamps is decoded: the collector drops and counts it
    // (coverage.invalid_durations) instead of it vanishing here.
    EXPECT_TRUE(decode_kernel_record(reinterpret_cast<const CUpti_Activity*>(&k)));
    k.start = 1;
    k.end = 2;
    k.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    EXPECT_FALSE(decode_kernel_record(reinterpret_cast<const CUpti_Activity*>(&k)));
    EXPECT_FALSE(decode_kernel_record(nullptr));
}

TEST(DriverApi, FormatsDriverVersion) {
    EXPECT_EQ(format_driver_version(13000), "13.0");
    EXPECT_EQ(format_driver_version(12080), "12.8");
}

TEST(DriverApi, LoadsWithoutADriver) {
    // No libcuda is loaded in this test process: every entry point stays null, nothing crashes.
    const DriverApi& api = driver_api();
    EXPECT_FALSE(api.usable());
    const FunctionAttributes attrs = function_attributes(fake_function(0x1000), 0);
    EXPECT_EQ(attrs.regs, 0u);
    EXPECT_TRUE(device_info(0).name.empty());
}

} // namespace
} // namespace test_decoding
} // namespace irf::intercept::cupti

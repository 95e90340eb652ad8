// SPDX-License-Identifier: Apache-2.0
// Who holds the counters (issue 51): busy counters at a tensor-types setup, and the range
// profiler handing the counters back between bursts of samples. Through the CUPTI backend's
// seam into a real collector.
#include <algorithm>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "tests/integration/cupti_fake_platform.hpp"

namespace irf::intercept::cupti::test {
namespace {

constexpr const char* k_inst_tensor = "smsp__inst_executed_pipe_tensor.sum";
constexpr const char* k_bf16 = "sm__ops_path_tensor_src_bf16_dst_fp32.sum";

/// The CUPTI backend on the fake platform (chip GH100), delivering to a real collector.
struct CountersRig {
    FakeScript script;
    Collector collector{config::Config{}};
    CuptiBackend backend{CuptiOptions{}};
    std::uint64_t clock_ns = 1000;
    explicit CountersRig(SamplingSeam seam = {}) {
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

} // namespace
} // namespace irf::intercept::cupti::test

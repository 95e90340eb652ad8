// SPDX-License-Identifier: Apache-2.0
// The tensor-types second sample (issue 41 item 3) through the CUPTI backend's seam, with the
// collector as its sink: the context's profiler switches to the tensor-types set for that one
// launch and back at the next sample, and the per-type ops reach the kernel's counters.
#include <algorithm>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "intercept/cupti/sample_sets.hpp"
#include "tests/integration/cupti_fake_platform.hpp"

namespace irf::intercept::cupti::test {
namespace test_cupti_tensor_types {
namespace {

constexpr const char* k_inst_tensor = "smsp__inst_executed_pipe_tensor.sum";
constexpr const char* k_bf16 = "sm__ops_path_tensor_src_bf16_dst_fp32.sum";

/// The CUPTI backend on the fake platform (chip GH100), delivering to a real collector.
struct TensorRig {
    FakeScript script;
    Collector collector{config::Config{}};
    CuptiBackend backend{CuptiOptions{}};
    std::uint64_t clock_ns = 1000;
    TensorRig() {
        backend.set_sampling_seam_for_test(
            quiet_seam({std::make_unique<FakePlatform>(script), std::chrono::milliseconds(2000),
                        std::chrono::seconds(60), k_timing_check}));
        backend.attach_sink_for_test(collector);
    }
    /// Launch `id` of the kernel at `function` with its 1 us activity record.
    void launch(std::uint32_t id, const char* symbol = "_Z4gemmv", std::uintptr_t function = 0x40) {
        FakeLaunch(id, symbol, nullptr, function).run(backend);
        backend.on_kernel_record(kernel_record(id, clock_ns, clock_ns + 1000));
        clock_ns += 2000;
    }
    [[nodiscard]] long count(const std::string& entry) const {
        return std::count(script.journal.begin(), script.journal.end(), entry);
    }
    [[nodiscard]] model::Profile profile() {
        model::Profile p;
        collector.fill_profile(p);
        return p;
    }
};

std::vector<std::string> names_of(SampleSet set) {
    return config::metric_names(sample_bindings(config::ChipFamily::gh100, CuptiOptions{}, set));
}

bool holds(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

// Launches 1 and 2 (the cold and warm samples, IRF_SAMPLES) show 25,600 tensor instructions
// (200 a warp of the 128 warps: 16 CTAs of 256 threads; register moves stay under 16 a warp):
// launch 3 is profiled with the tensor-types set (6,400 instructions, 4e6 bf16 ops), and the
// next sample on the context (another kernel's) sets the standard set up again. The kernel's
// bf16 ops are 4e6 scaled by 25,600 / 6,400.
// coverage.passes is the standard set's: on chips where the tensor-types set needs more
// passes (6 on GA102, docs/cupti-notes.md), its sample must not raise the figure (issue 51 A10,
// the review's L3).
TEST(CuptiTensorTypes, PassesAreTheStandardSetsNotTheTensorSamples) {
    TensorRig rig;
    rig.script.values[k_inst_tensor] = 25600;
    rig.launch(1);
    rig.launch(2);
    EXPECT_EQ(rig.backend.passes(), 2);
    rig.script.passes = 6; // the tensor-types set's
    rig.script.values[k_inst_tensor] = 6400;
    rig.launch(3);
    ASSERT_EQ(rig.script.setups.size(), 2u); // the tensor-types set was set up and sampled
    EXPECT_EQ(rig.backend.passes(), 2);
}

TEST(CuptiTensorTypes, TheSecondSampleSwitchesTheSetAndBack) {
    TensorRig rig;
    rig.script.values[k_inst_tensor] = 25600;
    rig.launch(1);
    rig.launch(2);
    rig.script.values[k_inst_tensor] = 6400;
    rig.script.values[k_bf16] = 4e6;
    rig.launch(3);
    rig.launch(4, "_Z5otherv", 0x80);

    ASSERT_EQ(rig.script.setups.size(), 3u);
    EXPECT_EQ(rig.script.setups[0], names_of(SampleSet::standard));
    EXPECT_EQ(rig.script.setups[1], names_of(SampleSet::tensor_types));
    EXPECT_EQ(rig.script.setups[2], names_of(SampleSet::standard));
    const std::vector<std::string>& tensor = rig.script.setups[1];
    EXPECT_TRUE(holds(tensor, k_bf16) && holds(tensor, k_inst_tensor) &&
                holds(tensor, "gpu__time_duration.sum") && holds(tensor, "sm__ctas_launched.sum"));
    EXPECT_FALSE(holds(tensor, "smsp__inst_executed.sum")); // not the default set again
    EXPECT_FALSE(holds(rig.script.setups[0], k_bf16));
    EXPECT_EQ(rig.count("teardown 0"), 2); // one config image each way
    EXPECT_EQ(rig.count("stop 0"), 4);

    const model::Profile p = rig.profile();
    ASSERT_EQ(p.kernels.size(), 2u);
    const model::KernelRecord& k = p.kernels[0].mangled == "_Z4gemmv" ? p.kernels[0] : p.kernels[1];
    EXPECT_DOUBLE_EQ(k.counters.at("tensor_ops_bf16"), 1.6e7);
    EXPECT_DOUBLE_EQ(k.counters.at("inst_tensor"), 25600);
    EXPECT_DOUBLE_EQ(k.counters.at("inst_warp"), 3); // launch 2's standard sample
    EXPECT_EQ(k.profiled_launches, 1u);
    ASSERT_FALSE(k.notes.empty());
    EXPECT_EQ(k.notes.back(), "tensor ops by input type from a second sample (1 launch, "
                              "IRF_TENSOR_TYPES=auto), scaled x4 by tensor instructions");
}

// The tensor-types set cannot be set up (a counter this chip lacks): that one launch is
// declined, the next sample sets the standard set up again, and another tensor kernel on the
// device gets no second try.
TEST(CuptiTensorTypes, AFailedTensorSetupDeclinesOnlyThatLaunch) {
    TensorRig rig;
    rig.script.failing_metric = k_bf16;
    rig.script.values[k_inst_tensor] = 4096; // 32 a warp: tensor math, not register moves
    rig.launch(1); // standard (cold), tensor instructions: asks for the second sample
    rig.launch(2); // standard (warm), on the set already there
    rig.launch(3); // tensor types: setup fails, declined
    ASSERT_EQ(rig.script.setups.size(), 2u);
    EXPECT_EQ(rig.collector.stats().declined, 1u);

    rig.launch(4, "_Z5otherv", 0x80); // another tensor kernel: the standard set again
    rig.launch(5, "_Z5otherv", 0x80); // its warm sample
    rig.launch(6, "_Z5otherv", 0x80); // its tensor sample: declined without a setup
    ASSERT_EQ(rig.script.setups.size(), 3u);
    EXPECT_EQ(rig.script.setups[2], names_of(SampleSet::standard));
    EXPECT_EQ(rig.count("stop 0"), 4);
    EXPECT_EQ(rig.collector.stats().declined, 2u);

    const model::Profile p = rig.profile();
    ASSERT_EQ(p.kernels.size(), 2u);
    for (const model::KernelRecord& k : p.kernels) {
        EXPECT_EQ(k.counters.count("tensor_ops_bf16"), 0u);
        EXPECT_DOUBLE_EQ(k.counters.at("inst_warp"), 3);
    }
    const auto warned = std::count_if(p.warnings.begin(), p.warnings.end(), [](const auto& w) {
        return w.find("tensor ops by input type unavailable on device 0 (metric not "
                      "available)") != std::string::npos;
    });
    EXPECT_EQ(warned, 1);
    EXPECT_EQ(p.coverage.profiled_launches, 4u);
}

// The tensor-types set: the tensor group, with only the core counters its merge and checks need.
TEST(CuptiTensorTypes, TheSetHoldsTheTensorGroupAndWhatItsMergeNeeds) {
    for (const std::string& chip : config::reference_chips()) {
        const auto family = config::chip_family(chip);
        ASSERT_TRUE(family.has_value()) << chip;
        std::vector<std::string> canonical;
        std::size_t by_type = 0;
        for (const auto& b : sample_bindings(*family, CuptiOptions{}, SampleSet::tensor_types)) {
            if (b.group == config::MetricGroup::tensor_types) {
                ++by_type;
            } else {
                canonical.push_back(b.canonical);
            }
        }
        EXPECT_EQ(by_type,
                  config::group_bindings(*family, config::MetricGroup::tensor_types).size())
            << chip;
        EXPECT_EQ(canonical, (std::vector<std::string>{"inst_tensor", "ctas_launched", "time_ns"}))
            << chip;
        EXPECT_EQ(sample_bindings(*family, CuptiOptions{}, SampleSet::standard).size(),
                  config::metric_bindings(*family, false, false).size());
    }
    EXPECT_EQ(sample_set_of(LaunchDecision::profile), SampleSet::standard);
    EXPECT_EQ(sample_set_of(LaunchDecision::profile_tensor_types), SampleSet::tensor_types);
}

} // namespace
} // namespace test_cupti_tensor_types
} // namespace irf::intercept::cupti::test

// SPDX-License-Identifier: Apache-2.0
// The tensor-types second sample (issue 41 item 3, IRF_TENSOR_TYPES): asked for when a sample
// shows tensor instructions without their per-type ops, merged into the kernel's counters.
#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "tests/unit/intercept/collector_profile.hpp"

namespace irf::intercept {
namespace test_collector_tensor {
namespace {
// Named: in a unity batch, other files' helpers of the same names share the anonymous
// namespace.
namespace tensor_types {

constexpr LaunchDecision P = LaunchDecision::profile;
constexpr LaunchDecision T = LaunchDecision::time_only;
constexpr LaunchDecision TT = LaunchDecision::profile_tensor_types;

LaunchEvent event(std::uint64_t id) {
    LaunchEvent e;
    e.function = reinterpret_cast<const void*>(std::uintptr_t{0x40});
    e.mangled = "_Z4gemmv";
    e.correlation_id = id;
    return e;
}

/// Launches 1..n of one kernel, each answered sample delivering `counters` (the tensor-types
/// sample `tensor` instead), then 1 us durations; returns the decisions.
std::vector<LaunchDecision> play(Collector& c, int n, const model::Counters& counters,
                                 const model::Counters& tensor) {
    std::vector<LaunchDecision> out;
    for (int i = 1; i <= n; ++i) {
        const auto id = static_cast<std::uint64_t>(i);
        const LaunchDecision d = c.on_launch(event(id));
        out.push_back(test::sampled(d) ? P : d); // by launches or not: delivered at once here
        if (out.back() != T) {
            c.on_counters({id, out.back() == TT ? tensor : counters, 1});
        }
        c.on_duration({id, 1000 * id, 1000 * id + 1000});
    }
    return out;
}

const model::Counters k_gemm{{"inst_warp", 1000}, {"inst_tensor", 200}, {"time_ns", 1000}};
const model::Counters k_tensor{{"inst_tensor", 50}, {"tensor_ops_bf16", 4e6}, {"time_ns", 900}};

// Launch 1 (cold) shows 200 tensor instructions: launch 2 is the tensor-types sample, launch 3
// the kernel's sample. Its 4e6 bf16 ops over 50 instructions scale to the kernel's 200: 1.6e7.
TEST(CollectorTensor, TheSecondProfiledLaunchCountsTheTensorTypes) {
    Collector c(config::Config{});
    // Cold and warm verdict samples first (IRF_SAMPLES), then the tensor-types one.
    EXPECT_EQ(play(c, 4, k_gemm, k_tensor), (std::vector<LaunchDecision>{P, P, TT, T}));
    const model::Profile p = test::profile_of(c);
    const model::KernelRecord& k = p.kernels.at(0);
    EXPECT_DOUBLE_EQ(k.counters.at("tensor_ops_bf16"), 1.6e7);
    EXPECT_DOUBLE_EQ(k.counters.at("inst_tensor"), 200); // the kernel's sample, not the sum
    EXPECT_EQ(k.profiled_launches, 1u);
    EXPECT_EQ(p.coverage.profiled_launches, 3u);
    ASSERT_FALSE(k.notes.empty());
    EXPECT_EQ(k.notes.back(), "tensor ops by input type from a second sample (1 launch, "
                              "IRF_TENSOR_TYPES=auto), scaled x4 by tensor instructions");
}

// The H100 recording: fma_chains issues one HFMA2.MMA register move a warp (8192 warps of 256
// threads in 1024 CTAs), which the tensor pipe counts; a types sample would measure 0 ops.
TEST(CollectorTensor, RegisterMovesAloneDoNotAsk) {
    const model::Counters moves{{"inst_warp", 8192.0 * 4100},
                                {"inst_tensor", 8192},
                                {"ctas_launched", 1024},
                                {"time_ns", 1000}};
    Collector c(config::Config{});
    auto launch = [&c](std::uint64_t id, std::uint32_t block) {
        LaunchEvent e = event(id);
        e.launch.block = {block, 1, 1};
        return c.on_launch(e);
    };
    for (std::uint64_t id = 1; id <= 4; ++id) {
        const LaunchDecision d = launch(id, 256);
        EXPECT_NE(d, TT) << "launch " << id;
        if (d != T) {
            c.on_counters({id, moves, 1});
        }
        c.on_duration({id, 1000 * id, 1000 * id + 1000});
    }
    // 17 a warp (8192 warps x 17) is above the 16 a warp the recording's moves stay under.
    model::Counters mma = moves;
    mma["inst_tensor"] = 8192.0 * 17;
    Collector d(config::Config{});
    std::vector<LaunchDecision> seen;
    for (std::uint64_t id = 1; id <= 4; ++id) {
        LaunchEvent e = event(id);
        e.launch.block = {256, 1, 1};
        const LaunchDecision decided = d.on_launch(e);
        seen.push_back(test::sampled(decided) ? P : decided);
        if (seen.back() != T) {
            d.on_counters({id, mma, 1});
        }
        d.on_duration({id, 1000 * id, 1000 * id + 1000});
    }
    EXPECT_EQ(seen, (std::vector<LaunchDecision>{P, P, TT, T}));
}

TEST(CollectorTensor, AKernelWithoutTensorInstructionsNeverAsks) {
    Collector c(config::Config{});
    const model::Counters plain{{"inst_warp", 1000}, {"inst_tensor", 0}};
    EXPECT_EQ(play(c, 4, plain, k_tensor), (std::vector<LaunchDecision>{P, P, T, T}));
}

TEST(CollectorTensor, OffOrCountedInEverySampleNeverAsks) {
    config::Config off;
    off.tensor_types_auto = false;
    Collector c_off(off);
    EXPECT_EQ(play(c_off, 3, k_gemm, k_tensor), (std::vector<LaunchDecision>{P, P, T}));
    config::Config every;
    every.metrics_tensor_types = true;
    Collector c_every(every);
    EXPECT_EQ(play(c_every, 3, k_gemm, k_tensor), (std::vector<LaunchDecision>{P, P, T}));
}

TEST(CollectorTensor, TheBudgetCapsIt) {
    config::Config two;
    two.launch_count = 2;
    Collector c(two);
    // The two launches of the budget go to the verdict samples (cold and warm); the tensor
    // types wait behind them and never come.
    EXPECT_EQ(play(c, 4, k_gemm, k_tensor), (std::vector<LaunchDecision>{P, P, T, T}));
    const model::KernelRecord k = test::profile_of(c).kernels.at(0);
    EXPECT_EQ(k.counters.count("tensor_ops_bf16"), 0u);
    config::Config three;
    three.launch_count = 3;
    Collector c3(three);
    EXPECT_EQ(play(c3, 4, k_gemm, k_tensor), (std::vector<LaunchDecision>{P, P, TT, T}));
    EXPECT_DOUBLE_EQ(test::profile_of(c3).kernels.at(0).counters.at("tensor_ops_bf16"), 1.6e7);
}

// A tensor-types sample holds no verdict counters: when its own duration opens a duration
// cluster of its own (5 us against 1 us), that cluster asks for a sample like an unprofiled
// launch's would. Launch 1 is skipped, 2 is the sample, 3 the tensor-types one, 4 the cluster's.
TEST(CollectorTensor, ItsDurationClusterStillAsksForASample) {
    config::Config skip_one;
    skip_one.launch_skip = 1;
    Collector c(skip_one);
    const model::Counters long_tensor{
        {"inst_tensor", 50}, {"tensor_ops_bf16", 4e6}, {"time_ns", 5000}};
    EXPECT_EQ(play(c, 5, k_gemm, long_tensor), (std::vector<LaunchDecision>{T, P, TT, P, T}));
}

} // namespace tensor_types
} // namespace
} // namespace test_collector_tensor
} // namespace irf::intercept

// SPDX-License-Identifier: Apache-2.0
// The sampling policy: samples per kernel, provisional first launch, skip and count.
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "intercept/sampler.hpp"

namespace irf::intercept {
namespace test_sampler {
namespace {

constexpr LaunchDecision P = LaunchDecision::profile;
constexpr LaunchDecision T = LaunchDecision::time_only;

/// Decisions for a kernel's launches; the first is cold (first launch of its function).
std::vector<LaunchDecision> run(Sampler& s, SampleState& state, int launches) {
    std::vector<LaunchDecision> out;
    for (int i = 0; i < launches; ++i) {
        out.push_back(s.decide(state, i == 0));
    }
    return out;
}

/// Decisions for `launches` later (warm) launches of a kernel.
std::vector<LaunchDecision> run_warm(Sampler& s, SampleState& state, int launches) {
    std::vector<LaunchDecision> out;
    for (int i = 0; i < launches; ++i) {
        out.push_back(s.decide(state, false));
    }
    return out;
}

TEST(Sampler, FirstLaunchIsProvisionalAndTheNextIsTheSample) {
    Sampler s(1, 0, std::nullopt);
    SampleState k;
    EXPECT_EQ(run(s, k, 5), (std::vector<LaunchDecision>{P, P, T, T, T}));
}

TEST(Sampler, ALaunchOnceKernelIsProfiled) {
    Sampler s(1, 0, std::nullopt);
    SampleState k;
    EXPECT_EQ(run(s, k, 1), (std::vector<LaunchDecision>{P}));
}

TEST(Sampler, SamplesPerKernel) {
    Sampler s(3, 0, std::nullopt);
    SampleState a, b;
    EXPECT_EQ(run(s, a, 6), (std::vector<LaunchDecision>{P, P, P, P, T, T}));
    EXPECT_EQ(run(s, b, 2), (std::vector<LaunchDecision>{P, P})); // b has its own budget
}

TEST(Sampler, ZeroSamplesProfilesNothing) {
    Sampler s(0, 0, std::nullopt);
    SampleState k;
    EXPECT_EQ(run(s, k, 3), (std::vector<LaunchDecision>{T, T, T}));
}

TEST(Sampler, SkipCountsMatchingLaunchesOfAllKernels) {
    Sampler s(1, 3, std::nullopt);
    SampleState a, b;
    EXPECT_EQ(run(s, a, 2), (std::vector<LaunchDecision>{T, T})); // skipped 1, 2
    // b: launch 3 skipped (its cold launch), then b's second launch is its sample.
    EXPECT_EQ(run(s, b, 3), (std::vector<LaunchDecision>{T, P, T}));
    EXPECT_EQ(s.decide(a, false), P); // a's next launch: its first sample
    EXPECT_EQ(s.skipped(), 3u);
}

TEST(Sampler, CountCapsProfiledLaunchesOverall) {
    Sampler s(5, 0, 2);
    SampleState a, b;
    EXPECT_EQ(run(s, a, 4), (std::vector<LaunchDecision>{P, P, T, T}));
    EXPECT_EQ(run(s, b, 2), (std::vector<LaunchDecision>{T, T}));
}

TEST(Sampler, ColdLaunchOfAnotherFunctionAfterSamplesIsNotProfiled) {
    // Same kernel loaded in a second context: its first launch is cold, but the kernel has
    // its sample already.
    Sampler s(1, 0, std::nullopt);
    SampleState k;
    run(s, k, 3);
    EXPECT_EQ(s.decide(k, true), T);
}

// The extra cold sample is one per kernel (sampler.hpp: "at most one extra profiled launch per
// kernel"). IRF_SAMPLES=3: the first function's cold launch is the provisional sample; the same
// kernel's cold launch from a second function (another context) comes before the 3 samples
// are taken and is timed only; the next 3 warm launches are the samples: 1 + 3 = 4 profiled.
TEST(Sampler, ASecondColdLaunchBeforeTheSamplesAreFullIsNotProfiled) {
    Sampler s(3, 0, std::nullopt);
    SampleState k;
    EXPECT_EQ(s.decide(k, true), P);
    EXPECT_EQ(s.decide(k, true), T);
    EXPECT_EQ(run_warm(s, k, 4), (std::vector<LaunchDecision>{P, P, P, T}));
}

TEST(Sampler, ConcurrentThreadsNeverExceedTheSamples) {
    Sampler s(4, 0, std::nullopt);
    SampleState k;
    std::atomic<int> profiled{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 10000; ++i) {
                profiled += s.decide(k, false) == P ? 1 : 0;
            }
        });
    }
    for (std::thread& t : threads) {
        t.join();
    }
    EXPECT_EQ(profiled.load(), 4);
}

constexpr LaunchDecision TT = LaunchDecision::profile_tensor_types;

// A tensor-types request (IRF_TENSOR_TYPES=auto) is taken by the next later launch, once, ahead
// of the kernel's remaining samples, and keeps the kernel unsaturated until then.
// The tensor-types sample comes after the kernel's IRF_SAMPLES and after a duration cluster's
// request: a verdict outweighs the tensor types, and it must not move a verdict sample onto
// another launch (shape) of the kernel.
TEST(Sampler, ATensorTypesRequestWaitsForTheVerdictSamples) {
    Sampler s(2, 0, std::nullopt);
    SampleState k;
    EXPECT_EQ(s.decide(k, true), P); // cold, provisional
    k.tensor_wanted.store(1);
    k.cluster_wanted.store(1);
    EXPECT_EQ(run_warm(s, k, 5), (std::vector<LaunchDecision>{P, P, P, TT, T}));
    EXPECT_TRUE(s.saturated(k));
    k.tensor_wanted.store(1);
    EXPECT_FALSE(s.saturated(k));
    EXPECT_TRUE(Sampler::requested(k));
}

// A first launch never takes it: its time includes module loading.
TEST(Sampler, AColdLaunchLeavesTheTensorTypesRequest) {
    Sampler s(1, 0, std::nullopt);
    SampleState k;
    k.tensor_wanted.store(1);
    EXPECT_EQ(s.decide(k, true), P);
    EXPECT_EQ(k.tensor_wanted.load(), 1);
    EXPECT_EQ(s.decide(k, false), P); // the warm sample first
    EXPECT_EQ(s.decide(k, false), TT);
    EXPECT_EQ(k.tensor_wanted.load(), 0);
}

// IRF_LAUNCH_COUNT caps tensor-types samples like any other.
TEST(Sampler, TheBudgetCapsTheTensorTypesSample) {
    Sampler s(1, 0, std::uint64_t{1});
    SampleState k;
    EXPECT_EQ(s.decide(k, false), P);
    k.tensor_wanted.store(1);
    SkipReason why = SkipReason::none;
    EXPECT_EQ(s.decide(k, false, why), T);
    EXPECT_EQ(why, SkipReason::budget_spent);
}

} // namespace
} // namespace test_sampler
} // namespace irf::intercept

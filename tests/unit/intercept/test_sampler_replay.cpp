// SPDX-License-Identifier: Apache-2.0
// How the sampler has a chosen launch profiled under IRF_REPLAY (issue 55 item 1): kernel
// replay for a first launch, one pass per launch for the later samples, kernel replay again for
// a kernel whose sample by launches was given up; no first-launch sample under `launches`.
#include <gtest/gtest.h>

#include "intercept/sampler.hpp"

namespace irf::intercept {
namespace test_sampler_replay {
namespace {

using config::ReplayMode;

TEST(SamplerReplay, AutoReplaysTheFirstLaunchAndTakesLaterSamplesByLaunches) {
    Sampler s(1, 0, std::nullopt, ReplayMode::automatic);
    SampleState k;
    EXPECT_EQ(s.decide(k, true), LaunchDecision::profile);
    EXPECT_EQ(s.decide(k, false), LaunchDecision::profile_launches);
    EXPECT_EQ(s.decide(k, false), LaunchDecision::time_only);
}

TEST(SamplerReplay, KernelModeReplaysEverySample) {
    Sampler s(2, 0, std::nullopt, ReplayMode::kernel);
    SampleState k;
    EXPECT_EQ(s.decide(k, true), LaunchDecision::profile);
    EXPECT_EQ(s.decide(k, false), LaunchDecision::profile);
    EXPECT_EQ(s.decide(k, false), LaunchDecision::profile);
}

TEST(SamplerReplay, LaunchesModeTakesNoFirstLaunchSampleAndSaysWhy) {
    Sampler s(1, 0, std::nullopt, ReplayMode::launches);
    SampleState k;
    SkipReason why = SkipReason::none;
    EXPECT_EQ(s.decide(k, true, why), LaunchDecision::time_only);
    EXPECT_EQ(why, SkipReason::first_launch);
    EXPECT_FALSE(s.saturated(k)) << "the next launch still takes the sample";
    EXPECT_EQ(s.decide(k, false), LaunchDecision::profile_launches);
}

TEST(SamplerReplay, AGivenUpSampleIsRetriedByKernelReplayWithoutSpendingTheBudgetAgain) {
    Sampler s(1, 0, std::uint64_t{2}, ReplayMode::automatic);
    SampleState k;
    EXPECT_EQ(s.decide(k, false), LaunchDecision::profile_launches); // budget 2 -> 1
    EXPECT_TRUE(s.saturated(k));
    k.kernel_replay = true; // what the collector sets when the sample is given up
    k.retry_wanted = 1;
    EXPECT_FALSE(s.saturated(k));
    EXPECT_EQ(s.decide(k, false), LaunchDecision::profile);
    EXPECT_EQ(s.decide(k, false), LaunchDecision::time_only);
    SampleState other;
    EXPECT_EQ(s.decide(other, false), LaunchDecision::profile_launches) << "one left";
    EXPECT_EQ(s.decide(other, true), LaunchDecision::time_only) << "budget spent";
}

TEST(SamplerReplay, ADeferredSampleIsTakenAgainByLaunches) {
    Sampler s(1, 0, std::nullopt, ReplayMode::automatic);
    SampleState k;
    EXPECT_EQ(s.decide(k, false), LaunchDecision::profile_launches);
    k.retry_wanted = 1; // deferred: a sample of its configuration was still collecting
    EXPECT_EQ(s.decide(k, false), LaunchDecision::profile_launches);
    EXPECT_EQ(s.decide(k, false), LaunchDecision::time_only);
}

} // namespace
} // namespace test_sampler_replay
} // namespace irf::intercept

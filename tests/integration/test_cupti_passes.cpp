// SPDX-License-Identifier: Apache-2.0
// Samples one pass per launch (CUPTI user replay, IRF_REPLAY; issue 55 item 1) through the CUPTI
// backend's seam: a profile_launches launch begins a sample, the configuration's next launches
// (answered time_only) run its other passes on the same profiler, and the merged counters come
// back as the first launch's. Samples of several kernels advance in turn, kernel replays run in
// between, and a refused pass, a configuration that stops recurring, a profiler set up again
// and the end of the run each give a sample up.
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

#include "tests/integration/cupti_pass_fakes.hpp"

namespace irf::intercept::cupti::test {
namespace test_cupti_passes {
namespace {

TEST(CuptiPasses, PassesRunOnTheNextLaunchesAndMergeIntoTheFirstLaunchsSample) {
    PassRig rig;
    rig.launch(1, 0x10, k_launches);
    EXPECT_TRUE(rig.sink.samples.empty()) << "no counters before every pass is in";
    rig.launch(2, 0x10);
    rig.launch(3, 0x10);
    rig.launch(4, 0x10); // after the sample: an ordinary launch
    EXPECT_EQ(rig.script.journal,
              (std::vector<std::string>{"arm", "pass 0", "arm", "pass 1", "arm", "pass 2"}));
    ASSERT_EQ(rig.sink.samples.size(), 1u);
    const CounterSample& s = rig.sink.samples[0];
    EXPECT_EQ(s.correlation_id, 1u);
    EXPECT_TRUE(s.by_launches);
    EXPECT_EQ(s.launches, 3u);
    EXPECT_EQ(s.passes, 3);
    EXPECT_EQ(s.counters.at("inst_warp"), 3); // the image collected 3 passes
    EXPECT_EQ(rig.sink.passes, (std::vector<std::string>{"1 of 1", "2 of 1", "3 of 1"}));
    EXPECT_TRUE(rig.sink.discards.empty());
    EXPECT_EQ(rig.backend.passes(), 3);
}

TEST(CuptiPasses, SamplesOfTwoKernelsAdvanceInTurnEachOnItsOwnImage) {
    PassRig rig;
    rig.launch(1, 0x10, k_launches);
    rig.launch(2, 0x20, k_launches);
    for (std::uint32_t id = 3; id <= 6; ++id) {
        rig.launch(id, id % 2 == 1 ? 0x10 : 0x20);
    }
    ASSERT_EQ(rig.sink.samples.size(), 2u);
    EXPECT_EQ(rig.sink.samples[0].correlation_id, 1u);
    EXPECT_EQ(rig.sink.samples[1].correlation_id, 2u);
    ASSERT_EQ(rig.script.images.size(), 6u);
    EXPECT_NE(rig.script.images[0], rig.script.images[1]);
    EXPECT_EQ(rig.script.images[0], rig.script.images[2]); // kernel 0x10's passes 0 and 1
    EXPECT_EQ(rig.script.images[1], rig.script.images[3]);
}

TEST(CuptiPasses, AKernelReplayBetweenPassesLeavesTheOpenSampleGoing) {
    PassRig rig;
    rig.launch(1, 0x10, k_launches);
    rig.launch(2, 0x20, LaunchDecision::profile); // another kernel, by kernel replay
    rig.launch(3, 0x10);
    rig.launch(4, 0x10);
    ASSERT_EQ(rig.sink.samples.size(), 2u);
    EXPECT_EQ(rig.sink.samples[0].correlation_id, 2u);
    EXPECT_FALSE(rig.sink.samples[0].by_launches);
    EXPECT_EQ(rig.sink.samples[1].correlation_id, 1u);
    EXPECT_EQ(rig.count("replay"), 1);
    EXPECT_EQ(rig.count("teardown"), 0) << "one profiler held both";
}

TEST(CuptiPasses, ARefusedPassGivesTheSampleUpWithoutDecliningTheLaunch) {
    PassRig rig;
    rig.script.refuse_pass = 1;
    rig.launch(1, 0x10, k_launches);
    rig.launch(2, 0x10);
    EXPECT_EQ(rig.sink.abandoned, (std::vector<std::string>{"1 pass_refused"}));
    EXPECT_TRUE(rig.sink.declines.empty()) << "the collector answered time_only for launch 2";
    rig.launch(3, 0x10);
    EXPECT_EQ(rig.count("pass 2"), 0) << "nothing left to continue";
    EXPECT_TRUE(rig.sink.samples.empty());
}

TEST(CuptiPasses, AFirstPassRefusedDeclinesTheLaunchAndGivesTheSampleUp) {
    PassRig rig;
    rig.script.refuse_pass = 0; // as a driver without AutoRange + UserReplay would
    rig.launch(1, 0x10, k_launches);
    EXPECT_EQ(rig.sink.declines, (std::vector<std::uint64_t>{1}));
    EXPECT_EQ(rig.sink.abandoned, (std::vector<std::string>{"1 pass_refused"}));
    rig.launch(2, 0x10);
    EXPECT_EQ(rig.count("pass 1"), 0);
}

TEST(CuptiPasses, AConfigurationThatDoesNotRecurWithinTheBoundIsGivenUp) {
    PassRig rig{3};
    rig.launch(1, 0x10, k_launches);
    for (std::uint32_t id = 2; id <= 6; ++id) {
        rig.launch(id, 0x20); // another function: passes without a look at the samples
    }
    EXPECT_TRUE(rig.sink.abandoned.empty());
    rig.launch(7, 0x10); // 6 launches after its last pass, past the bound of 3: given up
    EXPECT_EQ(rig.sink.abandoned, (std::vector<std::string>{"1 not_recurred"}));
    EXPECT_EQ(rig.count("pass 1"), 0) << "launch 7 is an ordinary one";
}

TEST(CuptiPasses, ASecondSampleOfTheConfigurationWaitsAndTheLaunchRunsTheOpenOnesPass) {
    PassRig rig;
    rig.launch(1, 0x10, k_launches);
    rig.launch(2, 0x10, k_launches);
    EXPECT_EQ(rig.sink.deferred, (std::vector<std::uint64_t>{2}));
    EXPECT_EQ(rig.sink.passes, (std::vector<std::string>{"1 of 1", "2 of 1"}));
    EXPECT_EQ(rig.count("pass 1"), 1);
}

/// Answers every launch profile_launches.
class Begins final : public LaunchSink {
public:
    LaunchDecision on_launch(const LaunchEvent&) noexcept override { return k_launches; }
    void on_counters(const CounterSample&) noexcept override {}
    void on_duration(const DurationRecord&) noexcept override {}
    void on_warning(const std::string&) noexcept override {}
};

TEST(CuptiPasses, ASecondBeginOfAnOpenConfigurationIsAKernelReplay) {
    // Two threads' launches chosen to begin a sample of one configuration before either armed
    // it: the device's sample lock runs them one after the other, and the second finds one open.
    Begins inner;
    std::atomic<std::uint64_t> launches{0};
    PassSink sink;
    sink.attach(&inner, &launches);
    PassScript script;
    PassProfiler profiler(script);
    LaunchEvent event;
    event.function = reinterpret_cast<const void*>(std::uintptr_t{0x1000});
    std::mutex m;
    std::condition_variable cv;
    int step = 0;
    PassSink::Armed second = PassSink::Armed::pass;
    std::thread other([&] {
        LaunchEvent mine = event;
        mine.correlation_id = 7;
        static_cast<void>(sink.on_launch(mine)); // chosen to begin
        std::unique_lock<std::mutex> lock(m);
        step = 1;
        cv.notify_all();
        cv.wait(lock, [&] { return step == 2; });
        second = sink.arm(profiler, 7);
    });
    {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return step == 1; });
    }
    event.correlation_id = 1; // this thread's launch begins it first
    ASSERT_EQ(sink.on_launch(event), k_launches);
    ASSERT_EQ(sink.arm(profiler, 1), PassSink::Armed::pass);
    {
        std::lock_guard<std::mutex> lock(m);
        step = 2;
    }
    cv.notify_all();
    other.join();
    EXPECT_EQ(second, PassSink::Armed::kernel);
    EXPECT_EQ(sink.open_samples(), 1u);
}

TEST(CuptiPasses, ATensorTypesSampleWaitsWhileSamplesByLaunchesHoldTheProfiler) {
    PassRig rig;
    rig.launch(1, 0x10, k_launches);
    rig.launch(2, 0x20, LaunchDecision::profile_tensor_types);
    EXPECT_EQ(rig.sink.deferred, (std::vector<std::uint64_t>{2}));
    EXPECT_EQ(rig.count("teardown"), 0) << "the standard set stays set up";
    rig.launch(3, 0x10);
    rig.launch(4, 0x10);
    ASSERT_EQ(rig.sink.samples.size(), 1u);
    rig.launch(5, 0x20, LaunchDecision::profile_tensor_types); // none open now: it runs
    EXPECT_EQ(rig.count("teardown"), 1);
    EXPECT_EQ(rig.sink.samples.size(), 2u);
}

TEST(CuptiPasses, ASampleWhoseProfilerWasSetUpAgainIsGivenUp) {
    PassRig rig;
    rig.launch(1, 0x10, k_launches, ctx(1));
    rig.launch(2, 0x30, LaunchDecision::profile, ctx(2)); // same device: ctx(1)'s profiler goes
    rig.launch(3, 0x10, LaunchDecision::time_only, ctx(1));
    EXPECT_EQ(rig.sink.abandoned, (std::vector<std::string>{"1 profiler_reset"}));
    EXPECT_EQ(rig.count("pass 1"), 0);
}

TEST(CuptiPasses, FlushGivesUpTheSamplesStillOpen) {
    PassRig rig;
    rig.launch(1, 0x10, k_launches);
    rig.launch(2, 0x10);
    rig.backend.flush();
    EXPECT_EQ(rig.sink.abandoned, (std::vector<std::string>{"1 not_recurred"}));
}

TEST(CuptiPasses, WithoutUserReplayTheLaunchIsAKernelReplay) {
    PassRig rig;
    rig.script.user_replay = false;
    rig.launch(1, 0x10, k_launches);
    ASSERT_EQ(rig.sink.samples.size(), 1u);
    EXPECT_FALSE(rig.sink.samples[0].by_launches);
    EXPECT_EQ(rig.sink.samples[0].correlation_id, 1u);
    rig.launch(2, 0x10);
    EXPECT_EQ(rig.count("replay"), 1) << "launch 2 is not a pass of anything";
}

/// Counts the calls that reach it, one by name.
class CountingSink final : public LaunchSink {
public:
    LaunchDecision on_launch(const LaunchEvent&) noexcept override { return hit("launch"); }
    void on_counters(const CounterSample&) noexcept override { hit("counters"); }
    void on_duration(const DurationRecord&) noexcept override { hit("duration"); }
    void on_warning(const std::string&) noexcept override { hit("warning"); }
    void on_profiler_range(bool) noexcept override { hit("range"); }
    void on_discarded_sample(std::uint64_t, const char*) noexcept override { hit("discarded"); }
    void on_sample_declined(std::uint64_t, const char*) noexcept override { hit("declined"); }
    void on_sample_pass(std::uint64_t, std::uint64_t) noexcept override { hit("pass"); }
    void on_sample_abandoned(std::uint64_t, const char*) noexcept override { hit("abandoned"); }
    void on_sample_deferred(std::uint64_t) noexcept override { hit("deferred"); }
    void on_profiling_off() noexcept override { hit("off"); }
    void on_timing_stopped() noexcept override { hit("stopped"); }
    void on_timing_resumed() noexcept override { hit("resumed"); }
    std::vector<std::string> calls;

private:
    LaunchDecision hit(const char* name) {
        calls.emplace_back(name);
        return LaunchDecision::time_only;
    }
};

TEST(CuptiPasses, ThePassSinkForwardsEveryCallItDoesNotSteer) {
    CountingSink inner;
    std::atomic<std::uint64_t> launches{0};
    PassSink sink;
    sink.attach(&inner, &launches);
    LaunchSink& s = sink;
    s.on_launch(LaunchEvent{});
    s.on_counters(CounterSample{});
    s.on_duration(DurationRecord{});
    s.on_warning("w");
    s.on_profiler_range(true);
    s.on_discarded_sample(1, "r");
    s.on_sample_declined(1, nullptr);
    s.on_sample_pass(1, 1);
    s.on_sample_abandoned(1, "r");
    s.on_sample_deferred(1);
    s.on_profiling_off();
    s.on_timing_stopped();
    s.on_timing_resumed();
    EXPECT_EQ(inner.calls,
              (std::vector<std::string>{"launch", "counters", "duration", "warning", "range",
                                        "discarded", "declined", "pass", "abandoned", "deferred",
                                        "off", "stopped", "resumed"}));
}

TEST(CuptiPasses, ALaunchWithNoSampleOpenTouchesNoProfiler) {
    PassRig rig;
    rig.launch(1, 0x10);
    rig.launch(2, 0x20);
    EXPECT_TRUE(rig.script.journal.empty());
    EXPECT_TRUE(rig.sink.passes.empty());
}

} // namespace
} // namespace test_cupti_passes
} // namespace irf::intercept::cupti::test

// SPDX-License-Identifier: Apache-2.0
// Samples one pass per launch (CUPTI user replay, IRF_REPLAY; issue 55 item 1) through the CUPTI
// backend's seam: a profile_launches launch begins a sample, the configuration's next launches
// (answered time_only) run its other passes on the same profiler, and the merged counters come
// back as the first launch's. Samples of several kernels advance in turn, kernel replays run in
// between, and a refused pass, a configuration that stops recurring, a profiler set up again
// and the end of the run each give a sample up.
#include <deque>

#include <gtest/gtest.h>

#include "tests/integration/cupti_fake_platform.hpp"

namespace irf::intercept::cupti::test {
namespace {

/// What the pass profilers did; shared by every profiler of one platform.
struct PassScript {
    std::vector<std::string> journal; ///< "arm", "pass <n> of <image>", "replay", "teardown"
    int passes = 3;
    bool user_replay = true;         ///< arm_pass is accepted
    int refuse_pass = -1;            ///< Start refuses this pass index
    std::vector<const void*> images; ///< every image armed, in order
};

/// A RangeProfiler whose armed passes behave as CUPTI's user replay is documented to: one pass
/// per Start/Stop, the sample complete at the last; every metric evaluates to its pass count.
class PassProfiler final : public RangeProfiler {
public:
    explicit PassProfiler(PassScript& script) : m_script(script) {}
    ~PassProfiler() override { teardown(); }
    ProfilerStatus setup(CUcontext, CUdevice, const std::string&,
                         const std::vector<std::string>& metrics,
                         std::vector<std::uint8_t>& availability) noexcept override {
        m_metrics = metrics;
        availability = {1};
        m_enabled = true;
        return {};
    }
    ProfilerStatus arm_pass(PassSample& sample) noexcept override {
        if (!m_script.user_replay) {
            return {ProfilerFailure::unsupported, "no user replay"};
        }
        if (!sample.image) {
            sample.image = std::make_shared<std::vector<std::uint8_t>>(8, 0);
        }
        m_armed = &sample;
        m_script.journal.push_back("arm");
        return {};
    }
    ProfilerStatus start() noexcept override {
        if (m_armed == nullptr) {
            m_script.journal.push_back("replay");
            return {};
        }
        m_script.images.push_back(m_armed->image.get());
        m_script.journal.push_back("pass " + std::to_string(m_armed->next_pass));
        if (static_cast<int>(m_armed->next_pass) == m_script.refuse_pass) {
            m_armed = nullptr;
            return {ProfilerFailure::other, "CUPTI_ERROR_INVALID_OPERATION"};
        }
        return {};
    }
    ProfilerStatus stop_and_evaluate(std::vector<double>& values,
                                     RangeReport& report) noexcept override {
        report = {1, 0};
        if (m_armed == nullptr) {
            values.assign(m_metrics.size(), 1);
            set_ctas(values);
            return {};
        }
        ++(*m_armed->image)[0]; // the passes this image collected
        m_armed->next_pass += 1;
        values.clear();
        if (static_cast<int>(m_armed->next_pass) == m_script.passes) {
            m_armed->complete = true;
            values.assign(m_metrics.size(), (*m_armed->image)[0]);
            set_ctas(values);
        }
        m_armed = nullptr;
        return {};
    }
    void teardown() noexcept override {
        if (m_enabled) {
            m_script.journal.push_back("teardown");
            m_enabled = false;
        }
    }
    [[nodiscard]] int passes() const noexcept override { return m_script.passes; }

private:
    void set_ctas(std::vector<double>& values) const {
        for (std::size_t i = 0; i < m_metrics.size(); ++i) {
            if (m_metrics[i] == "sm__ctas_launched.sum") {
                values[i] = 16; // a FakeLaunch's grid: 8 x 2 x 1
            }
        }
    }
    PassScript& m_script;
    std::vector<std::string> m_metrics;
    PassSample* m_armed = nullptr;
    bool m_enabled = false;
};

/// FakePlatform's queries, with PassProfilers.
class PassPlatform final : public ProfilerPlatform {
public:
    PassPlatform(PassScript& script, FakeScript& queries) : m_script(script), m_queries(queries) {}
    ProfilerStatus initialize() noexcept override { return {}; }
    std::string chip(CUdevice) noexcept override { return "GH100"; }
    std::unique_ptr<RangeProfiler> make_profiler() override {
        return std::make_unique<PassProfiler>(m_script);
    }
    bool is_capturing(CUstream, bool) noexcept override { return false; }
    bool stream_id(CUcontext, CUstream, bool, std::uint32_t& id) noexcept override {
        id = 0;
        return true;
    }
    std::uint32_t device_of(CUcontext context) noexcept override {
        const auto it = m_queries.devices.find(context);
        return it != m_queries.devices.end() ? it->second : 0;
    }
    bool subscription_alive(void*) noexcept override { return true; }

private:
    PassScript& m_script;
    FakeScript& m_queries;
};

/// Answers each launch from a queue of decisions (time_only when empty) and records the rest.
class PassRecorder final : public LaunchSink {
public:
    LaunchDecision on_launch(const LaunchEvent&) noexcept override {
        if (answers.empty()) {
            return LaunchDecision::time_only;
        }
        const LaunchDecision d = answers.front();
        answers.pop_front();
        return d;
    }
    void on_counters(const CounterSample& sample) noexcept override { samples.push_back(sample); }
    void on_duration(const DurationRecord&) noexcept override {}
    void on_warning(const std::string& message) noexcept override { warnings.push_back(message); }
    void on_discarded_sample(std::uint64_t id, const char* reason) noexcept override {
        discards.push_back(std::to_string(id) + " " + reason);
    }
    void on_sample_declined(std::uint64_t id, const char*) noexcept override {
        declines.push_back(id);
    }
    void on_sample_pass(std::uint64_t id, std::uint64_t sample_id) noexcept override {
        passes.push_back(std::to_string(id) + " of " + std::to_string(sample_id));
    }
    void on_sample_abandoned(std::uint64_t sample_id, const char* reason) noexcept override {
        abandoned.push_back(std::to_string(sample_id) + " " + reason);
    }
    void on_sample_deferred(std::uint64_t id) noexcept override { deferred.push_back(id); }

    std::deque<LaunchDecision> answers;
    std::vector<CounterSample> samples;
    std::vector<std::string> warnings, discards, passes, abandoned;
    std::vector<std::uint64_t> declines, deferred;
};

/// The CUPTI backend on PassProfilers; `bound` launches for a configuration to recur.
struct PassRig {
    PassScript script;
    FakeScript queries;
    PassRecorder sink;
    CuptiBackend backend{CuptiOptions{}};
    explicit PassRig(std::uint64_t bound = k_recur_bound) {
        SamplingSeam seam;
        seam.platform = std::make_unique<PassPlatform>(script, queries);
        seam.recur_bound = bound;
        backend.set_sampling_seam_for_test(std::move(seam));
        backend.attach_sink_for_test(sink);
    }
    /// Launch `id` of the kernel at `function` (context 1), answered `answer`.
    void launch(std::uint32_t id, std::uintptr_t function,
                LaunchDecision answer = LaunchDecision::time_only, CUcontext context = ctx(1)) {
        sink.answers.push_back(answer);
        FakeLaunch(id, "_Z1kv", context, function).run(backend);
    }
    [[nodiscard]] long count(const std::string& entry) const {
        return std::count(script.journal.begin(), script.journal.end(), entry);
    }
};

constexpr auto k_launches = LaunchDecision::profile_launches;

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
} // namespace irf::intercept::cupti::test

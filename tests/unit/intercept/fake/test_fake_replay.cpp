// SPDX-License-Identifier: Apache-2.0
// Samples one pass per launch (IRF_REPLAY, issue 55 item 1) through the fake backend into the
// real collector: the default for a kernel that recurs, kernel replay for a first launch and
// as the fallback when a configuration stops recurring or a pass is refused, counters merged
// from several launches and marked as such.
#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "intercept/fake/fake_backend.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::intercept {
namespace test_fake_replay {
namespace {

/// Default settings but no call sites (no libunwind: its thread-exit cleanup crashes under TSan).
config::Config settings(config::ReplayMode replay = config::ReplayMode::automatic,
                        int samples = 1) {
    config::Config c;
    c.callstack = 0;
    c.replay = replay;
    c.samples = samples;
    c.tensor_types_auto = false;
    return c;
}

/// A launch of _Z1kv (grid 4, one handle) with counters a..c, `repeat` times, 1000 ns each.
std::string launch(int repeat, int a, int b, int c, const std::string& extra = "") {
    return R"({"kernel": "_Z1kv", "function": 1, "grid": [4, 1, 1], "repeat": )" +
           std::to_string(repeat) + R"(, "duration_ns": 1000, "counters": {"a": )" +
           std::to_string(a) + R"(, "b": )" + std::to_string(b) + R"(, "c": )" + std::to_string(c) +
           R"(, "time_ns": 900})" + extra + "}";
}

/// Another kernel, _Z1lv, launched `repeat` times.
std::string other(int repeat) {
    return R"({"kernel": "_Z1lv", "function": 2, "repeat": )" + std::to_string(repeat) +
           R"(, "duration_ns": 500, "counters": {"a": 7}})";
}

class FakeReplay : public test::TempDirTest {
protected:
    /// Plays a 3-pass script of `launches` (and top-level `extra` keys) into a collector.
    model::Profile play(const std::string& launches, const config::Config& config,
                        const std::string& extra = "") {
        test::write_file(m_tmp / "script.json",
                         R"({"passes": 3, )" + extra + R"("launches": [)" + launches + "]}");
        Collector collector{config};
        std::unique_ptr<Backend> backend = make_fake_backend((m_tmp / "script.json").string());
        EXPECT_TRUE(backend->start(collector));
        collector.stop_recording();
        backend->flush();
        backend->stop();
        model::Profile p;
        collector.fill_profile(p);
        return p;
    }
    /// The record of `name` in `p` (fails the test when absent).
    static const model::KernelRecord& kernel(const model::Profile& p, const std::string& name) {
        for (const model::KernelRecord& k : p.kernels) {
            if (k.mangled == name) {
                return k;
            }
        }
        ADD_FAILURE() << name << " not in the profile";
        static const model::KernelRecord s_none;
        return s_none;
    }
};

TEST_F(FakeReplay, ARecurringKernelIsSampledOnePassPerLaunchByDefault) {
    const model::Profile p = play(launch(10, 1, 2, 3), settings());
    const model::KernelRecord& k = kernel(p, "_Z1kv");
    // Launch 1: the provisional first-launch sample (kernel replay); launches 2-4: passes 0-2
    // of the sample by launches, which is the kernel's one sample.
    EXPECT_EQ(k.profiled_launches, 1u);
    EXPECT_EQ(k.launch_samples, 1u);
    EXPECT_EQ(k.pass_launches, 3u);
    EXPECT_EQ(k.counters.at("a"), 1);
    EXPECT_EQ(k.counters.at("b"), 2);
    EXPECT_EQ(k.counters.at("c"), 3);
    // Launch 1 counts at its sample's own 900 ns (a replay pass is not the launch); launches
    // 2-4 ran once each, under a pass's instrumentation, and count at the mean of launches
    // 5-10 (1000 ns).
    EXPECT_EQ(k.imputed_launches, 3u);
    EXPECT_DOUBLE_EQ(k.time_ns.total, 900 + 3 * 1000 + 6 * 1000);
    EXPECT_DOUBLE_EQ(k.time_ns.mean, 1000);      // launches 5-10 only
    EXPECT_EQ(p.coverage.profiled_launches, 2u); // the first-launch sample and the merged one
}

TEST_F(FakeReplay, KernelModeReplaysTheSampledLaunch) {
    const model::Profile p = play(launch(10, 1, 2, 3), settings(config::ReplayMode::kernel));
    const model::KernelRecord& k = kernel(p, "_Z1kv");
    EXPECT_EQ(k.profiled_launches, 1u);
    EXPECT_EQ(k.launch_samples, 0u);
    EXPECT_EQ(k.imputed_launches, 0u);
    EXPECT_DOUBLE_EQ(k.time_ns.total, 900 + 900 + 8 * 1000); // 1 and 2 at their own 900 ns
}

TEST_F(FakeReplay, EachCounterComesFromTheLaunchThatRanItsPass) {
    // Launches 1-2 count 1s, launches 3-10 count 10s. Counter i (a, b, c, time_ns by name) is
    // read in pass i % 3: a and time_ns on launch 2 (pass 0), b on 3, c on 4.
    const model::Profile p = play(launch(2, 1, 1, 1) + "," + launch(8, 10, 10, 10), settings());
    const model::KernelRecord& k = kernel(p, "_Z1kv");
    EXPECT_EQ(k.counters.at("a"), 1);
    EXPECT_EQ(k.counters.at("b"), 10);
    EXPECT_EQ(k.counters.at("c"), 10);
}

TEST_F(FakeReplay, APassRefusedMidWayFallsBackToKernelReplay) {
    // Launch 2 begins the sample, 3 runs pass 1, 4 refuses pass 2: given up; launch 5 is then
    // sampled again, by kernel replay.
    const model::Profile p =
        play(launch(3, 1, 2, 3) + "," + launch(1, 1, 2, 3, R"(, "refuse_pass": true)") + "," +
                 launch(3, 4, 5, 6),
             settings());
    const model::KernelRecord& k = kernel(p, "_Z1kv");
    EXPECT_EQ(p.coverage.discarded_samples.at("pass_refused"), 1u);
    EXPECT_EQ(k.profiled_launches, 1u);
    EXPECT_EQ(k.launch_samples, 0u);
    EXPECT_EQ(k.counters.at("a"), 4); // launch 5's own counters
}

TEST_F(FakeReplay, AConfigurationThatStopsRecurringIsSampledByKernelReplayWhenItComesBack) {
    // Bound 5 launches: _Z1kv's sample (pass 0 on launch 2) waits through 10 launches of
    // another kernel and is given up; its next launch is then replayed.
    const model::Profile p = play(launch(2, 1, 2, 3) + "," + other(10) + "," + launch(2, 4, 5, 6),
                                  settings(), R"("recur_bound": 5, )");
    const model::KernelRecord& k = kernel(p, "_Z1kv");
    EXPECT_EQ(p.coverage.discarded_samples.at("not_recurred"), 1u);
    EXPECT_EQ(k.profiled_launches, 1u);
    EXPECT_EQ(k.launch_samples, 0u);
    EXPECT_EQ(k.counters.at("a"), 4);
}

TEST_F(FakeReplay, AKernelThatChangesItsLaunchCountBetweenPassesIsDiscarded) {
    // The pass on launch 3 saw two ranges (the kernel launched a second one inside its window).
    const model::Profile p =
        play(launch(2, 1, 2, 3) + "," + launch(1, 1, 2, 3, R"(, "ranges": 2)") + "," +
                 launch(5, 1, 2, 3),
             settings());
    EXPECT_EQ(p.coverage.discarded_samples.at("extra_ranges"), 1u);
    const model::KernelRecord& k = kernel(p, "_Z1kv");
    EXPECT_EQ(k.launch_samples, 0u);
    EXPECT_EQ(k.profiled_launches, 1u); // only the first-launch sample is left
    EXPECT_FALSE(k.notes.empty());
}

/// `repeat` launches of _Z1kv running `ns` each, with counters a = `a` (b, c: a + 1, a + 2).
std::string shaped(int repeat, int ns, int a) {
    return R"({"kernel": "_Z1kv", "function": 1, "grid": [4, 1, 1], "repeat": )" +
           std::to_string(repeat) + R"(, "duration_ns": )" + std::to_string(ns) +
           R"(, "counters": {"a": )" + std::to_string(a) + R"(, "b": )" + std::to_string(a + 1) +
           R"(, "c": )" + std::to_string(a + 2) + R"(, "time_ns": )" + std::to_string(ns) + "}}";
}

TEST_F(FakeReplay, ASampleOfAKernelThatRunsSeveralShapesIsReplacedByAKernelReplay) {
    // One key, two shapes (K differs under the same grid): 1000 ns and 5000 ns launches in
    // turns. The sample's passes ran on launches 2-4; the next four unprofiled launches (5-8)
    // run both shapes, so the merged counters describe no launch and are discarded; a later
    // launch is then sampled by kernel replay (a 5000 ns one: a = 40).
    const model::Profile p = play(shaped(2, 1000, 1) + "," + shaped(3, 5000, 40) + "," +
                                      shaped(3, 1000, 1) + "," + shaped(3, 5000, 40),
                                  settings(), R"("activity": {"early_every": 1}, )");
    const model::KernelRecord& k = kernel(p, "_Z1kv");
    EXPECT_EQ(p.coverage.discarded_samples.at("mixed_shapes"), 1u);
    EXPECT_EQ(k.launch_samples, 0u);
    EXPECT_EQ(k.profiled_launches, 1u);
    EXPECT_EQ(k.counters.at("a"), 40);
}

TEST_F(FakeReplay, PassLaunchesSlowedByTheirInstrumentationStillMakeOneShape) {
    // On the H200 a pass launch ran up to 40x its unprofiled duration (the pass's own
    // instrumentation): launch 3 here. The unprofiled launches all run 1000 ns: one shape, and
    // the sample by launches is kept (it was discarded as mixed_shapes when the pass launches'
    // own durations decided).
    const model::Profile p =
        play(shaped(2, 1000, 1) + "," + shaped(1, 40000, 1) + "," + shaped(8, 1000, 1), settings(),
             R"("activity": {"early_every": 1}, )");
    const model::KernelRecord& k = kernel(p, "_Z1kv");
    EXPECT_TRUE(p.coverage.discarded_samples.empty());
    EXPECT_EQ(k.launch_samples, 1u);
    EXPECT_EQ(k.pass_launches, 3u);
    // the pass launches count at the mean of the unprofiled ones, not at 40 us
    EXPECT_DOUBLE_EQ(k.time_ns.total, 11 * 1000.0);
    EXPECT_EQ(k.imputed_launches, 3u);
}

TEST_F(FakeReplay, ASampleWaitingForUnprofiledLaunchesAtExitIsJudgedOnWhatCame) {
    // The kernel stops after its passes (launches 2-4) and one more launch: the sample is
    // applied at exit on the one unprofiled duration known.
    const model::Profile p = play(launch(5, 1, 2, 3), settings());
    const model::KernelRecord& k = kernel(p, "_Z1kv");
    EXPECT_TRUE(p.coverage.discarded_samples.empty());
    EXPECT_EQ(k.launch_samples, 1u);
}

TEST_F(FakeReplay, LaunchesModeTakesNoFirstLaunchSample) {
    const model::Profile p =
        play(launch(4, 1, 2, 3) + "," + other(1), settings(config::ReplayMode::launches));
    const model::KernelRecord& k = kernel(p, "_Z1kv");
    EXPECT_EQ(k.profiled_launches, 1u);
    EXPECT_EQ(k.launch_samples, 1u);
    EXPECT_DOUBLE_EQ(k.time_ns.total, 4 * 1000); // every launch at its own duration
    const model::KernelRecord& once = kernel(p, "_Z1lv");
    EXPECT_EQ(once.profiled_launches, 0u);
    EXPECT_EQ(once.no_counters, "launched once: IRF_REPLAY=launches");
    EXPECT_EQ(p.coverage.profiled_launches, 1u);
}

TEST_F(FakeReplay, ASecondSampleWaitsForTheFirstToCollectItsPasses) {
    // IRF_SAMPLES=2: launch 3 would begin the second sample while the first (launches 2-4)
    // collects; it runs the first one's pass and the second begins at launch 5 (passes 5-7).
    const model::Profile p = play(launch(9, 1, 2, 3), settings(config::ReplayMode::automatic, 2));
    const model::KernelRecord& k = kernel(p, "_Z1kv");
    EXPECT_EQ(k.profiled_launches, 2u);
    EXPECT_EQ(k.launch_samples, 2u);
    EXPECT_EQ(k.pass_launches, 6u);
    EXPECT_EQ(k.counters.at("a"), 2); // summed over the two samples
    EXPECT_TRUE(p.coverage.discarded_samples.empty());
}

TEST_F(FakeReplay, ASampleStillOpenAtExitIsCountedAsNotRecurred) {
    const model::Profile p = play(launch(3, 1, 2, 3), settings()); // passes 0-1 only
    const model::KernelRecord& k = kernel(p, "_Z1kv");
    EXPECT_EQ(p.coverage.discarded_samples.at("not_recurred"), 1u);
    EXPECT_EQ(k.profiled_launches, 1u); // the provisional first-launch sample stands
    EXPECT_EQ(k.launch_samples, 0u);
}

} // namespace
} // namespace test_fake_replay
} // namespace irf::intercept

// SPDX-License-Identifier: Apache-2.0
// Fault matrix, signals while the application is busy: threads still launching when the signal
// arrives, a signal during the exit-time write, an application that owns SIGINT, and a fake
// backend that cannot start its threads.
#include <chrono>
#include <csignal>
#include <random>

#include <gtest/gtest.h>

#include "tests/integration/fault_support.hpp"

namespace irf::test {
namespace test_fault_signals {
namespace {

class FaultSignals : public TempDirTest {};

/// A profile in `dir` is whole (parses, has the script's kernels) or absent; no temporary.
void expect_whole_or_absent(const std::filesystem::path& dir) {
    EXPECT_TRUE(temporaries_in(dir).empty());
    if (!std::filesystem::exists(dir / "out.json")) {
        return;
    }
    const nlohmann::json p = read_json(dir / "out.json"); // throws (fails) on a torn file
    // A signal that comes before the players' first launch leaves a whole, empty profile.
    const long long launches = p["coverage"]["launches"].get<long long>();
    EXPECT_GE(launches, 0);
    EXPECT_EQ(p["kernels"].empty(), launches == 0);
}

TEST_F(FaultSignals, RandomSignalWhileSixThreadsLaunchFiftyTimes) {
    // Six threads launch without pause (a looping fake script) while SIGTERM, SIGINT or SIGABRT
    // arrives 0-40 ms after initialization. Before the hand-off to a finalizer thread the
    // handler wrote the profile itself, under the launching threads, and died of SIGSEGV.
    const std::vector<std::pair<std::string, int>> signals = {
        {"TERM", SIGTERM}, {"INT", SIGINT}, {"ABRT", SIGABRT}};
    const unsigned seed = std::random_device{}();
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> delay_ms(0, 40);
    int written = 0;
    for (int trial = 0; trial < 50; ++trial) {
        const auto& [name, number] = signals[static_cast<std::size_t>(trial) % signals.size()];
        const int delay = delay_ms(random);
        SCOPED_TRACE("seed " + std::to_string(seed) + ", trial " + std::to_string(trial) + ": SIG" +
                     name + " after " + std::to_string(delay) + " ms");
        const std::filesystem::path dir = m_tmp / std::to_string(trial);
        std::filesystem::create_directories(dir);
        auto env = halting_on_races(fake_run_env(dir));
        env["IRF_BACKEND"] = "fake:" + fake_script("loop_six_threads.json");
        env["IRF_CALLSTACK"] = "0"; // libunwind's thread-exit cache and TSan: see reliability.md
        const auto start = std::chrono::steady_clock::now();
        const ProcessResult r =
            run_fault_harness(env, {"init", "kill-after:" + name + ":" + std::to_string(delay)});
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        EXPECT_FALSE(r.timed_out);
        EXPECT_LT(seconds, 15.0) << "the handler waited for a finalizer that never finished";
        EXPECT_EQ(r.exit_code, -1) << r.err;
        ASSERT_EQ(r.signal, number) << r.err; // its own signal: not SIGSEGV, not a TSan exit
        EXPECT_FALSE(has_sanitizer_report(r.err)) << r.err;
        EXPECT_TRUE(irf_lines_with(r.err, "abandoned").empty()) << r.err;
        expect_whole_or_absent(dir);
        written += std::filesystem::exists(dir / "out.json") ? 1 : 0;
    }
    // Nothing holds the finalizer up, so every trial writes (a deadlock would show as absent).
    EXPECT_EQ(written, 50);
}

TEST_F(FaultSignals, SignalDuringTheExitWriteWaitsForTheWrite) {
    // A profile of 5,000 kernels with long names: its write takes long enough for the harness
    // (which looks every 100 us) to see the temporary and send SIGTERM in the middle, and short
    // enough to end within the 20 s a fatal signal waits for it under a sanitizer on a loaded
    // machine (20,000 kernels took 20-60 s there). Before, the handler found the finalization
    // under way and re-raised at once: no profile, no [irf] line, the temporary left behind.
    constexpr int k_kernels = 5000;
    nlohmann::json launches = nlohmann::json::array();
    const std::string padding(300, 'x');
    for (int k = 0; k < k_kernels; ++k) {
        const std::string name = "kernel_" + std::to_string(k) + "_" + padding;
        launches.push_back({{"kernel", "_Z" + std::to_string(name.size()) + name + "v"},
                            {"duration_ns", 1000},
                            {"counters", {{"inst_warp", 7}}}});
    }
    write_file(m_tmp / "script.json", nlohmann::json{{"launches", launches}}.dump());
    std::filesystem::create_directories(m_tmp / "out");
    auto env = halting_on_races(fake_run_env(m_tmp / "out"));
    env["IRF_BACKEND"] = "fake:" + (m_tmp / "script.json").string();
    env["IRF_CALLSTACK"] = "0";
    // 20,000 kernels took 25 s under TSan on an idle CI machine: 240 s before a kill.
    const ProcessResult r =
        run_fault_harness(env, {"init", "kill-on-temporary:TERM", "return:0"}, "", 240);
    ASSERT_NE(r.out.find("temporary seen"), std::string::npos)
        << "the signal did not arrive during the write: " << r.err;
    EXPECT_EQ(r.signal, SIGTERM) << r.err;
    EXPECT_FALSE(has_sanitizer_report(r.err)) << r.err;
    EXPECT_TRUE(temporaries_in(m_tmp / "out").empty());
    EXPECT_EQ(irf_lines_with(r.err, "profile written to").size(), 1u) << r.err;
    ASSERT_TRUE(std::filesystem::exists(m_tmp / "out" / "out.json"));
    EXPECT_EQ(read_json(m_tmp / "out" / "out.json")["coverage"]["launches"], k_kernels);
}

TEST_F(FaultSignals, AFlushThatNeverReturnsDoesNotCostTheProfile) {
    // On an H200, SIGTERM stopped irf-hz-loop inside a launch and the finalizer's flush waited
    // for the driver's locks: 20 s, then "profile abandoned". The fake's flush now never
    // returns; after 5 s the profile is written without it (launches counted, no durations,
    // one warning) and the process dies of its signal.
    write_file(m_tmp / "script.json",
               R"({"loop": true, "flush_hangs": true,
                   "launches": [{"kernel": "_Z4spinv", "thread": 1, "duration_ns": 1000}]})");
    auto env = halting_on_races(fake_run_env(m_tmp.path()));
    env["IRF_BACKEND"] = "fake:" + (m_tmp / "script.json").string();
    env["IRF_CALLSTACK"] = "0";
    const auto start = std::chrono::steady_clock::now();
    const ProcessResult r = run_fault_harness(env, {"init", "kill-after:TERM:100"});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.signal, SIGTERM) << r.err;
    EXPECT_FALSE(has_sanitizer_report(r.err)) << r.err;
    EXPECT_TRUE(irf_lines_with(r.err, "abandoned").empty()) << r.err;
    EXPECT_GE(seconds, 5.0);
    EXPECT_LT(seconds, 15.0);
    ASSERT_TRUE(std::filesystem::exists(m_tmp / "out.json")) << r.err;
    const nlohmann::json p = read_json(m_tmp / "out.json");
    EXPECT_GT(p["coverage"]["launches"].get<long long>(), 0);
    EXPECT_NE(p.dump().find("did not return within 5 s"), std::string::npos);
}

TEST_F(FaultSignals, SignalOnASmallStackIsHandedOffToTheFinalizerThread) {
    // The handler runs on whichever thread the signal picks: here one with a 48 KiB stack. It
    // only wakes irf's finalizer thread (its own 8 MiB stack) and waits, so the profile is
    // written there and the process dies of SIGTERM. A handler that finalized on the signalled
    // thread itself (the model, JSON and file writes: the hand-off removed) overflows that stack
    // and dies of SIGSEGV with nothing written (scripts/mutate.py, no-signal-hand-off). Measured
    // in the plain build: the handler runs on 16 KiB; finalizing inline needs 80 to 96 KiB.
    const ProcessResult r = run_fault_harness(halting_on_races(fake_run_env(m_tmp.path())),
                                              {"init", "kill-small-stack:TERM:49152"});
    EXPECT_EQ(r.signal, SIGTERM) << r.err;
    EXPECT_FALSE(has_sanitizer_report(r.err)) << r.err;
    ASSERT_TRUE(std::filesystem::exists(m_tmp / "out.json")) << r.err;
    EXPECT_EQ(read_json(m_tmp / "out.json")["coverage"]["launches"], 14);
}

TEST_F(FaultSignals, ApplicationsOwnSigintHandlerIsNotReplaced) {
    // Python and Jupyter turn Ctrl-C into KeyboardInterrupt: irf must not put a handler in
    // front of theirs (before, irf wrote the profile from the signal, then chained).
    const ProcessResult r = run_fault_harness(
        halting_on_races(fake_run_env(m_tmp.path())),
        {"handler:INT:43", "init", "disposition:INT", "disposition:TERM", "kill:INT"});
    EXPECT_EQ(r.exit_code, 43) << r.err;
    EXPECT_NE(r.out.find("application handler ran"), std::string::npos);
    // Positive control: irf was active (SIGTERM is its) and left the application's SIGINT alone.
    EXPECT_NE(r.out.find("SIGINT: application's handler"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("SIGTERM: another handler"), std::string::npos) << r.out;
    EXPECT_TRUE(files_in(m_tmp.path()).empty()) << "irf's handler ran for the application's";
}

TEST_F(FaultSignals, FakeBackendThatCannotCreateAThreadSaysSoInOneLine) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    // glibc sizes a new thread's stack from RLIMIT_STACK: a soft limit of 1 TiB makes every
    // std::thread fail (irf's own finalizer thread sets its stack size and still starts).
    // Before, the half-built vector of threads was destroyed joinable: std::terminate.
    auto env = fake_run_env(m_tmp.path());
    env["IRF_BACKEND"] = "fake:" + fake_script("threads.json");
    RunOptions options = isolated_run_options(env);
    const ProcessResult r =
        run_process({"/bin/sh", "-c", "ulimit -S -s 1073741824 && exec \"$0\" \"$1\" return:4",
                     IRF_FAULT_HARNESS_BIN, IRF_LIBIRF},
                    options);
    EXPECT_EQ(r.signal, 0) << r.err;
    EXPECT_EQ(r.exit_code, 4) << r.err;
    EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << r.err;
    const auto lines = irf_lines_with(r.err, "fake backend: cannot create a player thread");
    EXPECT_EQ(lines.size(), 1u) << r.err;
    EXPECT_TRUE(files_in(m_tmp.path()).empty()) << "the backend did not start: nothing written";
}

} // namespace
} // namespace test_fault_signals
} // namespace irf::test

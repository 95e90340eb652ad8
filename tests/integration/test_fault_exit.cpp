// SPDX-License-Identifier: Apache-2.0
// Fault matrix, abnormal ends: every way an application can end, with the profile written where
// the process still runs code (exit, return, SIGTERM, SIGINT, abort) and the original exit
// status or signal preserved for the parent.
#include <csignal>
#include <cstdlib>

#include <gtest/gtest.h>

#include "tests/integration/fault_support.hpp"

namespace irf::test {
namespace test_fault_exit {
namespace {

class FaultExit : public TempDirTest {
protected:
    /// Runs the harness; a sanitizer report on the way fails the test.
    ProcessResult run(const std::vector<std::string>& modes) {
        ProcessResult r = run_fault_harness(halting_on_races(fake_run_env(m_tmp.path())), modes);
        EXPECT_FALSE(has_sanitizer_report(r.err)) << r.err;
        return r;
    }
    /// The profile is there, whole, with every launch of the script.
    void expect_profile() {
        ASSERT_TRUE(std::filesystem::exists(m_tmp / "out.json"));
        EXPECT_EQ(read_json(m_tmp / "out.json")["coverage"]["launches"], 14);
        EXPECT_TRUE(temporaries_in(m_tmp.path()).empty());
    }
    /// Nothing at all (not even a temporary) was written.
    void expect_nothing() { EXPECT_TRUE(files_in(m_tmp.path()).empty()); }
};

TEST_F(FaultExit, ReturnFromMain) {
    const ProcessResult r = run({"return:9"});
    EXPECT_EQ(r.exit_code, 9);
    expect_profile();
}

TEST_F(FaultExit, ExitFromAWorkerThread) {
    const ProcessResult r = run({"exit-thread:4"});
    EXPECT_EQ(r.exit_code, 4) << r.err;
    expect_profile();
}

TEST_F(FaultExit, UnderscoreExitSkipsFinalizationButKeepsTheStatus) {
    // _exit runs no handlers at all: nothing can be written, and nothing half-written is left.
    // Positive control: irf was active (its SIGTERM handler is in place), so "nothing" is irf
    // skipped by _exit, not irf absent.
    const ProcessResult r = run({"init", "disposition:TERM", "_exit:6"});
    EXPECT_EQ(r.exit_code, 6);
    EXPECT_NE(r.out.find("SIGTERM: another handler"), std::string::npos) << r.out;
    expect_nothing();
}

TEST_F(FaultExit, QuickExitWritesAndKeepsTheStatus) {
    const ProcessResult r = run({"quick_exit:8"});
    EXPECT_EQ(r.exit_code, 8);
    EXPECT_EQ(r.signal, 0);
    expect_profile(); // at_quick_exit finalization
}

TEST_F(FaultExit, SigtermFromAnotherThreadWritesAndDiesOfSigterm) {
    const ProcessResult r = run({"kill:TERM"});
    EXPECT_EQ(r.exit_code, -1);
    EXPECT_EQ(r.signal, SIGTERM) << r.err;
    expect_profile();
}

TEST_F(FaultExit, SigintFromAnotherThreadWritesAndDiesOfSigint) {
    const ProcessResult r = run({"kill:INT"});
    EXPECT_EQ(r.signal, SIGINT) << r.err;
    expect_profile();
}

TEST_F(FaultExit, AbortWritesAndDiesOfSigabrt) {
    const ProcessResult r = run({"abort"});
    EXPECT_EQ(r.signal, SIGABRT) << r.err;
    expect_profile();
}

TEST_F(FaultExit, SegfaultDiesOfSigsegvLeavingNoHalfFile) {
    // irf does not catch SIGSEGV (the process state is unknown): the crash is the application's.
    auto env = fake_run_env(m_tmp.path());
    for (const char* name : {"ASAN_OPTIONS", "TSAN_OPTIONS"}) { // sanitizer builds: no handler
        const char* outer = std::getenv(name);
        env[name] = std::string(outer != nullptr ? outer : "") + ":handle_segv=0";
    }
    const ProcessResult r =
        run_fault_harness(env, {"init", "disposition:TERM", "disposition:SEGV", "segv"});
    EXPECT_EQ(r.signal, SIGSEGV) << r.err;
    // Positive control: irf was active (SIGTERM is its) and left SIGSEGV alone.
    EXPECT_NE(r.out.find("SIGTERM: another handler"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("SIGSEGV: default"), std::string::npos) << r.out;
    expect_nothing();
}

TEST_F(FaultExit, ApplicationHandlerInstalledBeforeIrfStillRuns) {
    // irf installs no handler over the application's (issue 51 A5): the handler runs at once
    // and decides; this one _exits, so nothing is written. Before: irf finalized first (up to
    // 20 s of the application's shutdown window), then restored the handler and re-raised.
    const ProcessResult r =
        run({"handler:TERM:42", "init", "disposition:TERM", "disposition:INT", "kill:TERM"});
    EXPECT_EQ(r.exit_code, 42) << r.err;
    EXPECT_NE(r.out.find("SIGTERM: application's handler"), std::string::npos) << r.out;
    // Positive control: irf was active (SIGINT, which the application does not handle, is its).
    EXPECT_NE(r.out.find("SIGINT: another handler"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("application handler ran"), std::string::npos);
    expect_nothing();
}

TEST_F(FaultExit, ApplicationsGracefulShutdownHandlerRunsAtOnceAndTheExitWrites) {
    // A SIGTERM handler installed before cuInit that checkpoints and lets main return (Slurm
    // requeue, a server's graceful shutdown): it runs at once, with irf not in the way, and
    // the profile is written at the normal exit that follows (issue 51 A5).
    const ProcessResult r =
        run({"handler-return:TERM", "init", "disposition:TERM", "raise:TERM", "return:0"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.signal, 0);
    EXPECT_NE(r.out.find("SIGTERM: application's handler"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("application handler ran and returned"), std::string::npos);
    expect_profile();
}

TEST_F(FaultExit, ApplicationHandlerInstalledAfterIrfWins) {
    // The application replaced irf's handler: its own _exit ends the process unprofiled, and
    // irf does not interfere with the status. Positive control: irf's handler was there first.
    const ProcessResult r = run({"init", "disposition:INT", "handler:INT:43", "kill:INT"});
    EXPECT_EQ(r.exit_code, 43) << r.err;
    EXPECT_NE(r.out.find("SIGINT: another handler"), std::string::npos) << r.out;
    expect_nothing();
}

TEST_F(FaultExit, IgnoredSignalStaysIgnored) {
    // SIGTERM ignored before irf starts (nohup-like): irf leaves it ignored; the process
    // survives the signal and writes its profile at its normal exit.
    const ProcessResult r = run({"ignore:TERM", "init", "raise:TERM", "return:0"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.signal, 0);
    expect_profile();
}

TEST_F(FaultExit, SignalAfterFinalizationDoesNotWriteTwice) {
    // The application's atexit handler (registered before irf's, so it runs after it) raises
    // SIGTERM: irf has already written, does nothing more, and the signal still kills.
    const ProcessResult r = run({"atexit-raise:TERM", "init", "return:0"});
    EXPECT_EQ(r.signal, SIGTERM) << r.err;
    EXPECT_EQ(irf_lines_with(r.err, "profile written to").size(), 1u) << r.err;
    expect_profile();
}

} // namespace
} // namespace test_fault_exit
} // namespace irf::test

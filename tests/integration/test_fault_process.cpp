// SPDX-License-Identifier: Apache-2.0
// Fault matrix, processes: fork without exec, fork+exec, many host threads launching at once
// (no launch lost or counted twice; the tsan build runs this under ThreadSanitizer).
#include <gtest/gtest.h>

#include "tests/integration/fault_support.hpp"

namespace irf::test {
namespace test_fault_process {
namespace {

/// How often `needle` occurs in `text`.
std::size_t count_of(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = text.find(needle); at != std::string::npos;
         at = text.find(needle, at + 1)) {
        ++n;
    }
    return n;
}

class FaultProcess : public TempDirTest {
protected:
    /// Profiles in the temporary directory by pid.
    std::map<long long, nlohmann::json> profiles_by_pid() {
        std::map<long long, nlohmann::json> out;
        for (const std::string& f : files_in(m_tmp.path())) {
            const nlohmann::json p = read_json(m_tmp / f);
            out[p["pid"].get<long long>()] = p;
        }
        return out;
    }
};

TEST_F(FaultProcess, ForkWithoutExecChildThatLaunchedNothingWritesNothing) {
    // Issue 52 item 2: a forked worker that used no GPU (a data loader) left an empty profile.
    const ProcessResult r = run_fault_harness(fake_run_env(m_tmp.path(), "out-%p"), {"fork"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto profiles = profiles_by_pid();
    ASSERT_EQ(profiles.size(), 1u) << r.err;
    EXPECT_EQ(profiles.begin()->second["coverage"]["launches"], 14); // the parent's
    EXPECT_EQ(count_of(r.err, "profile written to"), 1u) << r.err;
}

TEST_F(FaultProcess, AChildExitingAfterItsParentLeavesTheParentsProfile) {
    // `irf run -o NAME` (no %p): the orphaned child exits last and replaced the parent's file
    // with an empty one, while the parent's line said it was written (issue 52 item 2).
    const ProcessResult r = run_fault_harness(fake_run_env(m_tmp.path()), {"fork-orphan"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_NE(r.out.find("child "), std::string::npos) << r.out; // it did fork
    EXPECT_EQ(files_in(m_tmp.path()), (std::vector<std::string>{"out.json"}));
    EXPECT_EQ(read_json(m_tmp / "out.json")["coverage"]["launches"], 14);
    EXPECT_EQ(count_of(r.err, "profile written to"), 1u) << r.err;
}

TEST_F(FaultProcess, ForkWithOneStemParentWritesLast) {
    // Without %p both write out.json; the parent waits for the child, so the file that stays
    // is the parent's (not clobbered by the child's empty one).
    const ProcessResult r = run_fault_harness(fake_run_env(m_tmp.path()), {"fork"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(files_in(m_tmp.path()), (std::vector<std::string>{"out.json"}));
    EXPECT_EQ(read_json(m_tmp / "out.json")["coverage"]["launches"], 14);
}

TEST_F(FaultProcess, ForkExecChildIsANewProfiledProcess) {
    const ProcessResult r =
        run_fault_harness(fake_run_env(m_tmp.path(), "out-%p"), {"fork-exec", "return:0"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("exited 0"), std::string::npos) << r.out;
    const auto profiles = profiles_by_pid();
    ASSERT_EQ(profiles.size(), 2u) << r.err;
    for (const auto& entry : profiles) {
        EXPECT_EQ(entry.second["coverage"]["launches"], 14); // each replayed the whole script
    }
}

/// A script of `threads` threads, each launching a shared kernel 300 times and its own 100.
std::string many_threads_script(int threads) {
    nlohmann::json launches = nlohmann::json::array();
    for (int t = 1; t <= threads; ++t) {
        launches.push_back({{"kernel", "_Z6sharedv"},
                            {"thread", t},
                            {"repeat", 300},
                            {"duration_ns", 1000},
                            {"counters", {{"inst_warp", 7}}}});
        const std::string own = (t < 10 ? "0" : "") + std::to_string(t); // own01() ... own32()
        launches.push_back({{"kernel", "_Z5own" + own + "v"},
                            {"thread", t},
                            {"repeat", 100},
                            {"duration_ns", 2000}});
    }
    return nlohmann::json{{"launches", launches}}.dump();
}

TEST_F(FaultProcess, ManyThreadsLaunchingConcurrentlyLoseNothing) {
    const int threads = 32;
    write_file(m_tmp / "script.json", many_threads_script(threads));
    std::filesystem::create_directories(m_tmp / "out");
    auto env = fake_run_env(m_tmp / "out");
    env["IRF_BACKEND"] = "fake:" + (m_tmp / "script.json").string();
    // No call stacks: libunwind's thread-exit cache destructor crashes under ThreadSanitizer.
    env["IRF_CALLSTACK"] = "0";
    const ProcessResult r = run_fault_harness(env);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json p = read_json(m_tmp / "out" / "out.json");
    // 32 threads x (300 + 100) launches = 12800.
    EXPECT_EQ(p["coverage"]["launches"], threads * 400);
    EXPECT_EQ(p["coverage"]["kernels"], threads + 1);
    const nlohmann::json shared = kernel_named(p, "shared()");
    ASSERT_FALSE(shared.is_null());
    EXPECT_EQ(shared["launches"], threads * 300);
    // Every duration attributed once: 9600 launches x 1000 ns; the 2 that ran under replay (the
    // provisional first-launch sample and the sample) count at the unprofiled mean, 1000 ns.
    EXPECT_EQ(shared["time_ns"]["total"], threads * 300 * 1000);
    // Profiled once (the provisional first-launch sample is dropped for the later one).
    EXPECT_EQ(shared["profiled_launches"], 1);
    EXPECT_EQ(shared["counters"]["inst_warp"], 7);
    long long own_total = 0;
    for (const auto& k : p["kernels"]) {
        if (k["name"].get<std::string>().rfind("own", 0) == 0) {
            EXPECT_EQ(k["launches"], 100);
            own_total += k["time_ns"]["total"].get<long long>();
        }
    }
    // Each own kernel: 100 launches x 2000 ns, 2 of them replayed (counted at the mean).
    EXPECT_EQ(own_total, threads * 100 * 2000LL);
}

} // namespace
} // namespace test_fault_process
} // namespace irf::test

namespace irf::test {
namespace test_fault_process {
namespace {

// Issue 52 item 10: an application that reopened fd 2 on a data file got irf's summary and
// closing line appended to its data. Now irf writes nothing to a stderr that is no longer the
// file it was at start, and says so in the profile.
TEST(FaultStderr, ARedirectedStderrGetsNothingFromIrf) {
    TempDir dir;
    const std::string data = (dir.path() / "data.txt").string();
    const ProcessResult r =
        run_fault_harness(fake_run_env(dir.path(), "out"), {"init", "stderr-to:" + data});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(data), "data\n");
    const nlohmann::json p = read_json(dir.path() / "out.json");
    EXPECT_NE(p["warnings"].dump().find("stderr was reopened on another file"), std::string::npos)
        << p["warnings"].dump();
    EXPECT_EQ(p["coverage"]["launches"], 14);
}

} // namespace
} // namespace test_fault_process
} // namespace irf::test

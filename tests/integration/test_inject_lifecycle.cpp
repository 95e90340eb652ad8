// SPDX-License-Identifier: Apache-2.0
// libirf.so lifecycle through the harness: output naming (pid, rank, job, env placeholders),
// fork, fatal signals, repeated initialization, and the CUPTI backend without a GPU.
#include <csignal>
#include <map>

#include <gtest/gtest.h>

#include "tests/integration/harness_support.hpp"

namespace irf::test {
namespace test_inject_lifecycle {
namespace {

class InjectLifecycle : public TempDirTest {
protected:
    std::map<std::string, std::string> fake_env(const std::string& stem) const {
        return {{"IRF_BACKEND", "fake:" + fake_script("basic.json")},
                {"IRF_OUTPUT", (m_tmp / stem).string()},
                {"IRF_SUMMARY", "none"}};
    }
};

TEST_F(InjectLifecycle, OpenMpiRankIsAppendedToAStemWithoutR) {
    auto env = fake_env("out");
    env["OMPI_COMM_WORLD_RANK"] = "3";
    const ProcessResult r = run_harness(env);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(files_in(m_tmp.path()), (std::vector<std::string>{"out-r3.json"}));
    EXPECT_EQ(read_json(m_tmp / "out-r3.json")["rank"], 3);
}

TEST_F(InjectLifecycle, SlurmRankJobAndEnvPlaceholders) {
    auto env = fake_env("%q{IRF_TEST_TAG}-j%j-rank%r-%%");
    env["SLURM_PROCID"] = "2";
    env["SLURM_JOB_ID"] = "4711";
    env["IRF_TEST_TAG"] = "tag";
    const ProcessResult r = run_harness(env);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(files_in(m_tmp.path()), (std::vector<std::string>{"tag-j4711-rank2-%.json"}));
}

TEST_F(InjectLifecycle, DefaultStemNamesAppHostAndPid) {
    auto env = fake_env("x");
    env.erase("IRF_OUTPUT");
    const ProcessResult r = [&] {
        // The default stem is relative: run the harness inside the temporary directory.
        std::vector<std::string> argv = {IRF_HARNESS_BIN, IRF_LIBIRF};
        RunOptions o;
        o.env = env;
        o.unset = {"IRF_OUTPUT", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                   "PMIX_RANK",  "SLURM_PROCID",         "MV2_COMM_WORLD_RANK"};
        o.cwd = m_tmp.path().string();
        return run_process(argv, o);
    }();
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<std::string> files = files_in(m_tmp.path());
    ASSERT_EQ(files.size(), 1u);
    const nlohmann::json p = read_json(m_tmp / files[0]);
    const std::string expected = "irf-irf_harness-" + p["host"].get<std::string>() + "-" +
                                 std::to_string(p["pid"].get<long long>()) + ".json";
    EXPECT_EQ(files[0], expected);
    EXPECT_EQ(p["app"], "irf_harness");
    EXPECT_EQ(p["argv"][1], IRF_LIBIRF);
}

TEST_F(InjectLifecycle, ForkedChildThatLaunchedNothingWritesNothing) {
    // Issue 52 item 2: the child starts clean and launched nothing itself, so only the parent's
    // profile is written (test_fault_process.cpp has the child that did launch).
    const ProcessResult r = run_harness(fake_env("out-%p"), {"fork"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<std::string> files = files_in(m_tmp.path());
    ASSERT_EQ(files.size(), 1u) << r.err;
    const nlohmann::json p = read_json(m_tmp / files[0]);
    EXPECT_EQ(files[0], "out-" + std::to_string(p["pid"].get<long long>()) + ".json");
    EXPECT_EQ(p["coverage"]["launches"], 14);
}

TEST_F(InjectLifecycle, FatalSignalWritesThenReRaises) {
    const std::map<std::string, int> signals = {
        {"TERM", SIGTERM}, {"INT", SIGINT}, {"ABRT", SIGABRT}};
    for (const auto& [sig, number] : signals) {
        const ProcessResult r = run_harness(fake_env("out-" + sig), {"raise:" + sig});
        EXPECT_EQ(r.exit_code, -1) << sig;
        EXPECT_EQ(r.signal, number) << sig << ": the process dies of the signal it got";
        EXPECT_EQ(read_json(m_tmp / ("out-" + sig + ".json"))["coverage"]["launches"], 14);
    }
}

TEST_F(InjectLifecycle, SecondInitializationIsANoOp) {
    const ProcessResult r = run_harness(fake_env("out"), {"init-again"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("init-again: 1"), std::string::npos);
    EXPECT_EQ(read_json(m_tmp / "out.json")["coverage"]["launches"], 14);
}

TEST_F(InjectLifecycle, ExitCodeIsTheApplications) {
    const ProcessResult r = run_harness(fake_env("out"), {"exit:7"});
    EXPECT_EQ(r.exit_code, 7);
    EXPECT_EQ(read_json(m_tmp / "out.json")["coverage"]["launches"], 14);
}

TEST_F(InjectLifecycle, CuptiBackendWithoutGpuIsOneCleanLine) {
    for (const std::map<std::string, std::string>& env :
         {std::map<std::string, std::string>{{"IRF_BACKEND", "cupti"}},
          std::map<std::string, std::string>{}}) {
        auto with_output = env;
        with_output["IRF_OUTPUT"] = (m_tmp / "out").string();
        const ProcessResult r = run_harness(with_output);
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(r.signal, 0) << r.err;
        EXPECT_EQ(irf_lines(r.err).size(), 1u) << r.err;
        if (!std::filesystem::exists("/dev/nvidiactl")) {
            EXPECT_TRUE(files_in(m_tmp.path()).empty()); // nothing was measured
        }
    }
}

} // namespace
} // namespace test_inject_lifecycle
} // namespace irf::test

// SPDX-License-Identifier: Apache-2.0
// libirf.so end to end through IRF_* only: the harness loads it with IRF_BACKEND=fake:SCRIPT and
// the tests read the written profile (launch counts, sampling, filters, skip/count, naming).
#include <gtest/gtest.h>

#include "model/profile/profile_json.hpp"
#include "tests/integration/harness_support.hpp"

namespace irf::test {
namespace test_inject_fake {
namespace {

class InjectFake : public TempDirTest {
protected:
    /// Runs basic.json (or `script`) with output stem <tmp>/out plus `env`; expects success.
    nlohmann::json run_basic(std::map<std::string, std::string> env = {},
                             const std::string& script = "basic.json") {
        env.emplace("IRF_BACKEND", "fake:" + fake_script(script));
        env.emplace("IRF_OUTPUT", (m_tmp / "out").string());
        env.emplace("IRF_SUMMARY", "file");
        m_result = run_harness(env);
        EXPECT_EQ(m_result.exit_code, 0) << m_result.err;
        return read_json(m_tmp / "out.json");
    }
    ProcessResult m_result;
};

// basic.json's axpy runs 5x apart durations (5000, 1000, 2000 in turn): its samples are kernel
// replays here, whose accounting this test checks (IRF_REPLAY=auto would read the spread as
// several shapes and give its sample by launches up; ASteadyKernelIsSampledOnePassPerLaunch).
TEST_F(InjectFake, CountsEveryLaunchAndSamplesOncePerKernel) {
    const nlohmann::json p = run_basic({{"IRF_REPLAY", "kernel"}});
    EXPECT_EQ(p["schema"], "irf.profile/v1");
    EXPECT_EQ(p["coverage"]["launches"], 14);
    EXPECT_EQ(p["coverage"]["kernels"], 3);
    // axpy: provisional first-launch sample + launch 2; transpose: its only launch.
    EXPECT_EQ(p["coverage"]["profiled_launches"], 3);
    EXPECT_EQ(p["coverage"]["passes"], 3);
    const nlohmann::json axpy = kernel_named(p, "axpy(");
    ASSERT_FALSE(axpy.is_null());
    EXPECT_EQ(axpy["name"], "axpy(float, float const*, float*)");
    EXPECT_EQ(axpy["mangled"], "_Z4axpyfPKfPf");
    EXPECT_EQ(axpy["launches"], 10);
    EXPECT_EQ(axpy["profiled_launches"], 1);
    EXPECT_EQ(axpy["counters"]["inst_warp"], 100); // the first-launch sample is dropped
    EXPECT_EQ(axpy["counters"]["clock_hz"], 1980000000.0);
    // durations cycle 5000,1000,2000 over 10 launches: 4x5000 + 3x1000 + 3x2000 = 29000. The
    // two profiled launches (the first, 5000, and the second, 1000) ran under replay: they count
    // at their own duration, the sample's time_ns (1500 each), leaving 29000 - 5000 - 1000 =
    // 23000 from the 8 others: total 23000 + 2 x 1500 = 26000. Min/mean/max are those 8
    // unprofiled launches' (2000,5000,1000,2000,5000,1000,2000,5000): 23000 / 8 = 2875; the
    // first launch (1500) is time_ns.first.
    EXPECT_EQ(axpy["time_ns"]["total"], 26000);
    EXPECT_EQ(axpy["time_ns"]["min"], 1000);
    EXPECT_EQ(axpy["time_ns"]["max"], 5000);
    EXPECT_NEAR(axpy["time_ns"]["mean"].get<double>(), 2875.0, 1e-6);
    EXPECT_EQ(axpy["time_ns"]["first"], 1500);
    EXPECT_FALSE(axpy["time_ns"].contains("imputed"));
    EXPECT_EQ(axpy["launch"]["grid"], nlohmann::json::array({1024, 1, 1}));
    EXPECT_EQ(axpy["launch"]["regs"], 16);
    // Sorted by total time: axpy 29000, nccl 9000, transpose 7000.
    EXPECT_EQ(p["kernels"][0]["mangled"], "_Z4axpyfPKfPf");
    EXPECT_EQ(p["kernels"][2]["mangled"], "_Z9transposePfPKf");
}

// Issue 55 item 1, IRF_REPLAY=auto: replay.json's gemm runs 8 launches of one shape (3 passes).
// Launch 1 is replayed (it might be the only one); the sample runs one pass on each of launches
// 2-4 and is marked so; launch 1 counts at its sample's time_ns, launches 2-4 (under their
// passes' instrumentation) at the mean of launches 5-8. The kernel launched once keeps its
// replayed first-launch sample.
TEST_F(InjectFake, ASteadyKernelIsSampledOnePassPerLaunch) {
    const nlohmann::json p = run_basic({{"IRF_REPLAY", "auto"}}, "replay.json");
    EXPECT_EQ(p["config"]["IRF_REPLAY"], "auto");
    const nlohmann::json gemm = kernel_named(p, "gemm(");
    ASSERT_FALSE(gemm.is_null());
    EXPECT_EQ(gemm["profiled_launches"], 1);
    EXPECT_EQ(gemm["replay"],
              nlohmann::json({{"kernel", 0}, {"launches", 1}, {"pass_launches", 3}}));
    EXPECT_EQ(gemm["counters"]["inst_warp"], 5000);
    EXPECT_EQ(gemm["time_ns"]["total"], 9500 + 7 * 10000);
    EXPECT_EQ(gemm["time_ns"]["imputed"], 3);
    EXPECT_NE(gemm["notes"].dump().find("one pass per launch over 3 launches"), std::string::npos)
        << gemm["notes"].dump();
    const nlohmann::json once = kernel_named(p, "setup(");
    EXPECT_EQ(once["profiled_launches"], 1);
    EXPECT_FALSE(once.contains("replay"));
    EXPECT_EQ(p["coverage"]["profiled_launches"], 3); // gemm's two samples, setup's one
    EXPECT_FALSE(p["coverage"].contains("discarded_samples"));

    const nlohmann::json kernel =
        kernel_named(run_basic({{"IRF_REPLAY", "kernel"}}, "replay.json"), "gemm(");
    EXPECT_FALSE(kernel.contains("replay"));
    EXPECT_EQ(kernel["time_ns"]["total"], 2 * 9500 + 6 * 10000); // launch 2 replayed too
}

// Issue 55 item 5, IRF_TIMING=sampled:1:2 on basic.json (IRF_REPLAY=kernel). axpy's launches 1-2
// are profiled (own 1500 each); its unprofiled launches 3-10 (2000 5000 1000 2000 5000 1000 2000
// 5000) are timed 1st, then every 2nd: launches 3, 4, 6, 8, 10 (2000 5000 2000 1000 5000: mean
// 3000, squared deviations 14 * 10^6, s^2 = 3.5 * 10^6); 5, 7, 9 go untimed, estimated at
// 3 x 3000 = 9000 with error sqrt(3.5e6 * 3 * (1 + 3/5)) = 4098.78 (truly 8000). Total 3000 +
// 15000 + 9000 = 27000. nccl (timed only): launches 1-2 timed, 3 untimed at the one timed mean
// after the first (3000), error unknown (null).
TEST_F(InjectFake, SampledTimingEstimatesUntimedLaunchesWithTheirError) {
    const nlohmann::json p = run_basic({{"IRF_REPLAY", "kernel"}, {"IRF_TIMING", "sampled:1:2"}});
    EXPECT_EQ(p["config"]["IRF_TIMING"], "sampled:1:2");
    EXPECT_EQ(p["coverage"]["launches"], 14);
    const nlohmann::json axpy = kernel_named(p, "axpy(");
    EXPECT_EQ(axpy["launches"], 10);
    EXPECT_EQ(axpy["time_ns"]["total"], 27000);
    EXPECT_EQ(axpy["time_ns"]["estimated"]["launches"], 3);
    EXPECT_NEAR(axpy["time_ns"]["estimated"]["error_ns"].get<double>(), 4098.78, 0.01);
    const nlohmann::json nccl = kernel_named(p, "ncclDevKernel");
    EXPECT_EQ(nccl["launches"], 3);
    EXPECT_EQ(nccl["time_ns"]["total"], 9000);
    EXPECT_EQ(nccl["time_ns"]["estimated"]["launches"], 1);
    EXPECT_TRUE(nccl["time_ns"]["estimated"]["error_ns"].is_null());
    EXPECT_FALSE(kernel_named(p, "transpose(")["time_ns"].contains("estimated"));
    EXPECT_EQ(p["warnings"].dump().find("no intercepted launch"), std::string::npos)
        << p["warnings"].dump();
    const std::string summary = read_file(m_tmp / "out.txt");
    EXPECT_NE(summary.find("3 untimed launches (IRF_TIMING=sampled or IRF_GRAPH_TIMING=graphs)"),
              std::string::npos)
        << summary;
    // By default every launch is timed and no total is estimated.
    const nlohmann::json all = run_basic({{"IRF_REPLAY", "kernel"}});
    EXPECT_EQ(all["config"]["IRF_TIMING"], "all");
    EXPECT_EQ(kernel_named(all, "axpy(")["time_ns"]["total"], 26000);
    EXPECT_FALSE(kernel_named(all, "axpy(")["time_ns"].contains("estimated"));
}

// Issue 55 item 4, IRF_GRAPH_TIMING through libirf: graph_replays.json replays a 2-node graph 10
// times, its records delivered as they complete. graphs:2: replays 1-2 traced by node (replay 2
// confirms replay 1's two nodes), 3-10 timed whole, their nodes counted as 8 untimed launches of
// each kernel. gemm (1000, 3000 ns in turn): first launch 1000, one warm timed launch 3000; 8 x
// 3000 = 24000 estimated, total 28000 ns, error unknown (one warm launch). axpy: 10 x 500.
TEST_F(InjectFake, GraphTimingEstimatesTheNodesOfReplaysTimedWhole) {
    const nlohmann::json p = run_basic({{"IRF_GRAPH_TIMING", "graphs:2"}}, "graph_replays.json");
    EXPECT_EQ(p["config"]["IRF_GRAPH_TIMING"], "graphs:2");
    EXPECT_EQ(p["coverage"]["launches"], 20);
    const nlohmann::json gemm = kernel_named(p, "gemm(");
    ASSERT_FALSE(gemm.is_null()) << p.dump();
    EXPECT_EQ(gemm["launches"], 10);
    EXPECT_EQ(gemm["time_ns"]["estimated"]["launches"], 8);
    EXPECT_TRUE(gemm["time_ns"]["estimated"]["error_ns"].is_null());
    EXPECT_EQ(gemm["time_ns"]["total"], 28000);
    EXPECT_EQ(gemm["launch"]["regs"], 64);
    const nlohmann::json axpy = kernel_named(p, "axpy(");
    EXPECT_EQ(axpy["launches"], 10);
    EXPECT_EQ(axpy["time_ns"]["estimated"]["launches"], 8);
    EXPECT_EQ(axpy["time_ns"]["total"], 5000);
    const std::string summary = read_file(m_tmp / "out.txt");
    EXPECT_NE(summary.find("~28.0 us"), std::string::npos) << summary;
    EXPECT_NE(summary.find("total 28.0 us is an estimate: 8 untimed launches"), std::string::npos)
        << summary;
    // By default (nodes) every replay is traced by node: every launch timed, nothing estimated.
    const nlohmann::json all = run_basic({}, "graph_replays.json");
    EXPECT_EQ(all["config"]["IRF_GRAPH_TIMING"], "nodes");
    EXPECT_EQ(kernel_named(all, "gemm(")["launches"], 10);
    EXPECT_EQ(kernel_named(all, "gemm(")["time_ns"]["total"], 5 * 1000 + 5 * 3000);
    EXPECT_FALSE(kernel_named(all, "gemm(")["time_ns"].contains("estimated"));
    EXPECT_FALSE(kernel_named(all, "axpy(")["time_ns"].contains("estimated"));
    EXPECT_EQ(read_file(m_tmp / "out.txt").find("is an estimate"), std::string::npos);
}

TEST_F(InjectFake, MpsActiveThreadLimitRecordsTheActiveSms) {
    // basic.json's GPU has 132 SMs; 25% of them rounds up to 33 (docs/trajectories.md).
    EXPECT_EQ(run_basic({{"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "25"}})["gpu"]["sms_active"], 33);
    EXPECT_EQ(run_basic({{"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "30"}})["gpu"]["sms_active"], 40);
    EXPECT_FALSE(run_basic()["gpu"].contains("sms_active")); // no limit: the whole GPU
}

TEST_F(InjectFake, AKernelLaunchedOnceIsProfiledAndFlagged) {
    const nlohmann::json t = kernel_named(run_basic(), "transpose(");
    ASSERT_FALSE(t.is_null());
    EXPECT_EQ(t["launches"], 1);
    EXPECT_EQ(t["profiled_launches"], 1);
    EXPECT_EQ(t["counters"]["inst_warp"], 40);
    EXPECT_EQ(t["launch"]["smem"], 4224);
    ASSERT_EQ(t["notes"].size(), 2u);
    EXPECT_NE(t["notes"].dump().find("lazy module loading"), std::string::npos);
}

TEST_F(InjectFake, NcclCollectivesAreTimedButNotProfiledByDefault) {
    const nlohmann::json n = kernel_named(run_basic(), "ncclDevKernel");
    ASSERT_FALSE(n.is_null());
    EXPECT_EQ(n["launches"], 3);
    EXPECT_EQ(n["profiled_launches"], 0);
    EXPECT_TRUE(n["counters"].empty());
    EXPECT_EQ(n["time_ns"]["total"], 9000);
}

TEST_F(InjectFake, SamplesPerKernel) {
    const nlohmann::json p = run_basic({{"IRF_SAMPLES", "3"}, {"IRF_REPLAY", "kernel"}});
    const nlohmann::json axpy = kernel_named(p, "axpy(");
    EXPECT_EQ(axpy["profiled_launches"], 3);
    EXPECT_EQ(axpy["counters"]["inst_warp"], 300);
    EXPECT_EQ(axpy["counters"]["time_ns"], 4500);          // summed: 3 x 1500
    EXPECT_EQ(axpy["counters"]["clock_hz"], 1980000000.0); // a rate: averaged
    EXPECT_EQ(p["coverage"]["profiled_launches"], 5);      // 1 + 3 axpy, 1 transpose
    EXPECT_EQ(p["config"]["IRF_SAMPLES"], "3");
}

TEST_F(InjectFake, KernelsAndExcludeFilters) {
    nlohmann::json p = run_basic({{"IRF_KERNELS", "^transpose"}});
    EXPECT_EQ(kernel_named(p, "axpy(")["profiled_launches"], 0);
    EXPECT_EQ(kernel_named(p, "axpy(")["launches"], 10); // still timed
    EXPECT_EQ(kernel_named(p, "transpose(")["profiled_launches"], 1);
    p = run_basic({{"IRF_EXCLUDE", "axpy"}});
    EXPECT_EQ(kernel_named(p, "axpy(")["profiled_launches"], 0);
    EXPECT_EQ(kernel_named(p, "ncclDevKernel")["profiled_launches"], 1); // default replaced
}

TEST_F(InjectFake, LaunchSkipAndCount) {
    // Matching launches in order: axpy x10, transpose, (nccl excluded: not matching).
    // Skip 4 -> axpy launches 5..10 are warm: launch 5 sampled; count 1 stops there.
    nlohmann::json p =
        run_basic({{"IRF_LAUNCH_SKIP", "4"}, {"IRF_LAUNCH_COUNT", "1"}, {"IRF_REPLAY", "kernel"}});
    EXPECT_EQ(p["coverage"]["profiled_launches"], 1);
    EXPECT_EQ(kernel_named(p, "axpy(")["profiled_launches"], 1);
    EXPECT_EQ(kernel_named(p, "transpose(")["profiled_launches"], 0);
    // Skip 10 -> all axpy launches skipped; transpose (its first launch) is profiled.
    p = run_basic({{"IRF_LAUNCH_SKIP", "10"}});
    EXPECT_EQ(kernel_named(p, "axpy(")["profiled_launches"], 0);
    EXPECT_EQ(kernel_named(p, "transpose(")["profiled_launches"], 1);
}

TEST_F(InjectFake, ThreadsAllCounted) {
    const nlohmann::json p = run_basic({}, "threads.json");
    EXPECT_EQ(p["coverage"]["launches"], 3500);
    const nlohmann::json reduce = kernel_named(p, "reduce(");
    EXPECT_EQ(reduce["launches"], 3000);
    EXPECT_EQ(reduce["profiled_launches"], 1);
    // 3000 launches x 100 ns: the provisional and the real sample (replayed) count at the
    // unprofiled mean, 100 ns.
    EXPECT_EQ(reduce["time_ns"]["total"], 300000);
    EXPECT_EQ(kernel_named(p, "scale(")["launches"], 500);
}

TEST_F(InjectFake, TextSummaryAndAtomicWrite) {
    run_basic();
    EXPECT_EQ(files_in(m_tmp.path()), (std::vector<std::string>{"out.json", "out.txt"}));
    const std::string text = read_file(m_tmp / "out.txt");
    EXPECT_NE(text.find("axpy"), std::string::npos);
    const std::vector<std::string> lines = irf_lines(m_result.err);
    ASSERT_EQ(lines.size(), 1u) << m_result.err;
    EXPECT_NE(lines[0].find("profile written to " + (m_tmp / "out.json").string()),
              std::string::npos);
}

TEST_F(InjectFake, SummaryModes) {
    run_basic({{"IRF_SUMMARY", "none"}});
    EXPECT_EQ(files_in(m_tmp.path()), (std::vector<std::string>{"out.json"}));
    EXPECT_EQ(m_result.err.find("axpy"), std::string::npos);
    std::filesystem::remove(m_tmp / "out.json");
    run_basic({{"IRF_SUMMARY", "stderr"}});
    EXPECT_EQ(files_in(m_tmp.path()), (std::vector<std::string>{"out.json"}));
    EXPECT_NE(m_result.err.find("axpy"), std::string::npos);
}

TEST_F(InjectFake, CallSiteNamesTheHarness) {
    const nlohmann::json p = run_basic();
    const std::string site = kernel_named(p, "axpy(")["call_site"];
    EXPECT_NE(site.find("main"), std::string::npos) << site;
    EXPECT_EQ(site.find("libirf"), std::string::npos) << site;
    const nlohmann::json off = run_basic({{"IRF_CALLSTACK", "0"}});
    EXPECT_EQ(kernel_named(off, "axpy(")["call_site"], "");
}

TEST_F(InjectFake, AnalysisUsesShippedCeilings) {
    const nlohmann::json p = run_basic({{"IRF_TARGETS", "none"}});
    const model::Profile parsed = model::profile_from_json(p);
    ASSERT_TRUE(parsed.ceilings.has_value());
    EXPECT_NE(parsed.ceilings->source.find("h100"), std::string::npos) << parsed.ceilings->source;
    EXPECT_TRUE(parsed.kernels[0].analysis.has_value());
}

TEST_F(InjectFake, InvalidValueIsOneLineAndTheDefaultIsUsed) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    const nlohmann::json p = run_basic({{"IRF_SAMPLES", "many"}});
    EXPECT_NE(m_result.err.find("[irf] error: IRF_SAMPLES=many: must be a whole number between "
                                "0 and 1000; ignored, using default"),
              std::string::npos)
        << m_result.err;
    EXPECT_EQ(p["config"]["IRF_SAMPLES"], "1");
    EXPECT_NE(p["warnings"].dump().find("IRF_SAMPLES=many"), std::string::npos);
}

TEST_F(InjectFake, UnsafeInvalidValueDisables) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    m_result = run_harness({{"IRF_BACKEND", "fake:" + fake_script("basic.json")},
                            {"IRF_OUTPUT", (m_tmp / "out").string()},
                            {"IRF_KERNELS", "(unclosed"}});
    EXPECT_EQ(m_result.exit_code, 0);
    const std::vector<std::string> lines = irf_lines(m_result.err);
    ASSERT_EQ(lines.size(), 1u) << m_result.err;
    EXPECT_NE(lines[0].find("IRF_KERNELS=(unclosed"), std::string::npos);
    EXPECT_NE(lines[0].find("irf disabled"), std::string::npos);
    EXPECT_TRUE(files_in(m_tmp.path()).empty());
}

TEST_F(InjectFake, MalformedScriptIsOneLineAndNoFile) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    for (const char* script : {"bad_grid.json", "not_json.json", "missing.json"}) {
        m_result = run_harness({{"IRF_BACKEND", "fake:" + fake_script(script)},
                                {"IRF_OUTPUT", (m_tmp / "out").string()}});
        EXPECT_EQ(m_result.exit_code, 0) << script;
        const std::vector<std::string> lines = irf_lines(m_result.err);
        ASSERT_EQ(lines.size(), 1u) << m_result.err;
        EXPECT_NE(lines[0].find(script), std::string::npos) << lines[0];
        EXPECT_TRUE(files_in(m_tmp.path()).empty()) << script;
    }
    EXPECT_NE(
        irf_lines(run_harness({{"IRF_BACKEND", "fake:" + fake_script("bad_grid.json")}}).err)[0]
            .find("launches[0].grid"),
        std::string::npos);
}

TEST_F(InjectFake, UnwritableOutputIsOneLine) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    m_result = run_harness({{"IRF_BACKEND", "fake:" + fake_script("basic.json")},
                            {"IRF_OUTPUT", (m_tmp / "missing-dir" / "out").string()}});
    EXPECT_EQ(m_result.exit_code, 0);
    // Said at load (IRF_OUTPUT named, issue #22 item 10) and again when the write fails.
    const std::vector<std::string> lines = irf_lines(m_result.err);
    ASSERT_EQ(lines.size(), 2u) << m_result.err;
    EXPECT_EQ(lines[0].rfind("[irf] error: IRF_OUTPUT=", 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find("missing-dir does not exist"), std::string::npos) << lines[0];
    EXPECT_EQ(lines[1].rfind("[irf] error: profile not written: ", 0), 0u) << lines[1];
    EXPECT_NE(lines[1].find("missing-dir"), std::string::npos) << lines[1];
    EXPECT_TRUE(files_in(m_tmp.path()).empty());
}

TEST_F(InjectFake, DisableLoadsAndDoesNothing) {
    m_result = run_harness({{"IRF_BACKEND", "fake:" + fake_script("basic.json")},
                            {"IRF_OUTPUT", (m_tmp / "out").string()},
                            {"IRF_DISABLE", "1"}});
    EXPECT_EQ(m_result.exit_code, 0);
    EXPECT_TRUE(irf_lines(m_result.err).empty()) << m_result.err;
    EXPECT_TRUE(files_in(m_tmp.path()).empty());
}

// Issue 41 item 3: launch 1 (cold) shows 200 tensor instructions without ops by type, so a later
// launch is the tensor-types sample (50 instructions, 4e6 bf16 ops) after the kernel's sample:
// its bf16 ops are 4e6 x 200 / 50. With IRF_REPLAY=auto the kernel's sample runs its 4 passes on
// launches 2-5 and the tensor-types one waits for them (launch 6). With IRF_TENSOR_TYPES=off
// there is no second sample.
TEST_F(InjectFake, ATensorKernelGetsItsTypesFromASecondSample) {
    nlohmann::json p = run_basic({{"IRF_REPLAY", "auto"}}, "tensor_gemm.json");
    nlohmann::json gemm = kernel_named(p, "gemm_bf16(");
    ASSERT_FALSE(gemm.is_null());
    EXPECT_EQ(p["coverage"]["profiled_launches"], 3);
    EXPECT_EQ(gemm["profiled_launches"], 1);
    EXPECT_EQ(gemm["counters"]["tensor_ops_bf16"], 1.6e7);
    EXPECT_EQ(gemm["counters"]["inst_tensor"], 200);
    EXPECT_EQ(p["config"]["IRF_TENSOR_TYPES"], "auto");
    const std::string note = "tensor ops by input type from a second sample (1 launch, "
                             "IRF_TENSOR_TYPES=auto), scaled x4 by tensor instructions";
    EXPECT_NE(gemm["notes"].dump().find(note), std::string::npos) << gemm["notes"].dump();
    EXPECT_NE(read_file(m_tmp / "out.txt").find("  1    " + note), std::string::npos);

    p = run_basic({{"IRF_TENSOR_TYPES", "off"}, {"IRF_REPLAY", "auto"}}, "tensor_gemm.json");
    gemm = kernel_named(p, "gemm_bf16(");
    EXPECT_EQ(p["coverage"]["profiled_launches"], 2);
    EXPECT_EQ(gemm["profiled_launches"], 1);
    EXPECT_FALSE(gemm["counters"].contains("tensor_ops_bf16"));
    EXPECT_EQ(gemm["counters"]["inst_tensor"], 200);
    EXPECT_EQ(gemm["notes"].dump().find("second sample"), std::string::npos);
    EXPECT_EQ(p["config"]["IRF_TENSOR_TYPES"], "off");
}

} // namespace
} // namespace test_inject_fake
} // namespace irf::test

// SPDX-License-Identifier: Apache-2.0
// A GPT-like training step through libirf.so and the fake backend (issue 41): cuBLAS sm90 and
// nvjet GEMMs of several shapes per key, FlashAttention, FusedAdamW, an NCCL all-reduce and
// Triton kernels in a CUDA graph, with emit_nvtx ranges. The summary and `show` of the GEMM are
// golden files, read by eye (tests/data/examples/README.md says what they should show).
#include <gtest/gtest.h>

#include "tests/integration/harness_support.hpp"
#include "tests/support/golden.hpp"

namespace irf::test {
namespace test_train_step {
namespace {

/// `text` with the source tree's path (in the ceilings line) replaced by "<src>".
std::string without_source_path(std::string text) {
    const std::string src = IRF_SOURCE_DIR;
    for (std::size_t at = text.find(src); at != std::string::npos; at = text.find(src, at)) {
        text.replace(at, src.size(), "<src>");
    }
    return text;
}

class TrainStep : public TempDirTest {
protected:
    void SetUp() override {
        TempDirTest::SetUp();
        const ProcessResult r = run_harness(
            {{"IRF_BACKEND", "fake:" + data_path("examples/train-step-fake-script.json")},
             {"IRF_OUTPUT", (m_tmp / "step").string()},
             {"IRF_SUMMARY", "none"},
             {"IRF_CALLSTACK", "0"},
             // Two steps are too few for samples by launches (IRF_REPLAY=auto): their GEMM keys
             // run several shapes (such a sample is given up, mixed_shapes) and the tensor-types
             // sample waits while other kernels' samples collect passes. The golden files show
             // kernel replay's samples.
             {"IRF_REPLAY", "kernel"}});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        m_profile = (m_tmp / "step.json").string();
    }

    ProcessResult report(std::vector<std::string> args) const {
        args.insert(args.begin(), IRF_REPORT_BIN);
        return run_process(args, RunOptions{});
    }

    std::string m_profile;
};

TEST_F(TrainStep, SummaryReadsRight) {
    const ProcessResult r = report({"analyze", m_profile, "--targets", "h200-sxm,b200"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(matches_golden("train_step_summary.txt", without_source_path(r.out)));
}

TEST_F(TrainStep, ShowOfTheGemmSaysWhatItsSamplesCover) {
    const ProcessResult r = report({"show", m_profile, "sm90_xmma"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(matches_golden("train_step_show_gemm.txt", without_source_path(r.out)));
}

TEST_F(TrainStep, ShowOfTheAllReduceSaysWhyItHasNoCounters) {
    const ProcessResult r = report({"show", m_profile, "ncclDevKernel"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("none: excluded: collective"), std::string::npos) << r.out;
}

TEST_F(TrainStep, TotalsAreTheSumOfTheLaunches) {
    const nlohmann::json p = read_json(m_profile);
    // Per step: sm90 GEMM 2 x (180 + 360) us forward + 2 x (2 x 720 + 360) us backward =
    // 4.68 ms; two steps = 9.36 ms, with every profiled launch at its own duration.
    const nlohmann::json gemm = kernel_named(p, "sm90_xmma");
    EXPECT_DOUBLE_EQ(gemm["time_ns"]["total"].get<double>(), 9.36e6);
    EXPECT_FALSE(gemm["time_ns"].contains("imputed"));
    // nvjet lm_head: (1.4 + 2 x 5.6) ms per step = 12.6 ms; 25.2 ms in all.
    EXPECT_DOUBLE_EQ(kernel_named(p, "nvjet_")["time_ns"]["total"].get<double>(), 25.2e6);
}

} // namespace
} // namespace test_train_step
} // namespace irf::test

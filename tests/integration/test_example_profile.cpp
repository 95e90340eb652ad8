// SPDX-License-Identifier: Apache-2.0
// The quick start's bundled example profile: `irf-report analyze` on it gives the verdicts the
// demo kernels were written to show (tests/data/examples/README.md).
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/golden.hpp"
#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace {

using irf::test::TempDirTest;

class ExampleProfile : public TempDirTest {
protected:
    /// Analyses the example with the shipped H100 SXM5 ceilings; returns kernels by short name.
    std::map<std::string, nlohmann::json> analyse() {
        const std::string out = (m_tmp / "analysed.json").string();
        const auto r = irf::test::run_process({IRF_REPORT_BIN, "analyze",
                                               irf::test::data_path("examples/demo-profile.json"),
                                               "--targets", "h200-sxm", "--json", out});
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(r.out.find("synthetic example"), std::string::npos) << r.out;
        const auto profile = nlohmann::json::parse(irf::test::read_file(out));
        std::map<std::string, nlohmann::json> kernels;
        for (const auto& k : profile.at("kernels")) {
            const std::string name = k.at("name");
            kernels[name.substr(0, name.find('('))] = k.at("analysis");
        }
        return kernels;
    }
};

TEST_F(ExampleProfile, TriadIsHbmBoundWithUnitStride) {
    auto k = analyse();
    ASSERT_EQ(k.count("stream_triad"), 1u);
    EXPECT_EQ(k["stream_triad"]["irm"]["bound"], "hbm");
    EXPECT_EQ(k["stream_triad"]["walls"]["global"]["pattern"], "unit");
    // 1,572,864 ld+st instructions / 6,291,456 sectors = 1/4 exactly.
    EXPECT_DOUBLE_EQ(k["stream_triad"]["walls"]["global"]["intensity"].get<double>(), 0.25);
}

TEST_F(ExampleProfile, NaiveTransposeIsStridedAndPaddedIsConflictFree) {
    auto k = analyse();
    // (32768 + 32768) / (131072 + 1048576) = 65536 / 1179648 = 1/18: between 1/32 and 1/4.
    EXPECT_EQ(k["transpose_naive"]["walls"]["global"]["pattern"], "strided");
    EXPECT_NEAR(k["transpose_naive"]["walls"]["global"]["intensity"].get<double>(), 1.0 / 18,
                1e-12);
    EXPECT_EQ(k["transpose_padded"]["walls"]["global"]["pattern"], "unit");
    EXPECT_DOUBLE_EQ(k["transpose_padded"]["walls"]["shared"]["conflict_ways"].get<double>(), 1.0);
}

TEST_F(ExampleProfile, IntegerKernelProjectsOnInstructions) {
    auto k = analyse();
    const auto& p = k["int_hash"]["projection"].at(0);
    EXPECT_EQ(p["target"], "h200-sxm");
    EXPECT_EQ(p["basis"], "instructions");
    EXPECT_EQ(k["int_hash"]["irm"]["bound"], "issue");
}

TEST_F(ExampleProfile, IntegerKernelFillsItsInt32Pipe) {
    auto k = analyse();
    const auto& pipes = k["int_hash"]["pipes"];
    // 390 of 394 thread instructions are integer: 198 IMAD-like (the FMA pipe) and 192 bit ops,
    // which alone surely run on int32 (docs/model.md, "Pipe sub-ceilings"). 806912 warp
    // instructions in 3600 ns = 224.14 warp GIPS, so int32 runs 224.14 x 192/394 = 109.23 warp
    // GIPS. The kernel ran at 1755 MHz: int32's 522.7 x 1755/1980 = 463.30, so 23.58%; alone it
    // allows 463.30 x 394/192 = 950.7 warp GIPS, above the schedulers' 1045.4 x 1755/1980 =
    // 926.60, which bind.
    EXPECT_EQ(pipes["binding"], "issue");
    EXPECT_NEAR(pipes["by_pipe"]["int32"]["gips"].get<double>(), 806912.0 * 192 / 394 / 3600, 1e-9);
    EXPECT_NEAR(pipes["by_pipe"]["int32"]["pct"].get<double>(), 23.576, 1e-3);
    EXPECT_NEAR(pipes["ceiling_gips"].get<double>(), 1045.4 * 1755 / 1980, 1e-9);
    // fma_chain: 256 of 266 are FFMA, and fp32 alone allows 926.6 x 266/256 > the schedulers.
    EXPECT_EQ(k["fma_chain"]["pipes"]["binding"], "issue");
}

TEST_F(ExampleProfile, MarkdownSummaryShowsAccessWidthAndBusiestPipe) {
    const auto r = irf::test::run_process({IRF_REPORT_BIN, "analyze",
                                           irf::test::data_path("examples/demo-profile.json"),
                                           "--format", "md"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("| busiest pipe |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| strided 4B |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| int32 24% |"), std::string::npos) << r.out;
}

TEST_F(ExampleProfile, CsvHasThePipeColumns) {
    const auto r = irf::test::run_process(
        {IRF_REPORT_BIN, "csv", irf::test::data_path("examples/demo-profile.json")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string header = r.out.substr(0, r.out.find('\n'));
    EXPECT_NE(header.find(",pipe_ceiling_gips,pipe_binding,pipe_int32_pct,pipe_fp32_pct,"
                          "pipe_fp64_pct,pipe_fp16_pct,pipe_lsu_pct"),
              std::string::npos)
        << header;
    // int_hash at 1755 MHz: the schedulers bind at 1045.4 x 1755/1980 = 926.60 warp GIPS, int32
    // (the 192 bit ops of 394) at 23.58% (IntegerKernelFillsItsInt32Pipe); no fp pipe, lsu 0.25%.
    const auto row = r.out.find("int_hash(unsigned int*)");
    ASSERT_NE(row, std::string::npos) << r.out;
    const std::string line = r.out.substr(row, r.out.find('\n', row) - row);
    EXPECT_NE(line.find(",926.6045455,issue,23.57568117,,,,0.2455330382,"), std::string::npos)
        << line;
}

} // namespace

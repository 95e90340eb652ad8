// SPDX-License-Identifier: Apache-2.0
// Pipe sub-ceilings (docs/model.md, "Pipe sub-ceilings") against hand-computed values on the
// H100 SXM5's derived pipe rates: 132 SMs x 1980 MHz x (4, 2, 2, 1) warp-inst/clk/SM.
#include <gtest/gtest.h>

#include "model/profile/analysis_json.hpp"
#include "model/profile/json_reader.hpp"
#include "model/profile/profile_json.hpp"
#include "model/roofline/pipe_ceilings.hpp"

namespace irf::model {
namespace test_pipe_ceilings {
namespace {

constexpr double k_peak = 1045.44; // 132 x 4 x 1.98
const std::map<std::string, double> k_h100_pipes = {
    {"fp32", 1045.44}, {"fp64", 522.72}, {"int32", 522.72}, {"fp16", 1045.44}, {"lsu", 261.36}};

TEST(PipeCeilings, Fp64HeavyKernelIsBoundByTheFp64Pipe) {
    std::vector<std::string> missing;
    const auto p = pipe_ceilings({{"fp64", 0.6}, {"integer", 0.2}, {"ldst", 0.1}, {"control", 0.1}},
                                 400.0, k_peak, k_h100_pipes, missing);
    ASSERT_TRUE(p.has_value());
    // fp64: 0.6 x 400 = 240 warp GIPS of 522.72 = 45.91%; alone it allows 522.72 / 0.6 = 871.2.
    EXPECT_DOUBLE_EQ(p->by_pipe.at("fp64").gips, 240.0);
    EXPECT_NEAR(p->by_pipe.at("fp64").pct, 45.914, 1e-3);
    // int32: 0.2 x 400 = 80 of 522.72 = 15.30% (allows 2613.6); lsu: 40 of 261.36 = 15.30%.
    EXPECT_DOUBLE_EQ(p->by_pipe.at("int32").gips, 80.0);
    EXPECT_NEAR(p->by_pipe.at("lsu").pct, 15.305, 1e-3);
    // Control has no pipe ceiling; fp32 and fp16 are absent from the mix.
    EXPECT_EQ(p->by_pipe.size(), 3u);
    EXPECT_EQ(p->binding, "fp64");
    EXPECT_NEAR(p->ceiling_gips, 871.2, 1e-9);
    EXPECT_TRUE(missing.empty());
    // The busiest pipe relative to its ceiling: fp64 at 45.9% (int32 and lsu at 15.3%).
    EXPECT_EQ(busiest_pipe(*p).first, "fp64");
    EXPECT_EQ(busiest_pipe(PipeCeilings{}).first, "");
}

TEST(PipeCeilings, LoadStoreHeavyKernelIsBoundByTheLsuPipe) {
    std::vector<std::string> missing;
    const auto p =
        pipe_ceilings({{"ldst", 0.5}, {"fp32", 0.5}}, 200.0, k_peak, k_h100_pipes, missing);
    ASSERT_TRUE(p.has_value());
    // lsu: 261.36 / 0.5 = 522.72 < fp32's 1045.44 / 0.5 = 2090.88 and the peak 1045.44.
    EXPECT_EQ(p->binding, "lsu");
    EXPECT_DOUBLE_EQ(p->ceiling_gips, 522.72);
    // 0.5 x 200 = 100 of 261.36 = 38.26%.
    EXPECT_NEAR(p->by_pipe.at("lsu").pct, 38.261, 1e-3);
}

TEST(PipeCeilings, AllFp32KernelIsBoundByTheSchedulers) {
    std::vector<std::string> missing;
    const auto p = pipe_ceilings({{"fp32", 1.0}}, 900.0, k_peak, k_h100_pipes, missing);
    ASSERT_TRUE(p.has_value());
    // fp32 alone allows 1045.44 / 1.0 = the peak: a tie goes to the schedulers.
    EXPECT_EQ(p->binding, "issue");
    EXPECT_DOUBLE_EQ(p->ceiling_gips, k_peak);
    EXPECT_NEAR(p->by_pipe.at("fp32").pct, 86.088, 1e-3); // 900 / 1045.44
}

TEST(PipeCeilings, AbsentWithAReason) {
    std::vector<std::string> missing;
    EXPECT_FALSE(pipe_ceilings({}, 100.0, k_peak, k_h100_pipes, missing));
    EXPECT_FALSE(pipe_ceilings({{"fp32", 1.0}}, 0.0, k_peak, k_h100_pipes, missing));
    // Only classes without a pipe ceiling, or ceilings without pipes.
    EXPECT_FALSE(pipe_ceilings({{"control", 1.0}}, 100.0, k_peak, k_h100_pipes, missing));
    EXPECT_FALSE(pipe_ceilings({{"fp32", 1.0}}, 100.0, k_peak, {}, missing));
    // No mix: instruction_mix has already said why, so no second reason.
    ASSERT_EQ(missing.size(), 3u);
    EXPECT_EQ(missing[0], "pipes: needs the kernel's and the peak warp GIPS");
    EXPECT_EQ(missing[1], "pipes: the ceilings have no pipe_gips for the classes in the mix");
    EXPECT_EQ(missing[2], missing[1]);
}

// Issue 40 item 4: IMAD and IMUL issue on the FMA pipe and uniform instructions on the uniform
// pipe, so without pipe_mix only the bit class (LOP3, SHF) surely runs on the ALU (int32).
TEST(PipeCeilings, OnlyTheBitClassSurelyRunsOnTheInt32Pipe) {
    Counters c;
    c["thread_class_integer"] = 60; // 60% integer (IMAD, IADD3, ISETP)
    c["thread_class_fp32"] = 40;
    const std::map<std::string, double> mix = {{"integer", 0.6}, {"fp32", 0.4}};
    const auto shares = issue_mix(c, mix);
    EXPECT_DOUBLE_EQ(shares.at("integer"), 0.0);
    // No cap: the schedulers' 1045.44 (capping all 60% by int32 said 522.72 / 0.6 = 871.2)
    EXPECT_DOUBLE_EQ(mix_issue_ceiling(shares, k_peak, k_h100_pipes).first, 1045.44);
    c["thread_class_bit"] = 60; // the same 60 as LOP3/SHF: 60 / (60 + 40) = 0.6 on int32
    c["thread_class_integer"] = 0;
    EXPECT_DOUBLE_EQ(issue_mix(c, mix).at("integer"), 0.6);
    EXPECT_DOUBLE_EQ(mix_issue_ceiling(issue_mix(c, mix), k_peak, k_h100_pipes).first,
                     522.72 / 0.6); // 871.2
}

TEST(PipeCeilings, PipeMixCountersGiveTheSharesPerPipe) {
    Counters c;
    c["inst_warp"] = 1000;
    c["inst_pipe_alu"] = 600; // 0.6 of the warp instructions on the ALU: 522.72 / 0.6 = 871.2
    c["inst_pipe_fma"] = 300; // 0.3 on the FMA pipe: 1045.44 / 0.3 = 3484.8
    c["inst_pipe_lsu"] = 100; // 0.1: 261.36 / 0.1 = 2613.6
    const auto shares = issue_mix(c, {{"integer", 1.0}});
    EXPECT_DOUBLE_EQ(shares.at("integer"), 0.6);
    EXPECT_DOUBLE_EQ(shares.at("fp32"), 0.3);
    const auto cap = mix_issue_ceiling(shares, k_peak, k_h100_pipes);
    EXPECT_DOUBLE_EQ(cap.first, 522.72 / 0.6);
    EXPECT_EQ(cap.second, "int32");
}

TEST(PipeCeilings, RoundTripThroughTheAnalysisJson) {
    std::vector<std::string> missing;
    KernelAnalysis a;
    a.pipes = pipe_ceilings({{"ldst", 0.5}, {"fp32", 0.5}}, 200.0, k_peak, k_h100_pipes, missing);
    const nlohmann::json j = analysis_to_json(a);
    EXPECT_EQ(j.at("pipes").at("binding"), "lsu");
    EXPECT_DOUBLE_EQ(j.at("pipes").at("by_pipe").at("lsu").at("gips").get<double>(), 100.0);
    const KernelAnalysis back = analysis_from_json(JsonNode(j, "analysis"));
    ASSERT_TRUE(back.pipes.has_value());
    EXPECT_EQ(back.pipes->binding, "lsu");
    EXPECT_DOUBLE_EQ(back.pipes->ceiling_gips, 522.72);
    EXPECT_DOUBLE_EQ(back.pipes->by_pipe.at("fp32").pct, a.pipes->by_pipe.at("fp32").pct);
    // No mix: pipes is null and reads back absent.
    EXPECT_TRUE(analysis_to_json(KernelAnalysis{}).at("pipes").is_null());
}

TEST(PipeCeilings, NumberMapsSkipNullsAndNameAWrongMember) {
    const nlohmann::json j = {{"pipe_gips", {{"fp64", 522.7}, {"lsu", nullptr}}},
                              {"bad", {{"fp32", "fast"}}}};
    const JsonNode n(j, "ceilings_used");
    EXPECT_EQ(n.num_map("pipe_gips"), (std::map<std::string, double>{{"fp64", 522.7}}));
    EXPECT_TRUE(n.num_map("absent").empty());
    try {
        (void)n.num_map("bad");
        ADD_FAILURE() << "a string member was read as a number";
    } catch (const FormatError& e) {
        EXPECT_NE(std::string(e.what()).find("ceilings_used.bad.fp32"), std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace test_pipe_ceilings
} // namespace irf::model

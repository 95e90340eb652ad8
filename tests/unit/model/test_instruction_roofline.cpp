// SPDX-License-Identifier: Apache-2.0
// Instruction Roofline (docs/model.md: IRM 3.1-3.2, Eq. 2) against hand-computed values.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "model/analyze.hpp"
#include "model/roofline/instruction_roofline.hpp"
#include "model/roofline/transactions.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_instruction_roofline {
namespace {

IrmCeilings v100_irm() {
    // 489.6 warp GIPS; 14000 / 2996 / 828 GB/s / 32 B.
    return IrmCeilings{489.6, PerLevel{437.5, 93.625, 25.875}};
}

/// instruction_roofline() of `c` on the paper's V100.
std::optional<IrmResult> v100_roofline(const Counters& c, std::vector<std::string>& missing) {
    return instruction_roofline(c, v100_irm(), missing);
}

TEST(ModelIrm, V100PeakWarpGips) {
    // 80 SMs x 4 schedulers x 1 instruction/cycle x 1.53 GHz = 489.6
    EXPECT_DOUBLE_EQ(peak_warp_gips(80, 4, 1.53), 489.6);
}

TEST(ModelIrm, V100TransactionCeilings) {
    // 14000 / 32 = 437.5; 2996 / 32 = 93.625 (paper: 93.6); 828 / 32 = 25.875 (paper: 25.9)
    EXPECT_DOUBLE_EQ(gtxn_per_s(14000), 437.5);
    EXPECT_NEAR(gtxn_per_s(2996), 93.6, 0.05);
    EXPECT_NEAR(gtxn_per_s(828), 25.9, 0.05);
    EXPECT_DOUBLE_EQ(gtxn_per_s(14000, k_wavefront_bytes), 109.375); // 14000 / 128 B wavefronts
    const CeilingsUsed used = ceilings_used(test::v100());
    EXPECT_NEAR(used.warp_gips, 489.6, 1e-9); // derived from SMs x schedulers x clock
    EXPECT_DOUBLE_EQ(used.gtxn_per_s.at("l1"), 437.5);
    EXPECT_DOUBLE_EQ(used.gtxn_per_s.at("l2"), 93.625);
    EXPECT_DOUBLE_EQ(used.gtxn_per_s.at("hbm"), 25.875);
    EXPECT_DOUBLE_EQ(used.gtxn_per_s.at("shared"), 14000.0 / 128); // 128-byte wavefronts
    EXPECT_DOUBLE_EQ(used.gflops.at("tensor_fp16"), 125000);
}

TEST(ModelIrm, L1TransactionsCountSharedAsFourSectors) {
    Counters c = test::zero_counters();
    c["sectors_global_ld"] = 100;
    c["sectors_global_st"] = 50;
    c["sectors_local_ld"] = 10;
    c["sectors_local_st"] = 5;
    c["wavefronts_shared_ld"] = 20;
    c["wavefronts_shared_st"] = 5;
    // 100 + 50 + 10 + 5 + 4 x (20 + 5) = 265
    EXPECT_DOUBLE_EQ(*l1_transactions(c), 265);
    // Local memory is optional (an import may lack it): 265 - 5 = 260; global sectors are not.
    c.erase("sectors_local_st");
    EXPECT_DOUBLE_EQ(*l1_transactions(c), 260);
    c.erase("sectors_global_st");
    EXPECT_FALSE(l1_transactions(c).has_value());
}

TEST(ModelIrm, L2CountsReadAndWriteWhenAtomicsAreNotCollected) {
    Counters c = test::zero_counters();
    c["l2_sectors_read"] = 300;
    c["l2_sectors_write"] = 100;
    c["l2_sectors_atom"] = 7;
    c["l2_sectors_red"] = 3;
    EXPECT_DOUBLE_EQ(*l2_transactions(c), 410); // 300 + 100 + 7 + 3
    c.erase("l2_sectors_atom");
    c.erase("l2_sectors_red");
    EXPECT_DOUBLE_EQ(*l2_transactions(c), 400); // 300 + 100, atomics not collected
    c.erase("l2_sectors_write");
    EXPECT_FALSE(l2_transactions(c).has_value());
}

TEST(ModelIrm, GapsOfAnImportAreNamedAndTheRestIsComputed) {
    // L1: 4e5 sectors + 4 x 0 wavefronts; L2: 2e5 + 0 write; HBM: 1e5 + 0 write.
    Counters c = test::kernel_counters(0, 0, {4e5, 2e5, 1e5});
    for (const char* gap : {"inst_warp", "time_ns", "sectors_local_ld", "sectors_local_st",
                            "l2_sectors_atom", "l2_sectors_red"}) {
        c.erase(gap);
    }
    c["inst_thread"] = 3.2e7; // thread-based: 3.2e7 / 32 = 1e6 instructions
    std::vector<std::string> missing;
    const auto r = v100_roofline(c, missing);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(std::isnan(r->gips_warp));   // no duration, no warp count
    EXPECT_TRUE(std::isnan(r->gips_thread)); // no duration
    EXPECT_DOUBLE_EQ(*r->ii_thread.l1, 2.5); // 1e6 / 4e5
    EXPECT_DOUBLE_EQ(*r->ii_thread.l2, 5);   // 1e6 / 2e5
    EXPECT_DOUBLE_EQ(*r->ii_thread.hbm, 10); // 1e6 / 1e5
    EXPECT_FALSE(r->ii.l1.has_value());      // warp-based intensities need inst_warp
    EXPECT_TRUE(r->bound.empty());
    auto said = [&missing](const std::string& start) {
        return std::any_of(missing.begin(), missing.end(),
                           [&](const std::string& m) { return m.rfind(start, 0) == 0; });
    };
    EXPECT_TRUE(said("irm.gips_warp: inst_warp absent: the point is thread-based"));
    EXPECT_TRUE(said("irm.ii.l1: not collected: sectors_local_ld, sectors_local_st"));
    EXPECT_TRUE(said("irm.ii.l2: not collected: l2_sectors_atom, l2_sectors_red"));
    EXPECT_TRUE(said("irm.gips: time_ns absent: intensities without GIPS or bound"));
}

TEST(ModelIrm, ThreadBasedPointIsPlacedWhenWarpInstructionsAreAbsent) {
    // 1e6 sectors at each level: II_L1 = II_L2 = II_HBM = 1e6 / 1e6 = 1.
    Counters c = test::kernel_counters(0, 1e5, {1e6, 1e6, 1e6});
    c.erase("inst_warp");
    c["inst_thread"] = 3.2e7; // 1e6 thread-based instructions; 1e6 / 1e5 ns = 10 GIPS
    std::vector<std::string> missing;
    const auto r = v100_roofline(c, missing);
    ASSERT_TRUE(r.has_value());
    EXPECT_DOUBLE_EQ(r->gips_thread, 10);
    // V100 HBM: 828 GB/s / 32 = 25.875 GTXN/s x II 1 = 25.875 GIPS, the lowest roof:
    // 10 / 25.875 = 38.65%.
    EXPECT_EQ(r->bound, "hbm");
    EXPECT_NEAR(r->roofline_pct, 100.0 * 10 / 25.875, 1e-9);
}

TEST(ModelIrm, RooflineIsMinOfPeakAndIntensityTimesBandwidth) {
    EXPECT_DOUBLE_EQ(roofline_gips(0.4, 489.6, 25.875), 10.35); // 0.4 x 25.875
    EXPECT_DOUBLE_EQ(roofline_gips(100, 489.6, 25.875), 489.6);
}

TEST(ModelIrm, HbmBoundKernel) {
    Counters c = test::kernel_counters(1e6, 1e5, {2.5e6, 2.5e6, 2.5e6});
    c["inst_thread"] = 3.2e7;
    std::vector<std::string> missing;
    const auto r = v100_roofline(c, missing);
    ASSERT_TRUE(r.has_value());
    EXPECT_DOUBLE_EQ(r->gips_warp, 10);             // 1e6 / 1e5 ns
    EXPECT_DOUBLE_EQ(r->gips_thread, 10);           // 3.2e7 / 32 / 1e5
    EXPECT_DOUBLE_EQ(*r->ii.l1, 0.4);               // 1e6 / 2.5e6
    EXPECT_DOUBLE_EQ(*r->roofline_gips.l1, 175);    // 0.4 x 437.5
    EXPECT_DOUBLE_EQ(*r->roofline_gips.l2, 37.45);  // 0.4 x 93.625
    EXPECT_DOUBLE_EQ(*r->roofline_gips.hbm, 10.35); // 0.4 x 25.875
    EXPECT_EQ(r->bound, "hbm");
    EXPECT_NEAR(r->roofline_pct, 100 * 10 / 10.35, 1e-9); // 96.6 %
    EXPECT_TRUE(missing.empty());
}

TEST(ModelIrm, IssueBoundKernel) {
    const Counters c = test::kernel_counters(4.896e7, 1e5, {1000, 1000, 1000});
    std::vector<std::string> missing;
    const auto r = v100_roofline(c, missing);
    ASSERT_TRUE(r.has_value());
    EXPECT_DOUBLE_EQ(r->gips_warp, 489.6); // 4.896e7 / 1e5
    EXPECT_EQ(r->bound, "issue");
    EXPECT_NEAR(r->roofline_pct, 100, 1e-9);
}

TEST(ModelIrm, ZeroTimeOrInstructionsGiveAReasonNotANumber) {
    Counters c = test::kernel_counters(1e6, 0);
    std::vector<std::string> missing;
    EXPECT_FALSE(v100_roofline(c, missing).has_value());
    ASSERT_EQ(missing.size(), 1u);
    EXPECT_EQ(missing[0], "irm: kernel time is 0 ns");
    c["inst_warp"] = 0;
    c["time_ns"] = 10;
    missing.clear();
    EXPECT_FALSE(v100_roofline(c, missing).has_value());
    EXPECT_EQ(missing.at(0), "irm: kernel executed 0 warp instructions");
}

TEST(ModelIrm, MissingLevelCountersLeaveThatLevelOut) {
    Counters c = test::kernel_counters(1e6, 1e5, {2.5e6, 2.5e6});
    c.erase("dram_sectors_read");
    std::vector<std::string> missing;
    const auto r = v100_roofline(c, missing);
    ASSERT_TRUE(r.has_value());
    EXPECT_FALSE(r->ii.hbm.has_value());
    EXPECT_DOUBLE_EQ(*r->roofline_gips.l2, 37.45);
    EXPECT_EQ(r->bound, ""); // HBM, unseen, might bound below L2's 37.45
    ASSERT_EQ(missing.size(), 2u);
    EXPECT_EQ(missing[0].rfind("irm.ii.hbm: counters absent", 0), 0u);
    EXPECT_EQ(missing[1].rfind("irm.bound: not decided", 0), 0u);
}

TEST(ModelIrm, LevelWithoutTrafficDoesNotBound) {
    const Counters c = test::kernel_counters(1e6, 1e5);
    std::vector<std::string> missing;
    const auto r = v100_roofline(c, missing);
    ASSERT_TRUE(r.has_value());
    EXPECT_FALSE(r->ii.l1.has_value());
    EXPECT_EQ(r->bound, "issue");
    EXPECT_NEAR(r->roofline_pct, 100 * 10 / 489.6, 1e-9);
}

TEST(ModelIrm, NotesTrafficThatBypassesTheLsu) {
    // L2 reads 3x the LSU sectors: TMA/LDGSTS traffic.
    Counters c = test::kernel_counters(1e6, 1e5, {1e6, 3e6});
    KernelAnalysis a = analyze_kernel(KernelRecord{}, test::v100(), {});
    EXPECT_TRUE(a.notes.empty());
    KernelRecord k;
    k.counters = c;
    a = analyze_kernel(k, test::v100(), {});
    ASSERT_EQ(a.notes.size(), 1u);
    // No TMA before cc 9.0: the note names what a V100 or A100 can have instead.
    EXPECT_EQ(a.notes[0].find("TMA"), std::string::npos) << a.notes[0];
    EXPECT_NE(a.notes[0].find("without LSU sectors"), std::string::npos) << a.notes[0];
    config::Ceilings hopper = test::v100();
    hopper.gpu.cc = "9.0";
    const KernelAnalysis on_hopper = analyze_kernel(k, hopper, {});
    ASSERT_EQ(on_hopper.notes.size(), 1u);
    EXPECT_NE(on_hopper.notes[0].find("bypass the LSU counters (TMA)"), std::string::npos)
        << on_hopper.notes[0];
    c["l2_sectors_read"] = 1.2e6; // within 25 %: ordinary L1 misses plus writes
    k.counters = c;
    EXPECT_TRUE(analyze_kernel(k, test::v100(), {}).notes.empty());
    // LDGSTS, atomic and reduction sectors are L1 traffic (issue #18 item 6): 1e6 + 1e6 + 0.5e6
    // + 0.5e6 = 3e6 L1 sectors against 3e6 L2 sectors, no note.
    c["l2_sectors_read"] = 3e6;
    c["sectors_ldgsts"] = 1e6;
    c["sectors_global_atom"] = 0.5e6;
    c["sectors_global_red"] = 0.5e6;
    k.counters = c;
    EXPECT_TRUE(analyze_kernel(k, test::v100(), {}).notes.empty());
}

// IRM 3.2 (docs/model.md; issue #18 item 4): the dots use inst_thread / 32. Half the threads
// predicated off: 1.6e7 / 32 = 5e5 thread-based instructions against 1e6 warp ones. L1: 1e6
// sectors -> warp II 1.0, thread II 0.5; HBM: 2e5 sectors -> 5.0 and 2.5; GIPS 10 and 5 over
// 1e5 ns. Both coordinates halve: the dot moves diagonally (Fig. 2b).
TEST(ModelIrm, ThreadIntensityMovesTheDotDiagonally) {
    Counters c = test::kernel_counters(1e6, 1e5, {1e6, 1e6, 2e5});
    c["inst_thread"] = 1.6e7;
    std::vector<std::string> missing;
    const auto r = v100_roofline(c, missing);
    ASSERT_TRUE(r.has_value());
    EXPECT_DOUBLE_EQ(*r->ii.l1, 1.0);
    EXPECT_DOUBLE_EQ(*r->ii_thread.l1, 0.5);
    EXPECT_DOUBLE_EQ(*r->ii.hbm, 5.0);
    EXPECT_DOUBLE_EQ(*r->ii_thread.hbm, 2.5);
    EXPECT_DOUBLE_EQ(r->gips_warp, 10);
    EXPECT_DOUBLE_EQ(r->gips_thread, 5);
    EXPECT_DOUBLE_EQ(*r->ii_thread.l1 / *r->ii.l1, r->gips_thread / r->gips_warp);
    c.erase("inst_thread"); // no thread counter: no thread-based intensity
    const auto w = v100_roofline(c, missing);
    EXPECT_FALSE(w->ii_thread.l1.has_value());
    EXPECT_DOUBLE_EQ(*w->ii.l1, 1.0);
}

// Issue #18 item 6: LDGSTS, global atomics/reductions and shared atomics are L1/shared traffic.
// 100 + 20 + 30 (ld/st sectors) + 10 + 5 + 40 (atom, red, LDGSTS) = 205 sectors; 4 x (6 + 4 +
// 2 + 3) = 60 from 15 shared wavefronts (ld, st, atom, LDGSTS): 265 transactions.
TEST(ModelIrm, L1CountsAtomicsLdgstsAndSharedAtomics) {
    Counters c = test::zero_counters();
    c["sectors_global_ld"] = 100;
    c["sectors_global_st"] = 20;
    c["sectors_local_ld"] = 30;
    c["sectors_global_atom"] = 10;
    c["sectors_global_red"] = 5;
    c["sectors_ldgsts"] = 40;
    c["wavefronts_shared_ld"] = 6;
    c["wavefronts_shared_st"] = 4;
    c["wavefronts_shared_atom"] = 2;
    c["wavefronts_shared_ldgsts"] = 3;
    EXPECT_DOUBLE_EQ(*l1_sectors(c), 205);
    EXPECT_DOUBLE_EQ(*shared_wavefronts(c), 15);
    EXPECT_DOUBLE_EQ(*l1_transactions(c), 265);
    // A profile without the new counters (older, or a chip without LDGSTS) keeps 150 + 40.
    for (const char* name : {"sectors_global_atom", "sectors_global_red", "sectors_ldgsts",
                             "wavefronts_shared_atom", "wavefronts_shared_ldgsts"}) {
        c.erase(name);
    }
    EXPECT_DOUBLE_EQ(*l1_transactions(c), 190);
    c.erase("wavefronts_shared_st"); // a required term absent: no sum at all
    EXPECT_FALSE(l1_transactions(c).has_value());
}

// docs/model.md, L2: `inst_warp / (l2_sectors_read + write + atom + red)`. 100 + 50 + 30 + 20 =
// 200 L2 sectors. Atomics and reductions are optional parts (issue 33 item 5): without the atomic
// term the level is 100 + 50 + 20 = 170; without a required term (reads) no sum is taken.
TEST(ModelIrm, L2TransactionsCountAtomicsAndReductions) {
    Counters c = test::zero_counters();
    c["l2_sectors_read"] = 100;
    c["l2_sectors_write"] = 50;
    c["l2_sectors_atom"] = 30;
    c["l2_sectors_red"] = 20;
    EXPECT_DOUBLE_EQ(*l2_transactions(c), 200);
    c.erase("l2_sectors_atom");
    EXPECT_DOUBLE_EQ(*l2_transactions(c), 170);
    c.erase("l2_sectors_read");
    EXPECT_FALSE(l2_transactions(c).has_value());
}

// A histogram-like kernel whose L2 traffic is mostly atomics and reductions: 1e6 warp
// instructions in 1e5 ns (10 GIPS); L1 1e5 sectors (II 10, roof min(489.6, 4375) = 489.6); L2
// 1e5 read + 1.5e6 atom + 1e6 red = 2.6e6 sectors (II 1e6 / 2.6e6 = 0.384615, roof 0.384615 x
// 93.625 = 36.0096); HBM 1e5 sectors (II 10, roof 258.75). L2 binds at 10 / 36.0096 = 27.770 %.
// Reading only read + write (1e5) would put L2 at 489.6 and bind HBM instead.
TEST(ModelIrm, AtomicAndReductionTrafficCanBindTheL2) {
    Counters c = test::kernel_counters(1e6, 1e5, {1e5, 1e5, 1e5});
    c["l2_sectors_atom"] = 1.5e6;
    c["l2_sectors_red"] = 1e6;
    std::vector<std::string> missing;
    const auto r = v100_roofline(c, missing);
    ASSERT_TRUE(r.has_value());
    EXPECT_NEAR(*r->ii.l2, 0.384615, 1e-6);
    EXPECT_NEAR(*r->roofline_gips.l2, 36.0096, 1e-4);
    EXPECT_EQ(r->bound, "l2");
    EXPECT_NEAR(r->roofline_pct, 27.770, 1e-3);
}

} // namespace
} // namespace test_instruction_roofline
} // namespace irf::model

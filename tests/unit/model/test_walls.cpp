// SPDX-License-Identifier: Apache-2.0
// Memory walls and predication (docs/model.md: IRM 3.1-3.2) against hand-computed values.
#include <gtest/gtest.h>

#include "model/roofline/predication.hpp"
#include "model/roofline/walls.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_walls {
namespace {

TEST(ModelWalls, PatternBySideOfTheUnitWall) {
    EXPECT_EQ(global_pattern(1.0 / 4, 1.0 / 4), "unit");
    EXPECT_EQ(global_pattern(0.27, 1.0 / 4), "unit"); // within 2^(1/4) of the wall
    EXPECT_EQ(global_pattern(1.0, 1.0 / 4), "stride-0");
    EXPECT_EQ(global_pattern(2.0, 1.0 / 4), "stride-0");
    EXPECT_EQ(global_pattern(0.5, 1.0 / 4), "broadcast");   // right: threads share words
    EXPECT_EQ(global_pattern(1.0 / 8, 1.0 / 4), "strided"); // left: strided
    EXPECT_EQ(global_pattern(1.0 / 32, 1.0 / 4), "gather");
    EXPECT_EQ(global_pattern(1.0 / 64, 1.0 / 4), "gather");
    EXPECT_EQ(global_pattern(1.0, 1.0), "unit"); // byte loads: unit stride is one sector
}

// The quarter-octave tolerance of docs/model.md ("a wall claims intensities within 2^(1/4)"),
// just inside and just outside each edge: 2^(1/4) = 1.18921, so against the 1/4 wall the unit
// band is [0.25 / 1.18921, 0.25 x 1.18921] = [0.21022, 0.29730], widened on its left to the
// misaligned access's 0.25 / 1.25 = 0.2 (issue 40 item 9); stride-0 starts at
// 1 / 1.18921 = 0.84090 and gather ends at 1.18921 / 32 = 0.037163. Half an octave (1.41421)
// would move these edges to 0.17678, 0.35355, 0.70711 and 0.044194, and an eighth (1.09051) to
// 0.22925, 0.27263, 0.91700 and 0.034078: half an octave takes each "outside" value below
// inside its wall's band, an eighth takes each "inside" value out.
TEST(ModelWalls, UnitBandEdgesAreAQuarterOctave) {
    EXPECT_EQ(global_pattern(0.295, 1.0 / 4), "unit");      // 0.295 < 0.29730
    EXPECT_EQ(global_pattern(0.300, 1.0 / 4), "broadcast"); // 0.300 > 0.29730
    EXPECT_EQ(global_pattern(0.201, 1.0 / 4), "unit");      // 0.201 > 0.2 (misaligned edge)
    EXPECT_EQ(global_pattern(0.199, 1.0 / 4), "strided");   // 0.199 < 0.2
}

// The same band around a float4 copy's 1/16 wall: [0.0625 / 1.18921, 0.0625 x 1.18921] =
// [0.052556, 0.074325] (the misaligned edge 0.0625 / 1.0625 = 0.058824 is inside it).
TEST(ModelWalls, UnitBandEdgesFollowTheKernelsOwnWall) {
    EXPECT_EQ(global_pattern(0.0740, 1.0 / 16), "unit");
    EXPECT_EQ(global_pattern(0.0750, 1.0 / 16), "broadcast");
    EXPECT_EQ(global_pattern(0.0530, 1.0 / 16), "unit");
    EXPECT_EQ(global_pattern(0.0520, 1.0 / 16), "strided");
}

TEST(ModelWalls, StrideZeroAndGatherEdgesAreAQuarterOctave) {
    EXPECT_EQ(global_pattern(0.845, 1.0 / 4), "stride-0");  // 0.845 > 0.84090
    EXPECT_EQ(global_pattern(0.835, 1.0 / 4), "broadcast"); // 0.835 < 0.84090
    EXPECT_EQ(global_pattern(0.0370, 1.0 / 4), "gather");   // 0.0370 < 0.037163
    EXPECT_EQ(global_pattern(0.0375, 1.0 / 4), "strided");  // 0.0375 > 0.037163
}

// Issue 40 item 9: a misaligned fp32 unit-stride warp access touches 5 sectors, not 4: 1/5 =
// 0.2 is unit stride (below the wall / 2^(1/4) = 0.2102 it read "strided"); 6 sectors (0.1667)
// is not.
TEST(ModelWalls, MisalignedUnitStrideIsUnit) {
    EXPECT_EQ(global_pattern(1.0 / 5, 1.0 / 4), "unit");
    EXPECT_EQ(global_pattern(1.0 / 6, 1.0 / 4), "strided");
    EXPECT_EQ(global_pattern(1.0 / 17, 1.0 / 16), "unit"); // float4: 16 + 1 sectors
}

// A global-memory kernel: `inst` warp ld/st, `sectors`, `bytes` requested.
Counters global_kernel(double inst, double sectors, double bytes) {
    Counters c = test::zero_counters();
    c["inst_global_ld"] = inst / 2;
    c["inst_global_st"] = inst / 2;
    c["sectors_global_ld"] = sectors / 2;
    c["sectors_global_st"] = sectors / 2;
    c["bytes_global_ld"] = bytes / 2;
    c["bytes_global_st"] = bytes / 2;
    return c;
}

// Issue #18 item 5, by hand: a float4 copy requests 32 x 16 = 512 B = 16 sectors per warp
// instruction and reads 16: intensity 1/16 on its own unit wall (1/16), 16 B per thread.
TEST(ModelWalls, Float4CopyIsUnitStride) {
    std::vector<std::string> missing;
    const auto w = global_wall(global_kernel(100, 1600, 100 * 512), missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(w->intensity, 1.0 / 16);
    EXPECT_DOUBLE_EQ(w->unit_intensity, 1.0 / 16); // 100 / (51200 / 32)
    EXPECT_DOUBLE_EQ(*w->access_bytes, 16);        // 51200 / (32 x 100)
    EXPECT_EQ(w->pattern, "unit");
    EXPECT_EQ(global_label(*w), "unit 16B");
    EXPECT_TRUE(missing.empty());
}

// An fp16 copy: 32 x 2 = 64 B = 2 sectors per instruction, 2 read: 1/2 on the 1/2 wall.
TEST(ModelWalls, Fp16CopyIsUnitStride) {
    std::vector<std::string> missing;
    const auto w = global_wall(global_kernel(100, 200, 100 * 64), missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(w->intensity, 0.5);
    EXPECT_DOUBLE_EQ(w->unit_intensity, 0.5);
    EXPECT_EQ(w->pattern, "unit");
    EXPECT_EQ(global_label(*w), "unit 2B");
}

// fp32 at stride 2: 128 B requested (4 ideal sectors) over 8 sectors read: intensity 1/8, left
// of the 1/4 wall, so strided (the fixed walls called it "unit-fp64").
TEST(ModelWalls, Fp32StrideTwoIsStrided) {
    std::vector<std::string> missing;
    const auto w = global_wall(global_kernel(100, 800, 100 * 128), missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(w->intensity, 1.0 / 8);
    EXPECT_DOUBLE_EQ(w->unit_intensity, 1.0 / 4);
    EXPECT_EQ(w->pattern, "strided");
    EXPECT_EQ(global_label(*w), "strided 4B");
}

// fp64 unit stride: 256 B = 8 sectors per instruction, 8 read: on its 1/8 wall.
TEST(ModelWalls, Fp64CopyIsUnitStride) {
    std::vector<std::string> missing;
    const auto w = global_wall(global_kernel(100, 800, 100 * 256), missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_EQ(w->pattern, "unit");
    EXPECT_DOUBLE_EQ(*w->access_bytes, 8);
}

// Half the threads of each warp active (gsrb_branch): an fp64 unit-stride access requests
// 16 x 8 = 128 B = 4 sectors per instruction and reads 4, so it sits on its own 1/4 wall; the
// width is 128 / (32 x 0.5) = 8 B per active thread, not the 4 B a full warp would mean.
TEST(ModelWalls, PredicatedFp64CopyReadsItsOwnWidth) {
    Counters c = global_kernel(100, 400, 100 * 128);
    c["inst_warp"] = 1000;
    c["inst_thread"] = 1000 * 32 * 0.5;
    std::vector<std::string> missing;
    const auto w = global_wall(c, missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(w->unit_intensity, 0.25); // 100 / (12800 / 32)
    EXPECT_EQ(w->pattern, "unit");
    EXPECT_DOUBLE_EQ(*w->access_bytes, 8);
    EXPECT_EQ(global_label(*w), "unit 8B");
}

// Issue 41 item 8: a 4 B -> 2 B cast, 100 LDG and 100 STG of full warps: the loads request
// 100 x 32 x 4 = 12800 B, the stores 100 x 32 x 2 = 6400 B. Per direction 12800 / (32 x 100)
// = 4 B and 6400 / 3200 = 2 B; averaged, 19200 / (32 x 200) = 3 B, a width no thread used.
TEST(ModelWalls, CastReadsLoadAndStoreWidthsApart) {
    Counters c = global_kernel(200, 600, 0);
    c["sectors_global_ld"] = 400; // 12800 / 32
    c["sectors_global_st"] = 200; // 6400 / 32
    c["bytes_global_ld"] = 12800;
    c["bytes_global_st"] = 6400;
    std::vector<std::string> missing;
    const auto w = global_wall(c, missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(*w->access_bytes_ld, 4);
    EXPECT_DOUBLE_EQ(*w->access_bytes_st, 2);
    EXPECT_DOUBLE_EQ(*w->access_bytes, 3);
    EXPECT_EQ(w->pattern, "unit"); // 200 / 600 sectors on the wall 200 / (19200 / 32)
    EXPECT_EQ(global_label(*w), "unit 4B/2B");
}

// One direction only: a load-only kernel has no store width, and the label gives the loads'.
TEST(ModelWalls, LoadOnlyKernelHasNoStoreWidth) {
    Counters c = global_kernel(0, 0, 0);
    c["inst_global_ld"] = 100;
    c["sectors_global_ld"] = 800;
    c["bytes_global_ld"] = 100 * 256; // fp64: 256 / 32 = 8 B
    std::vector<std::string> missing;
    const auto w = global_wall(c, missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(*w->access_bytes_ld, 8);
    EXPECT_FALSE(w->access_bytes_st.has_value());
    EXPECT_EQ(global_label(*w), "unit 8B");
    EXPECT_EQ(access_width(3.0, std::nullopt, std::nullopt), "3B"); // older profiles
    EXPECT_EQ(access_width(std::nullopt, std::nullopt, std::nullopt), "");
}

// Issue 40 item 9: the width is per active thread of the ld/st, not of the kernel. Half the
// kernel's threads are predicated off (inst_thread = 16000 of 32 x 1000), but its 100 fp32
// loads run full warps: the memory class counts 100 x 32 = 3200 thread ld/st, so the share is
// 3200 / (32 x 100) = 1 and the width 12800 / (32 x 100 x 1) = 4 B (with the kernel's 0.5 it
// read 8 B). Half-active loads (1600 threads) keep their 8 B: 12800 / (32 x 100 x 0.5).
TEST(ModelWalls, WidthUsesTheLoadsOwnActiveShare) {
    Counters c = global_kernel(0, 0, 0);
    c["inst_global_ld"] = 100;
    c["sectors_global_ld"] = 400;
    c["bytes_global_ld"] = 12800;
    c["inst_warp"] = 1000;
    c["inst_thread"] = 16000;
    c["thread_class_memory"] = 3200;
    std::vector<std::string> missing;
    EXPECT_DOUBLE_EQ(*global_wall(c, missing)->access_bytes_ld, 4);
    c["thread_class_memory"] = 1600;
    EXPECT_DOUBLE_EQ(*global_wall(c, missing)->access_bytes_ld, 8);
    // Atomics are in the class but not in the warp count: the share is capped at 1.
    c["thread_class_memory"] = 4000;
    EXPECT_DOUBLE_EQ(*global_wall(c, missing)->access_bytes_ld, 4);
}

// Right of the wall: 4-byte words, 2 sectors per instruction where 4 are ideal (pairs of
// threads read one word): 1/2, broadcast; one sector (all threads one word): stride-0.
TEST(ModelWalls, SharedWordsAreRightOfTheWall) {
    std::vector<std::string> missing;
    EXPECT_EQ(global_wall(global_kernel(100, 200, 100 * 128), missing)->pattern, "broadcast");
    EXPECT_EQ(global_wall(global_kernel(100, 100, 100 * 128), missing)->pattern, "stride-0");
    EXPECT_EQ(global_wall(global_kernel(100, 3200, 100 * 128), missing)->pattern, "gather");
}

// GH100 counts the requested bytes of each address of a warp access once (the H100 recording of
// stride-fp32-s0, docs/validation/h100-known-answers.md): 8192 loads of one word by all 32 lanes
// and 1024 stores by lane 0 request 8192 x 4 + 1024 x 4 = 36864 B in 9216 sectors. The wall of
// those bytes is 9216 / max(9216, 1152) = 1, where the sectors sit too, but 36864 / (32 x 9216)
// = 0.125 B per thread says the threads share words: stride-0, not unit. Byte loads (1 B a
// thread, one sector) stay unit; one word in each of two sectors a load is a broadcast.
TEST(ModelWalls, WordsCountedOnceAWarpStillReadStrideZero) {
    std::vector<std::string> missing;
    const auto w = global_wall(global_kernel(9216, 9216, 36864), missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(w->unit_intensity, 1.0);
    EXPECT_DOUBLE_EQ(*w->access_bytes, 0.125);
    EXPECT_EQ(w->pattern, "stride-0");
    EXPECT_EQ(global_label(*w), "stride-0");
    EXPECT_EQ(global_wall(global_kernel(100, 100, 100 * 32), missing)->pattern, "unit");
    EXPECT_EQ(global_wall(global_kernel(100, 200, 100 * 8), missing)->pattern, "broadcast");
    EXPECT_EQ(global_pattern(1.0, 1.0, 0.85), "unit"); // 0.85 > 1 / 2^(1/4) = 0.8409
    EXPECT_EQ(global_pattern(1.0, 1.0, 0.83), "stride-0");
}

// The band edge through the counters: 100 fp32 ld/st request 100 x 128 B = 400 ideal sectors
// (the 1/4 wall). 340 sectors read: 100 / 340 = 0.29412, inside 0.29730; 333 sectors:
// 100 / 333 = 0.30030, outside it, right of the wall.
TEST(ModelWalls, GlobalWallAtTheEdgeOfItsUnitBand) {
    std::vector<std::string> missing;
    EXPECT_EQ(global_wall(global_kernel(100, 340, 100 * 128), missing)->pattern, "unit");
    EXPECT_EQ(global_wall(global_kernel(100, 333, 100 * 128), missing)->pattern, "broadcast");
}

TEST(ModelWalls, WithoutBytesTheWallAssumesFourByteWords) {
    Counters c = global_kernel(400, 1600, 0);
    c.erase("bytes_global_ld");
    c.erase("bytes_global_st");
    std::vector<std::string> missing;
    const auto w = global_wall(c, missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(w->intensity, 0.25); // 400 / 1600
    EXPECT_DOUBLE_EQ(w->unit_intensity, 0.25);
    EXPECT_FALSE(w->access_bytes.has_value());
    EXPECT_EQ(w->pattern, "unit");
    EXPECT_EQ(global_label(*w), "unit 4B?"); // assumed, and the table says so
    ASSERT_EQ(missing.size(), 1u);
    EXPECT_EQ(missing[0], "walls.global.access_bytes: requested bytes not collected "
                          "(bytes_global_ld/st); the wall assumes 4-byte words");
}

TEST(ModelWalls, GlobalWallAbsentWithoutGlobalAccess) {
    Counters c = test::zero_counters();
    std::vector<std::string> missing;
    EXPECT_FALSE(global_wall(c, missing).has_value());
    EXPECT_EQ(missing.at(0), "walls.global: no global load/store instructions or sectors");
    c.erase("sectors_global_st");
    missing.clear();
    EXPECT_FALSE(global_wall(c, missing).has_value());
    EXPECT_EQ(missing.at(0), "walls.global: counters absent: sectors_global_st");
}

// A shared-memory kernel: `inst` LDS, `wavefronts`, `bytes` requested.
Counters shared_kernel(double inst, double wavefronts, double bytes) {
    Counters c = test::zero_counters();
    c["inst_shared_ld"] = inst;
    c["wavefronts_shared_ld"] = wavefronts;
    c["bytes_shared_ld"] = bytes;
    c["bytes_shared_st"] = 0;
    return c;
}

TEST(ModelWalls, SharedThirtyTwoWayConflict) {
    std::vector<std::string> missing;
    // Every 4-byte access serialised over 32 wavefronts: 10 x 128 B = 10 ideal wavefronts.
    const auto w = shared_wall(shared_kernel(10, 320, 10 * 128), missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(w->intensity, 1.0 / 32); // 10 / 320
    EXPECT_DOUBLE_EQ(w->conflict_ways, 32);
    EXPECT_DOUBLE_EQ(w->conflict_free_intensity, 1);
}

// Issue #18 item 5: a conflict-free 128-bit LDS needs 32 x 16 / 128 = 4 wavefronts, a 64-bit one
// 2: both are 1-way against their ideal wavefronts (the fixed 1-wavefront wall said 4 and 2).
TEST(ModelWalls, ConflictFreeWideAccessIsOneWay) {
    std::vector<std::string> missing;
    const auto w128 = shared_wall(shared_kernel(10, 40, 10 * 512), missing);
    ASSERT_TRUE(w128.has_value());
    EXPECT_DOUBLE_EQ(w128->intensity, 0.25);
    EXPECT_DOUBLE_EQ(w128->conflict_ways, 1);
    EXPECT_DOUBLE_EQ(w128->conflict_free_intensity, 0.25);
    EXPECT_DOUBLE_EQ(*w128->access_bytes, 16);
    const auto w64 = shared_wall(shared_kernel(10, 20, 10 * 256), missing);
    EXPECT_DOUBLE_EQ(w64->conflict_ways, 1);
    // A 2-way conflicted 64-bit access: 40 wavefronts against 20 ideal.
    EXPECT_DOUBLE_EQ(shared_wall(shared_kernel(10, 40, 10 * 256), missing)->conflict_ways, 2);
    EXPECT_TRUE(missing.empty());
}

// LDSM wavefronts are in the ld wavefronts: its instructions and bytes count too. 10 LDS (4 B,
// 10 wavefronts) + 10 LDSM.x4 (512 B, 4 wavefronts each): 20 / 50, ideal 10 + 40 = 50, 1-way.
TEST(ModelWalls, LdsmCountsInTheSharedWall) {
    Counters c = shared_kernel(10, 50, 10 * 128);
    c["inst_ldsm"] = 10;
    c["bytes_shared_ldsm"] = 10 * 512;
    std::vector<std::string> missing;
    const auto w = shared_wall(c, missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(w->intensity, 20.0 / 50);
    EXPECT_DOUBLE_EQ(w->conflict_ways, 1);
}

TEST(ModelWalls, SharedConflictFreeWithoutBytes) {
    Counters c = test::zero_counters();
    c["inst_shared_ld"] = 8;
    c["inst_shared_st"] = 2;
    c["wavefronts_shared_ld"] = 8;
    c["wavefronts_shared_st"] = 2;
    std::vector<std::string> missing;
    const auto w = shared_wall(c, missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(w->intensity, 1); // 10 / 10
    EXPECT_DOUBLE_EQ(w->conflict_ways, 1);
    EXPECT_EQ(missing.at(0), "walls.shared.access_bytes: requested bytes not collected "
                             "(bytes_shared_ld/st); the wall assumes 4-byte words");
    EXPECT_DOUBLE_EQ(conflict_ways(40, 10), 4);           // 4 wavefronts per ideal one
    EXPECT_DOUBLE_EQ(conflict_ways(5, 10), 1);            // clamped
    EXPECT_DOUBLE_EQ(ideal_transactions(10, 0, 128), 10); // at least one per instruction
}

// Issue 53 item 5: a file's own bank-conflict counts win over the 4-byte assumption. The public
// A100 export's ampere_sgemm_128x128_tn: 26,624 + 6,272 shared instructions, 45,056 + 20,608
// wavefronts, 0 load and 8,192 store conflicts: 65,664 / (65,664 - 8,192) = 1.1425-way, not the
// 2.0-way of wavefronts per instruction.
TEST(ModelWalls, TheFilesBankConflictCountsGiveTheWays) {
    Counters c = test::zero_counters();
    c["inst_shared_ld"] = 26624;
    c["inst_shared_st"] = 6272;
    c["wavefronts_shared_ld"] = 45056;
    c["wavefronts_shared_st"] = 20608;
    std::vector<std::string> missing;
    EXPECT_NEAR(shared_wall(c, missing)->conflict_ways, 65664.0 / 32896, 1e-12); // 4 B assumed
    c["bank_conflicts_shared_ld"] = 0;
    c["bank_conflicts_shared_st"] = 8192;
    missing.clear();
    const auto w = shared_wall(c, missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(w->intensity, 32896.0 / 65664);
    EXPECT_DOUBLE_EQ(w->conflict_ways, 65664.0 / 57472);
    EXPECT_DOUBLE_EQ(w->conflict_free_intensity, 32896.0 / 57472);
    EXPECT_TRUE(w->conflicts_measured);
    EXPECT_TRUE(missing.empty()) << missing.at(0); // no "assumes 4-byte words"
}

TEST(ModelWalls, HalfPredicatedKernel) {
    Counters c = test::zero_counters();
    c["inst_warp"] = 100;
    c["inst_thread"] = 1600; // 16 of 32 threads active on average
    std::vector<std::string> missing;
    EXPECT_DOUBLE_EQ(*predication(c, missing), 0.5); // 1600 / (32 x 100)
}

TEST(ModelWalls, PredicationAbsentOrInconsistent) {
    Counters c = test::zero_counters();
    std::vector<std::string> missing;
    EXPECT_FALSE(predication(c, missing).has_value()); // 0 / 0
    c["inst_warp"] = 1;
    c["inst_thread"] = 64; // more than 32 threads per warp instruction
    EXPECT_FALSE(predication(c, missing).has_value());
    c.erase("inst_thread");
    EXPECT_FALSE(predication(c, missing).has_value());
    ASSERT_EQ(missing.size(), 3u);
    EXPECT_EQ(missing[2], "predication: counters absent: inst_thread");
}

// Shared: 10 LDS.128 (512 B each) and 10 STS.32 (128 B): 16 B and 4 B per thread.
TEST(ModelWalls, SharedWidthsPerDirection) {
    Counters c = shared_kernel(10, 50, 10 * 512);
    c["inst_shared_st"] = 10;
    c["wavefronts_shared_st"] = 10;
    c["bytes_shared_st"] = 10 * 128;
    std::vector<std::string> missing;
    const auto w = shared_wall(c, missing);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(*w->access_bytes_ld, 16); // 5120 / (32 x 10)
    EXPECT_DOUBLE_EQ(*w->access_bytes_st, 4);  // 1280 / (32 x 10)
}

} // namespace
} // namespace test_walls
} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// unit test (no GPU): each known-answer case's walls, worked out by hand below from the app's
// access pattern, are what model/ derives from the case's expected counts and what
// expected.json states, so a gpu test failure points at the measurement, not at a disagreement
// between the known answers and the model. The verdicts are stated here, not computed: a copy of
// the model's rules would agree with the model whatever the rules said.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "model/roofline/walls.hpp"
#include "tests/gpu/expected_cases.hpp"

namespace irf::test {
namespace test_expected_vs_model {
namespace {

model::Counters counters_of(const ExpectedCase& c) {
    model::Counters out;
    for (const auto& [name, value] : c.counts) {
        out[name] = value;
    }
    return out;
}

/// The case `id` of expected.json; a failure (and nullptr) when it is missing.
const ExpectedCase* find_case(const std::string& id) {
    for (const ExpectedCase& c : expected_cases()) {
        if (c.id == id) {
            return &c;
        }
    }
    ADD_FAILURE() << "expected.json has no case " << id;
    return nullptr;
}

struct HandGlobalWall {
    const char* id;
    const char* pattern;
    double intensity;
};

// Stride app (apps/ka_stride.cu): per warp 8 loads of word l x stride by lane l and one store by
// lane 0 (1 sector). A load touches min(32, stride x word x 32 / 32) sectors, 1 at stride 0.
// Unit walls (docs/model.md: instructions / max(instructions, bytes / 32)): fp32 requests
// 8 x 128 + 4 = 1028 B = 32.125 sectors for 9 instructions: 9 / 32.125 = 0.2802, band
// [0.2356, 0.3332]; fp64 8 x 256 + 8 = 2056 B = 64.25 sectors: 0.14008, band [0.11779, 0.16659].
// Stride-0 from 1 / 2^(1/4) = 0.8409; gather up to 2^(1/4) / 32 = 0.03716. At stride 0 the
// bytes count each warp's word once (GH100): 8 x 4 + 4 = 36 B, 0.125 B a thread (fp64 0.25),
// below 1 byte: the threads share words.
// Transposes (32 x 8 threads, 4 rows a warp): loads 4 sectors, stores 4 (tiled, padded) or 32
// (naive, 4096 B apart a lane); every access requests 128 B, so the unit wall is 1/4.
// Triad: 2 loads + 1 store of 4 sectors and 128 B each: 3 / 12 on the 1/4 wall.
const std::vector<HandGlobalWall>& hand_global_walls() {
    static const std::vector<HandGlobalWall> walls = {
        {"stride-fp32-s0", "stride-0", 9.0 / 9},  // 8 x 1 + 1 sectors: 1 >= 0.8409
        {"stride-fp32-s1", "unit", 9.0 / 33},     // 8 x 4 + 1: 0.2727 in [0.2356, 0.3332]
        {"stride-fp32-s2", "strided", 9.0 / 65},  // 8 x 8 + 1: 0.1385 < 0.2356
        {"stride-fp32-s4", "strided", 9.0 / 129}, // 8 x 16 + 1: 0.0698 > 0.03716
        {"stride-fp32-s8", "gather", 9.0 / 257},  // 8 x 32 + 1: 0.03502 <= 0.03716
        {"stride-fp32-s32", "gather", 9.0 / 257}, // 32 sectors at most: as stride 8
        {"stride-fp64-s0", "stride-0", 9.0 / 9},
        {"stride-fp64-s1", "unit", 9.0 / 65},     // 8 x 8 + 1: 0.1385 in [0.11779, 0.16659]
        {"stride-fp64-s2", "strided", 9.0 / 129}, // 8 x 16 + 1: 0.0698 < 0.11779
        {"stride-fp64-s4", "gather", 9.0 / 257},  // 8 x 32 + 1: 0.03502
        {"stride-fp64-s8", "gather", 9.0 / 257},
        {"stride-fp64-s32", "gather", 9.0 / 257},
        {"transpose-naive", "strided", 2.0 / 36}, // 0.0556: left of 1/4, right of 0.03716
        {"transpose-tiled", "unit", 2.0 / 8},
        {"transpose-padded", "unit", 2.0 / 8},
        {"stream-triad", "unit", 3.0 / 12},
        {"demo-transpose_naive", "strided", 2.0 / 36},
        {"demo-transpose_padded", "unit", 2.0 / 8},
    };
    return walls;
}

struct HandConflict {
    const char* id;
    double ways;
};

// Bank app (apps/ka_bank.cu): per warp 4 conflict-free stores (1 wavefront each) and 64 word
// loads, which nvcc 13 issues as n instructions (n - 64 of them LDS.64, expected_gen.py:
// BANK_LDS64) of k wavefronts each; the ideal is the bytes / 128, 4 + 64 = 68 wavefronts:
// ways = (4 + n k) / 68. An LDS.64 at k = 2 reads 256 contiguous bytes in its ideal 2 wavefronts.
// Transposes: one conflict-free row store and one column load a row, 32 wavefronts at pitch 32
// (tiled), 1 at pitch 33 (padded): (32 + 1) / 2 = 16.5 (IRM's "16-way", docs/model.md) and 1.
const std::vector<HandConflict>& hand_conflicts() {
    static const std::vector<HandConflict> conflicts = {
        {"bank-ways1", 68.0 / 68},          // n = 64: 4 + 64 = 68
        {"bank-ways2", 102.0 / 68},         // n = 49: 4 + 98 = 102: 1.5
        {"bank-ways4", 204.0 / 68},         // n = 50: 4 + 200 = 204: 3.0
        {"bank-ways8", 420.0 / 68},         // n = 52: 4 + 416 = 420: 6.176
        {"bank-ways16", 900.0 / 68},        // n = 56: 4 + 896 = 900: 13.235
        {"bank-ways32", 2052.0 / 68},       // n = 64: 4 + 2048 = 2052: 30.176
        {"transpose-tiled", 33.0 / 2},      // column load 32 + row store 1, over 2
        {"transpose-padded", 2.0 / 2},      // 1 + 1 over 2
        {"demo-transpose_padded", 2.0 / 2}, // the demo's padded transpose: the same
    };
    return conflicts;
}

TEST(ExpectedVsModel, GlobalWallsOfTheExpectedCountsAreTheHandStatedVerdicts) {
    for (const HandGlobalWall& hand : hand_global_walls()) {
        SCOPED_TRACE(hand.id);
        const ExpectedCase* c = find_case(hand.id);
        if (c == nullptr) {
            continue;
        }
        std::vector<std::string> missing;
        const auto wall = model::global_wall(counters_of(*c), missing);
        ASSERT_TRUE(wall.has_value()) << (missing.empty() ? "" : missing.front());
        EXPECT_EQ(wall->pattern, hand.pattern);
        EXPECT_NEAR(wall->intensity, hand.intensity, 1e-12);
        EXPECT_EQ(c->verdict.value("global_pattern", ""), hand.pattern);
        EXPECT_NEAR(c->verdict.value("global_intensity", -1.0), hand.intensity, 1e-12);
    }
}

TEST(ExpectedVsModel, SharedWallsOfTheExpectedCountsAreTheHandStatedDegrees) {
    for (const HandConflict& hand : hand_conflicts()) {
        SCOPED_TRACE(hand.id);
        const ExpectedCase* c = find_case(hand.id);
        if (c == nullptr) {
            continue;
        }
        std::vector<std::string> missing;
        const auto wall = model::shared_wall(counters_of(*c), missing);
        ASSERT_TRUE(wall.has_value()) << (missing.empty() ? "" : missing.front());
        EXPECT_NEAR(wall->conflict_ways, hand.ways, 1e-9);
        EXPECT_NEAR(c->verdict.value("shared_conflict_ways", -1.0), hand.ways, 1e-9);
    }
}

// A case added to expected.json with a wall verdict needs its hand-stated line above.
TEST(ExpectedVsModel, EveryWallVerdictOfExpectedJsonIsStatedByHand) {
    for (const ExpectedCase& c : expected_cases()) {
        bool global = false;
        bool shared = false;
        for (const HandGlobalWall& hand : hand_global_walls()) {
            global = global || c.id == hand.id;
        }
        for (const HandConflict& hand : hand_conflicts()) {
            shared = shared || c.id == hand.id;
        }
        EXPECT_EQ(c.verdict.contains("global_pattern"), global) << c.id;
        EXPECT_EQ(c.verdict.contains("shared_conflict_ways"), shared) << c.id;
    }
}

} // namespace
} // namespace test_expected_vs_model
} // namespace irf::test

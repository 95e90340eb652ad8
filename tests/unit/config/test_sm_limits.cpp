// SPDX-License-Identifier: Apache-2.0
// Unit tests of the residency limits by compute capability (config/sm_limits.cpp; docs/ceilings.md,
// "SM limits") and of the validation-only entries of the public replays, whose writer
// (scripts/gpu_entry_specs.py) keeps the same rows: the two must not drift apart.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "config/ceilings_yaml.hpp"
#include "config/sm_limits.hpp"

namespace irf::config {
namespace test_sm_limits {
namespace {

namespace fs = std::filesystem;

// The columns every row below shares: warps and blocks an SM, shared memory a block, 256 B units.
void expect_row(const char* cc, int warps, int blocks, int shared_block) {
    const auto l = sm_limits_for_cc(cc);
    ASSERT_TRUE(l.has_value()) << cc;
    EXPECT_EQ(l->max_warps_per_sm, warps) << cc;
    EXPECT_EQ(l->max_blocks_per_sm, blocks) << cc;
    EXPECT_EQ(l->shared_bytes_per_block, shared_block) << cc;
    EXPECT_EQ(l->shared_alloc_unit, 256) << cc;
}

// Maxwell (5.2) and Pascal (6.1) rows, which the derived ceilings of an old nvprof export take:
// the programming guide's table gives both 2048 threads (64 warps) and 32 blocks an SM, 96 KB of
// shared memory an SM, 48 KB a block, nothing reserved a block, 256 B units.
TEST(SmLimits, MaxwellAndPascalAreTheGuidesRows) {
    for (const char* cc : {"5.2", "6.1"}) {
        expect_row(cc, 64, 32, 49152);
        EXPECT_EQ(sm_limits_for_cc(cc).value().shared_bytes_per_sm, 98304) << cc;
        EXPECT_EQ(sm_limits_for_cc(cc).value().shared_reserved_per_block, 0) << cc;
    }
    EXPECT_FALSE(sm_limits_for_cc("2.0").has_value()); // Fermi: no row, no waves
}

// Kepler rows (an nvprof export from a K80 cluster, the public Kepler replays): 2048 threads and
// 16 blocks an SM, 48 KB of shared memory an SM and a block (cc 3.7: 112 KB an SM), 64 K
// registers (cc 3.7: 128 K), at most 63 a thread on cc 3.0 and 255 after.
TEST(SmLimits, KeplerAreTheGuidesRows) {
    for (const char* cc : {"3.0", "3.5", "3.7"}) {
        expect_row(cc, 64, 16, 49152);
    }
    EXPECT_EQ(sm_limits_for_cc("3.0").value().max_registers_per_thread, 63);
    EXPECT_EQ(sm_limits_for_cc("3.5").value().max_registers_per_thread, 255);
    EXPECT_EQ(sm_limits_for_cc("3.5").value().registers_per_sm, 65536);
    EXPECT_EQ(sm_limits_for_cc("3.5").value().shared_bytes_per_sm, 49152);
    EXPECT_EQ(sm_limits_for_cc("3.7").value().registers_per_sm, 131072);
    EXPECT_EQ(sm_limits_for_cc("3.7").value().shared_bytes_per_sm, 114688);
}

// Every public replay's entry (tests/data/projection-public/*/ceilings) carries its compute
// capability's row exactly, or none where there is no row.
TEST(SmLimits, ThePublicReplaysEntriesCarryTheTablesRows) {
    const fs::path root = fs::path(IRF_SOURCE_DIR) / "tests" / "data" / "projection-public";
    int checked = 0;
    for (const auto& set : fs::directory_iterator(root)) {
        const fs::path dir = set.path() / "ceilings";
        if (!fs::is_directory(dir)) {
            continue;
        }
        for (const auto& file : fs::directory_iterator(dir)) {
            if (file.path().extension() != ".yaml") {
                continue;
            }
            SCOPED_TRACE(file.path().string());
            const Ceilings c = load_ceilings_file(file.path().string());
            const auto expected = sm_limits_for_cc(c.gpu.cc);
            ASSERT_EQ(c.gpu.sm_limits.has_value(), expected.has_value()) << c.gpu.cc;
            if (expected) {
                for (const auto& [name, member] : sm_limit_fields()) {
                    EXPECT_EQ((*c.gpu.sm_limits).*member, (*expected).*member) << name;
                }
            }
            ++checked;
        }
    }
    EXPECT_GE(checked, 11); // gpuperfpredict's 9 and magus's 2
}

} // namespace
} // namespace test_sm_limits
} // namespace irf::config

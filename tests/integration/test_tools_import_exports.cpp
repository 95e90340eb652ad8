// SPDX-License-Identifier: Apache-2.0
// irf-report import on more public exports, of other ncu versions and GPUs (issue 53 item 12;
// tests/data/import/README.md): each is read as the file says, the figures worked out by hand
// from the file and from the kernel's own arithmetic.
#include "tests/integration/tools_import_support.hpp"

namespace {

using irf::test::has_note;
using nlohmann::json;

using ToolsImportExports = irf::test::ImportTest;

// The one kernel of a one-kernel fixture.
const json& only_kernel(const json& profile) {
    EXPECT_EQ(profile.at("kernels").size(), 1u);
    return profile.at("kernels").at(0);
}

bool warns(const json& profile, const std::string& needle) {
    for (const json& w : profile.at("warnings")) {
        if (w.get<std::string>().find(needle) != std::string::npos) {
            return true;
        }
    }
    return false;
}

TEST_F(ToolsImportExports, Ncu2026Rtx5070SaxpyReadsGb20xDramBytesAndItsUnnamedScope) {
    // ncu 2026.2.1 on Windows (UTF-8 BOM, CRLF, the program's output before the table, units
    // "ns" and "byte"), a GeForce RTX 5070 (cc 12.0): saxpy y = a x + y over 65,536 x 256 =
    // 16,777,216 floats.
    const json p = import({"ncu-long-2026-rtx5070-saxpy.csv"});
    const json& k = only_kernel(p);
    // The file's "unnamed>::" is ncu's "<unnamed>::" (an anonymous namespace) with its '<'
    // lost; read as such, the kernel is shown by its own name.
    EXPECT_EQ(k.at("name"), "<unnamed>::saxpy_kernel(float, const float *, float *, int)");
    EXPECT_EQ(k.at("display_name"), "saxpy_kernel");
    EXPECT_TRUE(has_note(k, "read as ncu's '<unnamed>::'"));
    EXPECT_EQ(k.at("launch").at("grid"), json::array({65536, 1, 1}));
    EXPECT_EQ(k.at("launch").at("block"), json::array({256, 1, 1}));
    EXPECT_DOUBLE_EQ(k.at("time_ns").at("total").get<double>(), 292928);
    const json& c = k.at("counters");
    // Loads of x and y: 2 x 16,777,216 x 4 B = 134,217,728 B = 4,194,304 sectors; stores of y:
    // 2,097,152 sectors.
    EXPECT_DOUBLE_EQ(c.at("sectors_global_ld").get<double>(), 2.0 * 16777216 * 4 / 32);
    EXPECT_DOUBLE_EQ(c.at("sectors_global_st").get<double>(), 16777216.0 * 4 / 32);
    // GB20x names DRAM bytes dram__bytes_op_read/write.sum: 134,221,568 B = 4,194,424 sectors
    // read (the loads and 3,840 B more), 43,631,104 B = 1,363,472 sectors written.
    EXPECT_DOUBLE_EQ(c.at("dram_sectors_read").get<double>(), 134221568.0 / 32);
    EXPECT_DOUBLE_EQ(c.at("dram_sectors_write").get<double>(), 43631104.0 / 32);
    EXPECT_FALSE(warns(p, "dram__bytes_op_read.sum"));
    // No instruction counters and no SM count: the GPU is cc 12.0 and nothing is analysed.
    EXPECT_EQ(p.at("gpu").at("cc"), "12.0");
    EXPECT_FALSE(k.contains("analysis"));
}

} // namespace

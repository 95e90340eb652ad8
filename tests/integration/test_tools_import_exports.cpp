// SPDX-License-Identifier: Apache-2.0
// irf-report import on more public exports, of other ncu versions and GPUs (issue 53 item 12;
// tests/data/import/README.md): each is read as the file says, the figures worked out by hand
// from the file and from the kernel's own arithmetic.
#include "tests/integration/tools_import_support.hpp"

namespace test_tools_import_exports {
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

TEST_F(ToolsImportExports, Ncu2026Rtx5070TiledGemmSectorsAreTheTilingsArithmetic) {
    // The same tool's run of a 32 x 32 shared-memory tiled FP32 GEMM: grid 64 x 64 of 32 x 32
    // threads, so N = 2048.
    const json p = import({"ncu-long-2026-rtx5070-gemm-tiled.csv"});
    const json& k = only_kernel(p);
    EXPECT_EQ(k.at("name"), "void <unnamed>::gemm_tiled_kernel<32>(const float *, const float "
                            "*, float *, int, int, int)");
    EXPECT_EQ(k.at("launch").at("grid"), json::array({64, 64, 1}));
    EXPECT_DOUBLE_EQ(k.at("time_ns").at("total").get<double>(), 10195552);
    const json& c = k.at("counters");
    // Each of the N^2 threads loads one float of A and one of B per step of 32 along k, N/32
    // steps: 2 x N^2 x N/32 x 4 B = 2 GiB = 67,108,864 sectors; C is written once: N^2 x 4 B =
    // 524,288 sectors.
    const double n = 2048;
    EXPECT_DOUBLE_EQ(c.at("sectors_global_ld").get<double>(), 2 * n * n * (n / 32) * 4 / 32);
    EXPECT_DOUBLE_EQ(c.at("sectors_global_st").get<double>(), n * n * 4 / 32);
    EXPECT_DOUBLE_EQ(c.at("dram_sectors_read").get<double>(), 53261312.0 / 32);
    EXPECT_DOUBLE_EQ(c.at("dram_sectors_write").get<double>(), 3377920.0 / 32);
    // ncu's bank-conflict total without its load/store split is not used, and says so.
    EXPECT_TRUE(warns(p, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"));
    EXPECT_FALSE(c.contains("bank_conflicts_shared_ld"));
}

TEST_F(ToolsImportExports, Ncu2026Rtx5070NaiveTransposeStoresASectorPerThread) {
    // A naive 2048 x 2048 FP32 transpose, grid 64 x 64 of 32 x 32 threads: a warp reads 32
    // consecutive floats of a row (4 sectors) and writes them down a column, 2048 floats apart
    // (32 sectors, one per thread).
    const json p = import({"ncu-long-2026-rtx5070-transpose-naive.csv"});
    const json& k = only_kernel(p);
    EXPECT_EQ(k.at("name"), "<unnamed>::transpose_naive_kernel(const float *, float *, int, int)");
    EXPECT_EQ(k.at("display_name"), "transpose_naive_kernel");
    EXPECT_DOUBLE_EQ(k.at("time_ns").at("total").get<double>(), 163072);
    const double warps = 2048.0 * 2048 / 32;
    const json& c = k.at("counters");
    EXPECT_DOUBLE_EQ(c.at("sectors_global_ld").get<double>(), warps * 4);
    EXPECT_DOUBLE_EQ(c.at("sectors_global_st").get<double>(), warps * 32);
    EXPECT_DOUBLE_EQ(c.at("dram_sectors_read").get<double>(), 19001600.0 / 32);
    EXPECT_DOUBLE_EQ(c.at("dram_sectors_write").get<double>(), 4399616.0 / 32);
}

TEST_F(ToolsImportExports, Ncu2026Rtx5070NaiveGemmLoadsFiveSectorsPerWarpAndStep) {
    // A naive FP32 GEMM, N = 2048, one thread per element of C (threadIdx.x the column): at
    // each of the N steps along k a warp reads one A element (the same address for its 32
    // threads: 1 sector) and 32 consecutive B elements (4 sectors).
    const json p = import({"ncu-long-2026-rtx5070-gemm-naive.csv"});
    const json& k = only_kernel(p);
    EXPECT_EQ(k.at("display_name"), "gemm_naive_kernel");
    EXPECT_DOUBLE_EQ(k.at("time_ns").at("total").get<double>(), 9589248);
    const double n = 2048;
    const double warps = n * n / 32;
    const json& c = k.at("counters");
    EXPECT_DOUBLE_EQ(c.at("sectors_global_ld").get<double>(), warps * n * (1 + 4));
    EXPECT_DOUBLE_EQ(c.at("sectors_global_st").get<double>(), warps * 4);
    EXPECT_DOUBLE_EQ(c.at("dram_sectors_read").get<double>(), 54207744.0 / 32);
}

TEST_F(ToolsImportExports, Ncu2026Rtx5070TiledTransposeCoalescesBothSides) {
    // The transpose through a 32 x 32 shared tile: a warp reads a row segment and writes a row
    // segment, 4 sectors each; ncu's 40,532 bank conflicts have no load/store split and are
    // named as unused.
    const json p = import({"ncu-long-2026-rtx5070-transpose-tiled.csv"});
    const json& k = only_kernel(p);
    EXPECT_EQ(k.at("name"), "void <unnamed>::transpose_tiled_kernel<32>(const float *, float *, "
                            "int, int)");
    EXPECT_DOUBLE_EQ(k.at("time_ns").at("total").get<double>(), 85824);
    const double warps = 2048.0 * 2048 / 32;
    const json& c = k.at("counters");
    EXPECT_DOUBLE_EQ(c.at("sectors_global_ld").get<double>(), warps * 4);
    EXPECT_DOUBLE_EQ(c.at("sectors_global_st").get<double>(), warps * 4);
    EXPECT_DOUBLE_EQ(c.at("dram_sectors_write").get<double>(), 13000960.0 / 32);
    EXPECT_TRUE(warns(p, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"));
}

TEST_F(ToolsImportExports, Ncu2025Cc10DetailsPageGivesTheSmCountFromLaunchStatistics) {
    // ncu 2025 details page (default sections and their rules; metric rows end after their
    // value) of a cuBLASLt FP8 GEMM on a cc 10.0 GPU; units "hz", "ns", "byte/block".
    const std::vector<std::string> args{
        "import",    irf::test::s_import_data + "ncu-long-2025-cc10-cublaslt-rules.csv",
        "-o",        out().string(),
        "--targets", "none"};
    const irf::test::ProcessResult r = irf::test::run_report(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // No device name: the ceilings are derived from cc 10.0 and the 152 SMs, and say so.
    EXPECT_NE(r.err.find("ceilings derived from what the files say"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("no shipped ceilings for an unnamed GPU (cc 10.0, 152 SMs)"),
              std::string::npos)
        << r.err;
    const json p = json::parse(irf::test::read_file(out()));
    EXPECT_FALSE(warns(p, "not analysed"));
    const json& k = only_kernel(p);
    EXPECT_EQ(k.at("launch").at("grid"), json::array({9, 32, 1}));
    EXPECT_EQ(k.at("launch").at("block"), json::array({384, 1, 1}));
    EXPECT_EQ(k.at("launch").at("regs"), 168);
    // Dynamic 205,696 B + static 0 B per block (the driver's 1,024 B is not the kernel's).
    EXPECT_EQ(k.at("launch").at("smem"), 205696);
    // Duration 406,240 ns; SM Frequency 1,239,496,049.13 hz.
    EXPECT_DOUBLE_EQ(k.at("time_ns").at("total").get<double>(), 406240);
    EXPECT_DOUBLE_EQ(k.at("counters").at("clock_hz").get<double>(), 1239496049.13);
    // Launch Statistics' "# SMs" is the device's SM count.
    EXPECT_EQ(p.at("gpu").at("sms"), 152);
    EXPECT_EQ(p.at("gpu").at("cc"), "10.0");
    // 168 registers x 384 threads = 64,512 of the SM's 65,536: one block per SM. 9 x 32 = 288
    // blocks on 152 SMs: 1 full wave and a tail of 288 - 152 = 136 blocks, as the file's own
    // LaunchConfiguration rule says ("1 full waves and a partial wave of 136 thread blocks").
    const json& waves = k.at("analysis").at("waves");
    EXPECT_EQ(waves.at("blocks"), 288);
    EXPECT_EQ(waves.at("blocks_per_sm"), 1);
    EXPECT_EQ(waves.at("limiter"), "registers");
    EXPECT_EQ(waves.at("full_waves"), 1);
    EXPECT_EQ(waves.at("tail_blocks"), 136);
}

} // namespace
} // namespace test_tools_import_exports

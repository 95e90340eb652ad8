// SPDX-License-Identifier: Apache-2.0
// irf-report import as a program: each format imports and analyses, the Instruction Roofline of
// an imported file equals IRM's definitions computed by hand from that file, several files
// join, and bad input is one line (file:line:column), exit 2, nothing written.
#include "tests/integration/tools_import_support.hpp"

namespace test_tools_import {
namespace {

using irf::test::has_note;
using irf::test::ProcessResult;
using nlohmann::json;

const std::string& s_data = irf::test::s_import_data;

ProcessResult report(const std::vector<std::string>& args) {
    return irf::test::run_report(args);
}

using ToolsImport = irf::test::ImportTest;

TEST_F(ToolsImport, NcuLongFormGivesIrmNumbersComputedByHandFromTheFile) {
    // tests/data/import/ncu-long-h100.csv: two launches of one kernel (CRLF, program output and
    // ==PROF== lines before the table, thousands separators, Mbyte and usecond units, n/a).
    const json p = import({"ncu-long-h100.csv"});
    EXPECT_EQ(p.at("gpu").at("name"), "NVIDIA H100 SXM5 80GB"); // Device "H100 80GB HBM3"
    EXPECT_EQ(p.at("import").at("tool"), "ncu");
    EXPECT_EQ(p.at("import").at("formats").at(0), "ncu-csv-long");
    const json& k = p.at("kernels").at(0);
    EXPECT_EQ(k.at("name"), "void transpose<float, 32>(float*, const float*, int, int)");
    EXPECT_EQ(k.at("launch").at("grid"), json::array({1024, 1, 1}));
    EXPECT_EQ(k.at("launch").at("regs"), 32);
    EXPECT_EQ(k.at("profiled_launches"), 2);
    // Duration "20.48" usecond and "20,480" nsecond: 2 x 20480 ns.
    EXPECT_DOUBLE_EQ(k.at("time_ns").at("total").get<double>(), 40960);
    const json& c = k.at("counters");
    // dram__bytes_read.sum 16.78 Mbyte per launch: 2 x 16.78e6 / 32 = 1,048,750 sectors.
    EXPECT_DOUBLE_EQ(c.at("dram_sectors_read").get<double>(), 1048750);
    EXPECT_FALSE(c.contains("bytes_global_ld")); // n/a stays absent
    const json& irm = k.at("analysis").at("irm");
    // IRM Eq. 2: 4,194,304 warp inst / 20,480 ns = 204.8 GIPS;
    // thread: 125,829,120 / 32 / 20,480 = 192 GIPS.
    EXPECT_DOUBLE_EQ(irm.at("gips_warp").get<double>(), 204.8);
    EXPECT_DOUBLE_EQ(irm.at("gips_thread").get<double>(), 192);
    // L1: 4,194,304 / (1,048,576 + 8,388,608 + 0 local + 4 x 0 shared) = 4/9;
    // L2: 4,194,304 / (1,048,576 + 1,048,576) = 2;
    // HBM: 4,194,304 / ((16.78e6 + 33.55e6) / 32 = 1,572,812.5) = 2.666754.
    EXPECT_NEAR(irm.at("ii").at("l1").get<double>(), 4.0 / 9, 1e-12);
    EXPECT_NEAR(irm.at("ii").at("l2").get<double>(), 2, 1e-12);
    EXPECT_NEAR(irm.at("ii").at("hbm").get<double>(), 4194304 / 1572812.5, 1e-9);
    // h100-sxm5: 1045.4 warp GIPS; HBM 3352.3 GB/s / 32 = 104.759 GTXN/s, x 2.666754 = 279.37
    // GIPS, below L1 (33454.1 / 32 x 4/9 = 464.64) and L2 (10300 / 32 x 2 = 643.75): HBM bound,
    // 204.8 / 279.37 = 73.31% of the roofline.
    EXPECT_EQ(irm.at("bound"), "hbm");
    EXPECT_NEAR(irm.at("roofline_gips").at("hbm").get<double>(), 3352.3 / 32 * 4194304 / 1572812.5,
                1e-9);
    EXPECT_NEAR(irm.at("roofline_gips").at("l1").get<double>(), 33454.1 / 32 * 4 / 9, 1e-9);
    EXPECT_NEAR(irm.at("roofline_pct").get<double>(),
                100 * 204.8 / (3352.3 / 32 * 4194304 / 1572812.5), 1e-9);
    // Global wall: (262,144 + 262,144) / (1,048,576 + 8,388,608) = 1/18 warp ld/st per sector.
    const json& wall = k.at("analysis").at("walls").at("global");
    EXPECT_NEAR(wall.at("intensity").get<double>(), 1.0 / 18, 1e-12);
    EXPECT_TRUE(wall.at("access_bytes").is_null()); // requested bytes were n/a
}

TEST_F(ToolsImport, PublicNcu2022ExportOfABertStepOnA100ReadsAsRecorded) {
    // tests/data/import/ncu-long-2022-a100-bert.csv: an excerpt of a public export recorded on
    // an A100 (source in tests/data/import/README.md). Its quirks: metric rows are short by the
    // three rule columns, the launch is in Launch Statistics rows (no size columns), there is no
    // duration (NERSC's metric list), and names are ncu's ("[lambda(int) (instance 1)]").
    const json p = import({"ncu-long-2022-a100-bert.csv"}, {"--gpu", "a100-sxm4-40gb"});
    ASSERT_EQ(p.at("kernels").size(), 4u);
    std::vector<std::string> names;
    for (const json& k : p.at("kernels")) {
        names.push_back(k.at("display_name"));
    }
    EXPECT_NE(std::find(names.begin(), names.end(), "elementwise_kernel<add>"), names.end());
    EXPECT_NE(std::find(names.begin(), names.end(), "elementwise_kernel<direct_copy>"),
              names.end());
    const auto sgemm = std::find_if(p.at("kernels").begin(), p.at("kernels").end(), [](auto& k) {
        return k.at("name") == "ampere_sgemm_128x128_tn";
    });
    ASSERT_NE(sgemm, p.at("kernels").end());
    const json& k = *sgemm;
    EXPECT_EQ(k.at("launch").at("grid"), json::array({16, 1, 1}));   // "Grid Size" 16
    EXPECT_EQ(k.at("launch").at("block"), json::array({256, 1, 1})); // "Block Size" 256
    EXPECT_EQ(k.at("launch").at("regs"), 118);
    // 17,202.41 cycles / 1,058,218,959.61 cycles per second = 16,256.0 ns.
    EXPECT_NEAR(k.at("time_ns").at("total").get<double>(), 17202.41 / 1058218959.61 * 1e9, 1e-6);
    const json& flops = k.at("analysis").at("flops");
    // 2 x 8,388,608 FFMA + 262,144 FMUL = 17,039,360 FP32 FLOPs; / 16,256.0 ns = 1048.19 GFLOP/s.
    EXPECT_DOUBLE_EQ(flops.at("fp32").get<double>(), 17039360);
    EXPECT_NEAR(flops.at("gflops").get<double>(), 17039360 / (17202.41 / 1058218959.61) / 1e9,
                1e-6);
    // HBM: dram__bytes.sum 82,176 B -> 207.35 FLOP/B; L2: lts__t_bytes.sum 532,992 B -> 31.97;
    // L1: (112,640 B / 32 = 3,520 sectors + 4 x (45,056 + 20,608) shared wavefronts) x 32 B =
    // 8,517,632 B -> 2.0005 FLOP/B.
    EXPECT_NEAR(flops.at("ai").at("hbm").get<double>(), 17039360.0 / 82176, 1e-9);
    EXPECT_NEAR(flops.at("ai").at("l2").get<double>(), 17039360.0 / 532992, 1e-9);
    EXPECT_NEAR(flops.at("ai").at("l1").get<double>(), 17039360.0 / 8517632, 1e-9);
    // Shared wall (IRM): (26,624 + 6,272) sass__ shared ld/st / (45,056 + 20,608) wavefronts.
    const json& shared = k.at("analysis").at("walls").at("shared");
    EXPECT_NEAR(shared.at("intensity").get<double>(), 32896.0 / 65664, 1e-12);
    EXPECT_TRUE(k.at("analysis").at("irm").is_null()); // no warp instruction counters
}

TEST_F(ToolsImport, NvprofMetricsAndGpuSummaryJoinIntoThePapersV100Workflow) {
    // IRM 3.2: metrics from nvprof --metrics, run time from a separate --print-gpu-summary run.
    const json p = import({"nvprof-metrics-v100.csv", "nvprof-gpu-summary-v100.csv"});
    EXPECT_EQ(p.at("import").at("files").size(), 2u);
    EXPECT_EQ(p.at("gpu").at("name"), "NVIDIA Tesla V100 SXM2"); // "Tesla V100-SXM2-16GB (0)"
    ASSERT_EQ(p.at("kernels").size(), 1u);                       // the memcpy row is not a kernel
    const json& k = p.at("kernels").at(0);
    EXPECT_EQ(k.at("launches"), 10); // Invocations 10, Calls 10
    // Summary averages are per launch: 10 x 1,228,800 warp instructions.
    EXPECT_DOUBLE_EQ(k.at("counters").at("inst_warp").get<double>(), 12288000);
    // Time 1.25 ms over 10 calls, Avg 125 us, Min 120.5 us, Max 130.25 us.
    EXPECT_DOUBLE_EQ(k.at("time_ns").at("mean").get<double>(), 125000);
    EXPECT_DOUBLE_EQ(k.at("time_ns").at("min").get<double>(), 120500);
    const json& irm = k.at("analysis").at("irm");
    // 1,228,800 / 125,000 ns = 9.8304 GIPS; every level: 1,228,800 / (786,432 + 393,216) =
    // 25/24 (L1 with local memory not collected, L2 with atomics inside read/write).
    EXPECT_NEAR(irm.at("gips_warp").get<double>(), 9.8304, 1e-12);
    for (const char* level : {"l1", "l2", "hbm"}) {
        EXPECT_NEAR(irm.at("ii").at(level).get<double>(), 25.0 / 24, 1e-12) << level;
    }
    // v100-sxm2 HBM: the 895 GB/s figure is a write-only stream, which serves write-only kernels
    // only (docs/model.md, Measured maxima); this kernel reads, so IRM's ERT 828 GB/s / 32 =
    // 25.875 GTXN/s x 25/24 = 26.953 GIPS, the lowest roof: 9.8304 / 26.953 = 36.47%.
    EXPECT_DOUBLE_EQ(p.at("ceilings_used").at("gtxn_per_s").at("hbm").get<double>(), 25.875);
    EXPECT_EQ(irm.at("bound"), "hbm");
    EXPECT_NEAR(irm.at("roofline_pct").get<double>(), 100 * 9.8304 / (25.875 * 25 / 24), 1e-9);
    const json& missing = k.at("analysis").at("missing");
    EXPECT_NE(
        std::find(missing.begin(), missing.end(),
                  "irm.ii.l1: not collected: sectors_local_ld, sectors_local_st (counted as 0)"),
        missing.end());
}

TEST_F(ToolsImport, NcuGlobalEfficiencyGivesTheWallsAccessWidth) {
    // tests/data/import/ncu-long-efficiency-h100.csv: no smsp__sass_data_bytes_*, but ncu's
    // global load/store efficiency (smsp__sass_average_data_bytes_per_sector_*.pct).
    const json p = import({"ncu-long-efficiency-h100.csv"});
    const json& k = p.at("kernels").at(0);
    const json& c = k.at("counters");
    // Requested bytes = efficiency / 100 x 32 x sectors: ld 25% x 32 x 32,000 = 256,000;
    // st 100% x 32 x 8,000 = 256,000. The efficiency itself stays out of the profile.
    EXPECT_DOUBLE_EQ(c.at("bytes_global_ld").get<double>(), 256000);
    EXPECT_DOUBLE_EQ(c.at("bytes_global_st").get<double>(), 256000);
    EXPECT_FALSE(c.contains("import_bytes_per_sector_global_ld"));
    EXPECT_TRUE(has_note(k, "bytes_global_ld (requested bytes, the global wall's access width) "
                            "= efficiency / 100 x 32 x sectors_global_ld"));
    EXPECT_FALSE(has_note(k, "the global wall assumes 4-byte words"));
    // Predication 1,600,000 / (32 x 50,000) = 1, so access width = 512,000 bytes / (2,000 warp
    // ld/st x 32 threads) = 8 bytes; unit-stride wall = 2,000 / (512,000 / 32) = 1/8; measured
    // 2,000 / 40,000 sectors = 1/20: strided (4-byte words would have put the wall at 1/4).
    const json& wall = k.at("analysis").at("walls").at("global");
    EXPECT_DOUBLE_EQ(wall.at("access_bytes").get<double>(), 8);
    EXPECT_DOUBLE_EQ(wall.at("unit_intensity").get<double>(), 0.125);
    EXPECT_DOUBLE_EQ(wall.at("intensity").get<double>(), 0.05);
    EXPECT_EQ(wall.at("pattern"), "strided");
    const json& missing = k.at("analysis").at("missing");
    for (const json& m : missing) {
        EXPECT_EQ(m.get<std::string>().find("walls.global.access_bytes"), std::string::npos) << m;
    }
}

TEST_F(ToolsImport, NvprofGldEfficiencyGivesTheWallsAccessWidth) {
    // nvprof writes "100.000000%" in the value; 4 invocations of a float4 copy.
    const json p = import({"nvprof-efficiency-v100.csv"});
    const json& k = p.at("kernels").at(0);
    // 4 x (100% x 32 x 16,000) = 2,048,000 bytes each way; 4 x 1,000 warp loads and stores:
    // 4,096,000 / (8,000 x 32) = 16 bytes per thread; wall 8,000 / (4,096,000 / 32) = 1/16, and
    // 8,000 / 128,000 sectors = 1/16 sits on it: unit stride of 16-byte words. With 4-byte
    // words assumed the wall would be 1/4 and the kernel would read as strided.
    EXPECT_DOUBLE_EQ(k.at("counters").at("bytes_global_ld").get<double>(), 2048000);
    EXPECT_DOUBLE_EQ(k.at("counters").at("bytes_global_st").get<double>(), 2048000);
    const json& wall = k.at("analysis").at("walls").at("global");
    EXPECT_DOUBLE_EQ(wall.at("access_bytes").get<double>(), 16);
    EXPECT_DOUBLE_EQ(wall.at("unit_intensity").get<double>(), 1.0 / 16);
    EXPECT_EQ(wall.at("pattern"), "unit");
}

TEST_F(ToolsImport, NvprofSmEfficiencyIsTheSmActiveShareOfEachLaunch) {
    // "12.500000%" over 4 invocations: 0.125 a launch, summed like every counter.
    const json k = import({"nvprof-efficiency-v100.csv"}).at("kernels").at(0);
    EXPECT_DOUBLE_EQ(k.at("counters").at("sm_active_share").get<double>(), 4 * 0.125);
    EXPECT_EQ(k.at("profiled_launches").get<int>(), 4);
}

TEST_F(ToolsImport, WithoutRequestedBytesTheWallSaysItAssumes4ByteWords) {
    // ncu-long-h100.csv has smsp__sass_data_bytes_* as n/a and no efficiency: the note names
    // what to collect, and the analysis's `missing` says the wall assumes 4-byte words.
    const json k = import({"ncu-long-h100.csv"}).at("kernels").at(0);
    EXPECT_TRUE(has_note(k, "import: no requested bytes for global loads and stores in the "
                            "files: the global wall assumes 4-byte words (collect "
                            "smsp__sass_data_bytes_mem_global_op_ld/st.sum"));
    const json& missing = k.at("analysis").at("missing");
    EXPECT_NE(std::find(missing.begin(), missing.end(),
                        "walls.global.access_bytes: requested bytes not collected "
                        "(bytes_global_ld/st); the wall assumes 4-byte words"),
              missing.end());
}

TEST_F(ToolsImport, NvprofMetricsAloneGiveIntensitiesWithoutGips) {
    const json p = import({"nvprof-metrics-v100.csv"});
    const json& irm = p.at("kernels").at(0).at("analysis").at("irm");
    EXPECT_TRUE(irm.at("gips_warp").is_null());
    EXPECT_TRUE(irm.at("bound").is_null());
    EXPECT_NEAR(irm.at("ii").at("hbm").get<double>(), 25.0 / 24, 1e-12);
}

TEST_F(ToolsImport, NvprofEventsCountTheExactTotal) {
    // tests/data/import/nvprof-events-v100.csv: 3 launches; inst_executed Avg 333,333 is
    // rounded, Total 1,000,001 is exact (Avg x 3 would be 999,999).
    const json p = import({"nvprof-events-v100.csv"});
    EXPECT_EQ(p.at("import").at("formats").at(0), "nvprof-csv-events");
    const json& k = p.at("kernels").at(0);
    EXPECT_EQ(k.at("launches"), 3);
    EXPECT_DOUBLE_EQ(k.at("counters").at("inst_warp").get<double>(), 1000001);
    EXPECT_DOUBLE_EQ(k.at("counters").at("inst_thread").get<double>(), 32000022);
    EXPECT_FALSE(k.at("counters").contains("active_cycles")); // an event irf does not use
    // Predication 32,000,022 / (32 x 1,000,001) = 0.99999...
    EXPECT_NEAR(k.at("analysis").at("predication").get<double>(), 32000022.0 / 32000032, 1e-12);
}

TEST_F(ToolsImport, NcuRawPageReadsUnitsRowAndQuotedNames) {
    const json p = import({"ncu-raw-a100.csv"});
    EXPECT_EQ(p.at("gpu").at("name"), "NVIDIA A100 SXM4 40GB");
    ASSERT_EQ(p.at("kernels").size(), 2u);
    const json& fill = p.at("kernels").at(0);
    EXPECT_EQ(fill.at("name"), "void fill<'\"'>(char*, int)"); // "" in the file is one quote
    EXPECT_EQ(fill.at("launches"), 2);
    // gpu__time_duration.sum 10.24 usecond per launch, 2 launches.
    EXPECT_DOUBLE_EQ(fill.at("counters").at("time_ns").get<double>(), 20480);
    // 65,536 warp instructions / 10,240 ns = 6.4 GIPS.
    EXPECT_DOUBLE_EQ(fill.at("analysis").at("irm").at("gips_warp").get<double>(), 6.4);
    // smsp__thread_inst_executed.sum (predicated-off threads too) stands in, with a note.
    const json& notes = fill.at("notes");
    EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const json& n) {
        return n.get<std::string>().find("smsp__thread_inst_executed.sum") != std::string::npos;
    }));
}

TEST_F(ToolsImport, NcuPrintSummaryAveragesArePerLaunch) {
    const json p = import({"ncu-summary-a100.csv"});
    const json& k = p.at("kernels").at(0);
    EXPECT_EQ(k.at("launches"), 4); // Invocations
    // Average 262,144 x 4 invocations; Ksector 65.536 = 65,536 sectors x 4.
    EXPECT_DOUBLE_EQ(k.at("counters").at("inst_warp").get<double>(), 1048576);
    EXPECT_DOUBLE_EQ(k.at("counters").at("l2_sectors_read").get<double>(), 262144);
    EXPECT_DOUBLE_EQ(k.at("time_ns").at("min").get<double>(), 19500);
    EXPECT_DOUBLE_EQ(k.at("time_ns").at("max").get<double>(), 21000);
}

TEST_F(ToolsImport, NvprofGpuTraceTimesEachLaunch) {
    const json p = import({"nvprof-gpu-trace-v100.csv"});
    const json& k = p.at("kernels").at(0);
    EXPECT_EQ(k.at("launch").at("grid"), json::array({65536, 1, 1}));
    EXPECT_EQ(k.at("launches"), 2);
    EXPECT_DOUBLE_EQ(k.at("time_ns").at("total").get<double>(), 250750); // 120.5 + 130.25 us
}

TEST_F(ToolsImport, ImportedProfileFeedsTheOtherCommands) {
    import({"ncu-long-h100.csv"});
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"analyze", out().string()},
          std::vector<std::string>{"show", out().string(), "transpose"},
          std::vector<std::string>{"csv", out().string()},
          std::vector<std::string>{"compare", out().string(), out().string()},
          std::vector<std::string>{"compare", "--counters", out().string(), out().string()},
          std::vector<std::string>{"merge", out().string(), "-o", (m_tmp / "job.json").string()}}) {
        const ProcessResult r = report(args);
        EXPECT_EQ(r.exit_code, 0) << args.front() << ": " << r.err;
    }
}

TEST_F(ToolsImport, GpuOptionAndUnknownGpu) {
    // --gpu overrides the Device column: the A100 raw page analysed as an H100.
    const json p = import({"ncu-raw-a100.csv"}, {"--gpu", "h100-sxm5"});
    EXPECT_EQ(p.at("gpu").at("name"), "NVIDIA H100 SXM5 80GB");
    // A timing summary names no GPU: one warning, the profile is still written.
    std::vector<std::string> args{"import", s_data + "nvprof-gpu-summary-v100.csv", "-o",
                                  out().string()};
    const ProcessResult r = report(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("warning: the files name no GPU"), std::string::npos) << r.err;
    const json q = json::parse(irf::test::read_file(out()));
    EXPECT_DOUBLE_EQ(q.at("kernels").at(0).at("time_ns").at("total").get<double>(), 1.25e6);
}

TEST_F(ToolsImport, FilesThatDisagreeAreAnErrorNamingBoth) {
    std::string text = irf::test::read_file(s_data + "ncu-long-h100.csv");
    const std::string from = "\"smsp__inst_executed.sum\",\"inst\",\"4,194,304\"";
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, from.size(), "\"smsp__inst_executed.sum\",\"inst\",\"5,000,000\"");
    const auto other = m_tmp / "other-input.csv";
    irf::test::write_file(other, text);
    expect_refused({s_data + "ncu-long-h100.csv", other.string()}, "ncu-long-h100.csv");
    expect_refused({s_data + "ncu-long-h100.csv", other.string()}, "inst_warp");
}

TEST_F(ToolsImport, BadInputNamesFileLineAndColumn) {
    const auto bad = m_tmp / "bad.csv";
    irf::test::write_file(bad,
                          "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric "
                          "Value\"\n\"0\",\"k\",\"smsp__inst_executed.sum\",\"inst\",\"12x\"\n");
    // Columns count from 1: "0", is 1-4, "k", 5-8, the metric name 9-34, "inst", 35-41.
    expect_refused({bad.string()}, "bad.csv:2:42: '12x' is not a number");
    irf::test::write_file(bad,
                          "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric "
                          "Value\"\n\"0\",\"k\",\"gpu__time_duration.sum\",\"furlong\",\"1\"\n");
    // "gpu__time_duration.sum", is columns 9-33: the unit cell starts at 34.
    expect_refused({bad.string()}, "bad.csv:2:34: unit 'furlong' is not a time unit");
    irf::test::write_file(bad, "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric "
                               "Value\"\n\"0\",\"k\",\"x\"\n");
    expect_refused({bad.string()}, "bad.csv:2:9: 3 fields where the header at line 1 has 5");
    irf::test::write_file(bad, "just program output\n");
    expect_refused({bad.string()}, "no ncu or nvprof CSV table found");
    expect_refused({(m_tmp / "absent.csv").string()}, "absent.csv: cannot read");
}

TEST_F(ToolsImport, SummariesNotOneRowPerKernelAreRefusedWithWhatToRun) {
    // A summary grouped other than by kernel (no Kernel Name column) has no launch shape.
    const auto bad = m_tmp / "per-gpu.csv";
    irf::test::write_file(bad,
                          "\"Device\",\"Invocations\",\"Metric Name\",\"Metric Unit\","
                          "\"Minimum\",\"Maximum\",\"Average\"\n"
                          "\"0\",\"8\",\"smsp__inst_executed.sum\",\"inst\",\"1\",\"3\",\"2\"\n");
    expect_refused({bad.string()}, "per-gpu.csv:1: an ncu --print-summary table without a "
                                   "Kernel Name column: irf needs one row per kernel; export "
                                   "with ncu --csv --print-summary per-kernel");
    // The same kernel and metric twice (two NVTX ranges or processes) would replace the first.
    std::string text = irf::test::read_file(s_data + "ncu-summary-a100.csv");
    const std::size_t row = text.find("\"0\",\"777\"");
    const std::size_t end = text.find('\n', row);
    text.insert(end + 1, text.substr(row, end + 1 - row));
    const auto twice = m_tmp / "twice.csv";
    irf::test::write_file(twice, text);
    const std::size_t line = 1 + std::count(text.begin(), text.begin() + end + 1, '\n');
    expect_refused({twice.string()}, "twice.csv:" + std::to_string(line) +
                                         ": a second row for kernel scale(float*, float, int) "
                                         "and gpu__time_duration.sum (the first is line " +
                                         std::to_string(line - 1) + ")");
}

TEST_F(ToolsImport, NcuReportWithoutNcuSaysHowToExport) {
    const auto rep = m_tmp / "run.ncu-rep";
    irf::test::write_file(rep, "binary");
    std::vector<std::string> args{"import", rep.string(), "-o", out().string()};
    std::vector<std::string> argv{IRF_REPORT_BIN};
    argv.insert(argv.end(), args.begin(), args.end());
    irf::test::RunOptions options;
    options.expect_irf_error = true;
    options.env["PATH"] = m_tmp.path().string(); // no ncu there
    const ProcessResult r = irf::test::run_process(argv, options);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("ncu --import"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out()));
}

} // namespace
} // namespace test_tools_import

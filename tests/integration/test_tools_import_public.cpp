// SPDX-License-Identifier: Apache-2.0
// irf-report import on exports recorded by others on real GPUs (tests/data/import/README.md):
// the Instruction Roofline irf computes from them equals IRM's definitions (docs/model.md, IRM
// 3.2) computed by hand from the files' own numbers.
#include "tests/integration/tools_import_support.hpp"

namespace test_tools_import_public {
namespace {

using irf::test::has_note;
using nlohmann::json;

using ToolsImportPublic = irf::test::ImportTest;

TEST_F(ToolsImportPublic, UnshippedGpuWithoutComputeCapabilityIsOneWarningNamingTheStandIns) {
    // nvprof names the device ("Tesla V100S-PCIE-32GB", not shipped) but not its cc or SM count,
    // so no ceilings can be derived: one warning that says so and names the shipped V100 entries,
    // no analysis, and the counters are still written.
    std::vector<std::string> args{
        "import", irf::test::s_import_data + "nvprof-metrics-2022-v100s-transpose.csv", "-o",
        out().string()};
    const irf::test::ProcessResult r = irf::test::run_report(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    // The metrics run has no duration (nvprof timed it in a separate run): said once too.
    EXPECT_EQ(r.err,
              "irf-report: warning: " + irf::test::s_import_data +
                  "nvprof-metrics-2022-v100s-transpose.csv: 1 of 1 kernels with counters "
                  "have no duration in the files (none of gpu__time_duration, "
                  "gpu__time_active, {sm,smsp,gpc}__cycles_elapsed with their "
                  ".avg.per_second, nvprof's trace or summary): their time, GIPS and "
                  "bound are unknown\n"
                  "irf-report: warning: GPU 'Tesla V100S-PCIE-32GB' is not in the shipped "
                  "database and the files give no compute capability or SM count: imported "
                  "without analysis; run again with --gpu NAME|FILE (shipped of that family: "
                  "v100-sxm2, v100-sxm2-ert)\n");
    const json p = json::parse(irf::test::read_file(out()));
    EXPECT_FALSE(p.at("kernels").at(0).contains("analysis"));
    EXPECT_GT(p.at("kernels").at(0).at("counters").at("l2_sectors_write").get<double>(), 0);
}

TEST_F(ToolsImportPublic, NvprofV100sTransposeThreeRunsGiveThePapersThreadBasedPoint) {
    // Three nvprof runs of a naive 1024 x 1024 transpose on a Tesla V100S (101 launches):
    // --metrics, --events thread_inst_executed and --print-gpu-summary, joined by kernel name.
    // The V100S is not shipped; v100-sxm2 stands in (the intensities and GIPS do not use it).
    const json p =
        import({"nvprof-metrics-2022-v100s-transpose.csv", "nvprof-events-2022-v100s-transpose.csv",
                "nvprof-gpu-summary-2022-v100s-transpose.csv"},
               {"--gpu", "v100-sxm2"});
    EXPECT_EQ(p.at("import").at("formats"),
              json::array({"nvprof-csv-metrics", "nvprof-csv-events", "nvprof-csv-gpu-summary"}));
    ASSERT_EQ(p.at("kernels").size(), 1u); // the two memcpy rows are not kernels
    const json& k = p.at("kernels").at(0);
    EXPECT_EQ(k.at("launches"), 101);
    const json& c = k.at("counters");
    // The event's Total, 1,694,498,816 = 101 x 16,777,216; metrics are Avg x 101 launches.
    EXPECT_DOUBLE_EQ(c.at("inst_thread").get<double>(), 1694498816);
    EXPECT_DOUBLE_EQ(c.at("l2_sectors_write").get<double>(), 101.0 * 545629);
    // Units row: Time, Avg and Max in ms, Min in us.
    EXPECT_DOUBLE_EQ(k.at("time_ns").at("total").get<double>(), 2670947);
    EXPECT_DOUBLE_EQ(k.at("time_ns").at("min").get<double>(), 25983);
    EXPECT_DOUBLE_EQ(k.at("time_ns").at("max").get<double>(), 27104);
    const json& irm = k.at("analysis").at("irm");
    // No inst_executed: the point is IRM 3.2's thread-based one. Per launch 16,777,216 / 32 =
    // 524,288 instructions over Avg 26,445 ns (the timed mean x the profiled launches, as the
    // timing is a separate run) = 19.8256 GIPS.
    EXPECT_TRUE(irm.at("gips_warp").is_null());
    EXPECT_NEAR(irm.at("gips_thread").get<double>(), 524288.0 / 26445, 1e-12);
    // L1: 524,288 / (131,072 gld + 524,288 gst + 4 x 0 shared) = 0.8;
    // L2: 524,288 / (131,172 + 545,629) = 0.77466; HBM: 524,288 / (136,549 + 135,811) = 1.92498.
    const json& ii = irm.at("ii_thread");
    EXPECT_NEAR(ii.at("l1").get<double>(), 0.8, 1e-12);
    EXPECT_NEAR(ii.at("l2").get<double>(), 524288.0 / 676801, 1e-12);
    EXPECT_NEAR(ii.at("hbm").get<double>(), 524288.0 / 272360, 1e-12);
    // v100-sxm2 roofs (GTXN/s x intensity): HBM 25.875 x 1.92498 = 49.81, L2 93.625 x 0.77466
    // = 72.53, L1 437.5 x 0.8 = 350: HBM-bound at 19.8256 / 49.81 = 39.80%.
    EXPECT_EQ(irm.at("bound"), "hbm");
    EXPECT_NEAR(irm.at("roofline_pct").get<double>(),
                100 * (524288.0 / 26445) / (25.875 * 524288.0 / 272360), 1e-9);
    EXPECT_TRUE(has_note(k, "l2_sectors_atom/red are not collected"));
}

TEST_F(ToolsImportPublic, NcuPerKernelSummariesOfThreeRunsGiveEachKernelsPoint) {
    // Three ncu --print-summary per-kernel runs of two CuPy kernels on a cc 8.0 GPU, 100
    // launches each: memory counters, smsp__thread_inst_executed.sum, gpu__time_active.avg.
    const json p =
        import({"ncu-summary-2023-a100-metrics.csv", "ncu-summary-2023-a100-thread-inst.csv",
                "ncu-summary-2023-a100-timing.csv"},
               {"--gpu", "a100-sxm4-40gb"});
    ASSERT_EQ(p.at("kernels").size(), 2u);
    // gtxn_per_s of a100-sxm4-40gb, the roofs below.
    const json& gtxn = p.at("ceilings_used").at("gtxn_per_s");
    EXPECT_DOUBLE_EQ(gtxn.at("l2").get<double>(), 171.25);
    for (const json& k : p.at("kernels")) {
        EXPECT_EQ(k.at("launches"), 100);
        EXPECT_EQ(k.at("launch").at("grid"), json::array({216, 1, 1}));
        EXPECT_TRUE(has_note(k, "a far-partition request counts twice"));
        const json& irm = k.at("analysis").at("irm");
        const json& ii = irm.at("ii_thread");
        EXPECT_TRUE(irm.at("gips_warp").is_null());
        EXPECT_EQ(irm.at("bound"), "l2") << k.at("name");
        if (k.at("name") == "kernel_A") {
            // 43,077,888 / 32 = 1,346,184 instructions per launch over 76,952.96 ns = 17.4936.
            const double inst = 43077888.0 / 32;
            EXPECT_NEAR(irm.at("gips_thread").get<double>(), inst / 76952.96, 1e-9);
            EXPECT_DOUBLE_EQ(k.at("time_ns").at("min").get<double>(), 76064);
            // L1: 3,571,289.82 ld + 375,000 st sectors, no shared: 0.34113.
            EXPECT_NEAR(ii.at("l1").get<double>(), inst / (3571289.82 + 375000), 1e-9);
            // L2: 3,978,598.37 read + 561,636.89 write + 0 atom + 0 red: 0.29650.
            EXPECT_NEAR(ii.at("l2").get<double>(), inst / (3978598.37 + 561636.89), 1e-9);
            // HBM: 806,261.76 read + 15,106.60 write: 1.63895.
            EXPECT_NEAR(ii.at("hbm").get<double>(), inst / (806261.76 + 15106.60), 1e-9);
            // L2 roof 171.25 x 0.29650 = 50.776 GIPS: 17.4936 / 50.776 = 34.45%.
            EXPECT_NEAR(irm.at("roofline_pct").get<double>(),
                        100 * (inst / 76952.96) / (171.25 * inst / (3978598.37 + 561636.89)), 1e-9);
        } else {
            // kernel_B: 74,784,015 / 32 = 2,337,000.47 per launch over 93,188.16 ns = 25.0783.
            const double inst = 74784015.0 / 32;
            EXPECT_NEAR(irm.at("gips_thread").get<double>(), inst / 93188.16, 1e-9);
            // L1 is IRM's 1 x global + 4 x shared (128-byte wavefronts in 32-byte sectors):
            // 375,000 + 4 x (83,411.23 + 82,944) = 1,040,420.92: 2.24621.
            EXPECT_NEAR(ii.at("l1").get<double>(), inst / (375000 + 4 * (83411.23 + 82944)), 1e-9);
            // L2 counts the reductions: 563,533.63 + 127.02 + 2,706,852 red = 0.71457.
            EXPECT_NEAR(ii.at("l2").get<double>(), inst / (563533.63 + 127.02 + 2706852), 1e-9);
            EXPECT_NEAR(ii.at("hbm").get<double>(), inst / 402339.36, 1e-9);
        }
    }
}

} // namespace
} // namespace test_tools_import_public

// SPDX-License-Identifier: Apache-2.0
// Integration tests of irf-calibrate's device-free behaviour and `irf-report ceilings`.
#include <filesystem>

#include <gtest/gtest.h>

#include "config/ceilings_yaml.hpp"
#include "config/gpu_database.hpp"
#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
namespace test_ceilings_cli {
namespace {

namespace fs = std::filesystem;

std::size_t lines(const std::string& text) {
    std::size_t n = 0;
    for (char ch : text) {
        n += ch == '\n' ? 1 : 0;
    }
    return n;
}

ProcessResult calibrate(const std::vector<std::string>& args, bool expect_error = false) {
    std::vector<std::string> argv = {IRF_CALIBRATE_BIN};
    argv.insert(argv.end(), args.begin(), args.end());
    RunOptions options;
    options.expect_irf_error = expect_error;
    // Hide any GPU, so the no-device path is tested on every machine.
    options.env["CUDA_VISIBLE_DEVICES"] = "";
    return run_process(argv, options);
}

ProcessResult report(const std::vector<std::string>& args, const std::string& gpus_dir = "",
                     bool expect_error = false) {
    std::vector<std::string> argv = {IRF_REPORT_BIN, "ceilings"};
    argv.insert(argv.end(), args.begin(), args.end());
    RunOptions options;
    options.expect_irf_error = expect_error;
    if (gpus_dir.empty()) {
        options.unset.push_back("IRF_GPUS_DIR");
    } else {
        options.env["IRF_GPUS_DIR"] = gpus_dir;
    }
    return run_process(argv, options);
}

TEST(CalibrateCli, WithoutDeviceExitsWithOneLine) {
    const auto r = calibrate({});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err.rfind("irf-calibrate: no CUDA device: ", 0), 0u) << r.err;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CalibrateCli, WithoutDeviceWritesNoFile) {
    TempDir tmp;
    const auto out = (tmp / "c.yaml").string();
    const auto r = calibrate({"--quick", "-o", out});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_FALSE(fs::exists(out));
    EXPECT_TRUE(fs::is_empty(tmp.path())) << "no temporary left behind";
}

TEST(CalibrateCli, HelpDocumentsEveryOption) {
    const auto r = calibrate({"--help"});
    EXPECT_EQ(r.exit_code, 0);
    for (const char* option : {"-o,--output", "--quick", "--only", "--list", "--device",
                               "--samples", "--version", "--help"}) {
        EXPECT_NE(r.out.find(option), std::string::npos) << option << "\n" << r.out;
    }
    EXPECT_NE(r.out.find("Exit status"), std::string::npos);
}

TEST(CalibrateCli, ListNamesEveryBenchmarkWithoutDevice) {
    const auto r = calibrate({"--list"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    for (const char* name : {"issue", "fp32", "fp64", "fp16", "int32", "tensor_fp16", "tensor_fp8",
                             "tensor_fp64", "l1", "shared", "l2", "hbm", "pcie"}) {
        EXPECT_NE(r.out.find(std::string(name) + " "), std::string::npos) << name;
    }
}

TEST(CalibrateCli, UnknownOnlyItemIsBadInput) {
    const auto r = calibrate({"--only", "issue,bogus"}, true);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "irf-calibrate: error: --only: unknown benchmark 'bogus' (see --list)\n");
}

TEST(CalibrateCli, BadOptionIsBadInput) {
    const auto r = calibrate({"--samples", "0"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(lines(r.err), 1u) << r.err;
}

TEST(ReportCeilings, ListsTheDatabase) {
    const auto r = report({});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto keys = config::list_shipped({std::string(IRF_SOURCE_DIR) + "/config/gpus"});
    ASSERT_GE(keys.size(), 13u);
    for (const auto& key : keys) {
        EXPECT_NE(r.out.find("\n" + key + " "), std::string::npos) << key;
    }
    // V100 SXM2: 80 x 4 x 1.53 GHz = 489.6 warp GIPS; HBM 900 GB/s.
    EXPECT_NE(r.out.find("489.6"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("invalid"), std::string::npos) << r.out;
}

TEST(ReportCeilings, PrintsOneEntryByName) {
    const auto r = report({"h100-sxm5"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("warp_gips: 1045.40 warp-GIPS [derived] @1980 MHz"), std::string::npos)
        << r.out;
    // 3352.3 GB/s / 32 = 104.76 GTXN/s.
    EXPECT_NE(r.out.find("hbm_gbs: 3352.30 GB/s (104.76 GTXN/s) [spec]"), std::string::npos)
        << r.out;
    // The SM limits waves are counted from (cc 9.0: 228 KiB shared per SM, 227 per block)
    EXPECT_NE(r.out.find("per SM: 2048 threads (64 warps), 32 blocks, 65536 registers, 228 KiB "
                         "shared (227 KiB per block)"),
              std::string::npos)
        << r.out;
}

TEST(ReportCeilings, PrintsAFile) {
    const auto file = std::string(IRF_TEST_DATA_DIR) + "/ceilings/good/minimal.yaml";
    const auto r = report({file});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Test GPU"), std::string::npos);
    EXPECT_NE(r.out.find("warp_gips: 40.00 warp-GIPS"), std::string::npos) << r.out;
}

TEST(ReportCeilings, UnknownNameIsOneLineExit2) {
    const auto r = report({"h999"}, "", true);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err.rfind("irf-report: error: gpus: h999: no such shipped entry", 0), 0u) << r.err;
    EXPECT_EQ(lines(r.err), 1u);
    EXPECT_TRUE(r.out.empty());
}

TEST(ReportCeilings, BadFileIsOneLineExit2) {
    const auto file = std::string(IRF_TEST_DATA_DIR) + "/ceilings/bad/wrong_unit_hbm.yaml";
    const auto r = report({file}, "", true);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "irf-report: error: " + file +
                         ":30: ceilings.hbm_gbs.unit: unit 'TB/s' is wrong here (expected "
                         "GB/s)\n");
}

TEST(ReportCeilings, MeasuredOverSpecRatios) {
    TempDir tmp;
    const auto dirs = std::vector<std::string>{std::string(IRF_SOURCE_DIR) + "/config/gpus"};
    auto measured = config::load_shipped("h100-sxm5", dirs);
    measured.gpu.key = "h100-sxm5.measured";
    measured.hbm_gbs->value = 3000;
    measured.hbm_gbs->provenance = config::Provenance::measured;
    measured.hbm_gbs->method = "test";
    measured.hbm_gbs->alternatives.clear();
    write_file(tmp / "h100-sxm5.measured.yaml", config::to_yaml(measured));
    const auto r = report({"h100-sxm5.measured"}, tmp.path().string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // 3000 / 3352.3 = 0.8949 -> 0.895; unchanged values give 1.000.
    EXPECT_NE(r.out.find("hbm_gbs: 3000.00 GB/s (93.75 GTXN/s) [measured]  measured/spec 0.895"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("measured/spec 1.000"), std::string::npos) << r.out;
    // The spec entry shows the same pair the other way round.
    const auto spec = report({"h100-sxm5"}, tmp.path().string());
    EXPECT_NE(spec.out.find("spec/measured 1.117"), std::string::npos) << spec.out;
}

} // namespace
} // namespace test_ceilings_cli
} // namespace irf::test

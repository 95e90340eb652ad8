// SPDX-License-Identifier: Apache-2.0
// What public exports mean, read right or said to be unknown (issue #53): durations from
// elapsed cycles, kernels without any duration never shown at 0 ns.
#include <fstream>
#include <sstream>

#include "tests/integration/tools_import_support.hpp"
#include "tests/support/golden.hpp"

namespace test_tools_import_meaning {
namespace {

using irf::test::has_note;
using irf::test::ProcessResult;
using irf::test::run_report;
using nlohmann::json;

const char* const k_sgemm = "ncu-long-2024-a100-smsp-cycles-sgemm.csv";

using ImportMeaning = irf::test::ImportTest;

const json& kernel_named(const json& p, const std::string& part) {
    for (const json& k : p.at("kernels")) {
        if (k.at("name").get<std::string>().find(part) != std::string::npos) {
            return k;
        }
    }
    throw std::runtime_error("no kernel " + part);
}

TEST_F(ImportMeaning, SmspCyclesOverTheirRateGiveTheDurationOfANerscStyleExport) {
    // NERSC's metric list with smsp__ names (tests/data/import/README.md): no gpu__time_duration.
    // gemm_v1: 25,610,472,227.46 cycles / 764,999,999.31 cycle/s = 33.4777415 s.
    const json p = import({k_sgemm}, {"--gpu", "a100-sxm4-40gb"});
    const json& gemm = kernel_named(p, "gemm_v1");
    EXPECT_NEAR(gemm.at("time_ns").at("total").get<double>(), 33477741504.0, 1.0);
    EXPECT_NEAR(gemm.at("counters").at("time_ns").get<double>(), 33477741504.0, 1.0);
    EXPECT_TRUE(has_note(gemm, "time from smsp__cycles_elapsed.avg / "
                               "smsp__cycles_elapsed.avg.per_second (no gpu__time_duration)"));
    // randomInit, grid 640 x 1280: 5,145,083,088.72 / 764,999,991.90 = 6.7255989 s.
    for (const json& k : p.at("kernels")) {
        if (k.at("launch").at("grid") == json::array({640, 1280, 1})) {
            EXPECT_NEAR(k.at("time_ns").at("total").get<double>(), 6725598880.0, 1.0);
        }
    }
}

// The sgemm export without its elapsed-cycles rows: counters and no duration at all.
std::string untimed_copy(const std::filesystem::path& dir) {
    std::ifstream in(irf::test::s_import_data + k_sgemm);
    const std::string path = (dir / "untimed.csv").string();
    std::ofstream out(path);
    for (std::string line; std::getline(in, line);) {
        if (line.find("\"smsp__cycles_elapsed.avg\"") == std::string::npos) {
            out << line << "\n";
        }
    }
    return path;
}

TEST_F(ImportMeaning, KernelsWithCountersAndNoDurationAreUnknownNeverZero) {
    const std::string csv = untimed_copy(m_tmp.path());
    const ProcessResult r = run_report(
        {"import", csv, "--gpu", "a100-sxm4-40gb", "--targets", "none", "-o", out().string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // One warning for the file, naming what would have given a duration.
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("untimed.csv: 3 of 3 kernels with counters have no duration"),
              std::string::npos)
        << r.err;
    const json p = json::parse(irf::test::read_file(out()));
    for (const json& k : p.at("kernels")) {
        EXPECT_TRUE(k.at("time_ns").at("total").is_null()) << k.dump();
        EXPECT_TRUE(k.at("time_ns").at("mean").is_null());
        EXPECT_FALSE(k.at("counters").contains("time_ns"));
    }
    EXPECT_NE(p.at("warnings").dump().find("no duration"), std::string::npos);

    // The text table: "no time", never "0 ns"; the total says why it is unknown.
    const ProcessResult text = run_report({"analyze", out().string()});
    EXPECT_NE(text.out.find("(total unknown, 3 without time in the files)"), std::string::npos)
        << text.out;
    const std::size_t gemm_row = text.out.find("gemm_v1<float>  ");
    ASSERT_NE(gemm_row, std::string::npos) << text.out;
    const std::string row_text =
        text.out.substr(gemm_row, text.out.find('\n', gemm_row) - gemm_row);
    EXPECT_NE(row_text.find("no time      -"), std::string::npos) << row_text;
    EXPECT_EQ(row_text.find("0 ns"), std::string::npos) << row_text;

    // CSV: blank time cells.
    const ProcessResult csv_out = run_report({"csv", out().string()});
    std::istringstream rows(csv_out.out);
    std::string header, row;
    std::getline(rows, header);
    std::getline(rows, row);
    EXPECT_NE(row.find(",1,1,,,"), std::string::npos) << row; // launches, profiled, no times

    // show: "not in the files".
    const ProcessResult show = run_report({"show", out().string(), "gemm_v1"});
    EXPECT_NE(show.out.find("time      not in the files"), std::string::npos) << show.out;
    EXPECT_EQ(show.out.find("total     0 ns"), std::string::npos) << show.out;

    // The analysed profile read back keeps the time unknown (JSON nulls round trip).
    const std::string again = (m_tmp / "again.json").string();
    ASSERT_EQ(run_report({"analyze", out().string(), "-o", again}).exit_code, 0);
    const json q = json::parse(irf::test::read_file(again));
    EXPECT_TRUE(q.at("kernels").at(0).at("time_ns").at("total").is_null());
}

TEST_F(ImportMeaning, HfmaRegisterMovesOfAnFp32GemmAreNoTensorWorkNorFp16Flops) {
    // gemm_v1: 67,161,292,800 tensor-pipe instructions = 2,149,161,369,600 HFMA / 32 exactly.
    const json p = import({k_sgemm}, {"--gpu", "a100-sxm4-40gb"});
    const json& gemm = kernel_named(p, "gemm_v1");
    const json& flops = gemm.at("analysis").at("flops");
    EXPECT_DOUBLE_EQ(flops.at("fp16").get<double>(), 0); // was 2 x 2.149e12 "FP16 FLOPs"
    // FP32: 2 x 34,359,738,368,000 FFMA = 68,719,476,736,000 FLOPs.
    EXPECT_DOUBLE_EQ(flops.at("fp32").get<double>(), 68719476736000.0);
    EXPECT_DOUBLE_EQ(flops.at("tensor_register_moves").get<double>(), 67161292800.0);
    EXPECT_EQ(flops.at("precision"), "fp32");
    bool said = false;
    for (const json& n : gemm.at("analysis").at("notes")) {
        said = said ||
               n.get<std::string>().find("register moves (nvcc's HFMA2.MMA") != std::string::npos;
    }
    EXPECT_TRUE(said) << gemm.at("analysis").at("notes").dump();
    // The raw counters stay as the file has them.
    EXPECT_DOUBLE_EQ(gemm.at("counters").at("inst_tensor").get<double>(), 67161292800.0);
    // The table's tensor column: no "?" (tensor work whose ops were not counted).
    const ProcessResult text = run_report({"analyze", out().string()});
    EXPECT_EQ(text.out.find("      ?"), std::string::npos) << text.out;
}

TEST_F(ImportMeaning, TheBertShowcasesCopyAddAndSoftmaxRunNoTensorWork) {
    // Copy and add: 640 and 320 tensor-pipe instructions = 20,480 and 10,240 HFMA / 32; the
    // softmax 160 for its 160 warps with 3,200 HFMA (20 active threads a move).
    const json p = import({"ncu-long-2022-a100-bert.csv"}, {"--gpu", "a100-sxm4-40gb"});
    for (const auto& [name, moves] :
         {std::pair{"direct_copy", 640.0}, std::pair{"CUDAFunctor_add", 320.0},
          std::pair{"softmax_warp_forward", 160.0}}) {
        const json& flops = kernel_named(p, name).at("analysis").at("flops");
        EXPECT_DOUBLE_EQ(flops.at("tensor_register_moves").get<double>(), moves) << name;
        EXPECT_DOUBLE_EQ(flops.at("fp16").get<double>(), 0) << name;
    }
    const ProcessResult text = run_report({"analyze", out().string()});
    EXPECT_EQ(text.out.find("      ?"), std::string::npos) << text.out;
}

TEST_F(ImportMeaning, NcusOwnFailuresReachTheWarningsAndTheProfile) {
    // A file with no table because ncu could not read the counters: the reason is ncu's own.
    expect_refused({irf::test::s_import_data + "ncu-error-2024-counter-permission.csv"},
                   "no ncu or nvprof CSV table found (docs/import.md lists the formats: ncu "
                   "--csv, ncu --csv --page raw, nvprof --csv); the profiler said: ncu: "
                   "==ERROR== Error: ERR_NVGPUCTRPERM - The user does not have permission");
    // A table whose run lost one launch: ncu's lines around it (as public logs show them).
    std::ifstream in(irf::test::s_import_data + k_sgemm);
    std::stringstream table;
    table << in.rdbuf();
    const std::string csv = (m_tmp / "failed.csv").string();
    std::ofstream(csv) << "==PROF== Connected to process 24701 (/home/u/sgemm)\n"
                          "==PROF== Profiling \"gemm_v2\" - 3: 0%....50%.... - 19 passes\n"
                          "==ERROR== Failed to profile \"gemm_v2\" in process 24701\n"
                          "==ERROR== The application returned an error code (15).\n"
                          "==WARNING== Note: Running with uncontrolled GPU caches.\n"
                       << table.str();
    const ProcessResult r = run_report(
        {"import", csv, "--gpu", "a100-sxm4-40gb", "--targets", "none", "-o", out().string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("irf-report: warning: " + csv +
                         ": ncu failed to profile kernel \"gemm_v2\" (launch 3): the file has "
                         "no counters of that launch\n"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("ncu: ==ERROR== The application returned an error code (15)."),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("uncontrolled GPU caches"), std::string::npos) << r.err; // a note
    const json p = json::parse(irf::test::read_file(out()));
    EXPECT_NE(p.at("warnings").dump().find("failed to profile kernel \\\"gemm_v2\\\" (launch 3)"),
              std::string::npos)
        << p.at("warnings").dump();
    EXPECT_EQ(p.at("kernels").size(), 3u);
}

TEST_F(ImportMeaning, TheFilesOwnBankConflictCountersDecideTheSharedWall) {
    // The BERT export's ampere_sgemm: ncu counted 0 load and 8,192 store conflicts over 45,056 +
    // 20,608 wavefronts: 65,664 / 57,472 = 1.14-way, never the 2.0-way a 4-byte word assumes.
    const json p = import({"ncu-long-2022-a100-bert.csv"}, {"--gpu", "a100-sxm4-40gb"});
    const json& shared = kernel_named(p, "ampere_sgemm").at("analysis").at("walls").at("shared");
    EXPECT_DOUBLE_EQ(shared.at("conflict_ways").get<double>(), 65664.0 / 57472);
    EXPECT_EQ(shared.at("conflicts_measured"), true);
    const ProcessResult text = run_report({"analyze", out().string()});
    EXPECT_NE(text.out.find("1.1-way"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("2.0-way"), std::string::npos) << text.out;
}

// The BERT export without its elapsed cycles: FLOPs and no time. show's FLOP roofline and the
// CSV's gflops say nothing rather than 0 GFLOP/s (issue 53 item 7).
TEST_F(ImportMeaning, FlopRatesOfAKernelWithoutTimeAreUnknownNotZero) {
    std::ifstream in(irf::test::s_import_data + "ncu-long-2022-a100-bert.csv");
    const std::string csv = (m_tmp / "bert-untimed.csv").string();
    std::ofstream copy(csv);
    for (std::string line; std::getline(in, line);) {
        if (line.find("\"sm__cycles_elapsed.avg\"") == std::string::npos) {
            copy << line << "\n";
        }
    }
    copy.close();
    ASSERT_EQ(run_report({"import", csv, "--gpu", "a100-sxm4-40gb", "--targets", "none", "-o",
                          out().string()})
                  .exit_code,
              0);
    const ProcessResult show = run_report({"show", out().string(), "regex:sgemm"});
    // 8,388,608 FFMA x 2 + 262,144 FMUL = 17,039,360 FP32 FLOPs; no rate without a time.
    EXPECT_NE(show.out.find("fp32       17039360  -"), std::string::npos) << show.out;
    EXPECT_EQ(show.out.find("nan"), std::string::npos) << show.out;
    const ProcessResult csv_out = run_report({"csv", out().string(), "-k", "sgemm"});
    std::istringstream rows(csv_out.out);
    std::string header, row;
    std::getline(rows, header);
    std::getline(rows, row);
    std::size_t column = 0;
    for (std::size_t at = 0; at < header.find(",gflops,"); at = header.find(',', at + 1)) {
        ++column;
    }
    std::istringstream cells(row);
    std::string cell;
    for (std::size_t i = 0; i <= column; ++i) {
        std::getline(cells, cell, ',');
    }
    EXPECT_EQ(cell, "") << header << "\n" << row;
}

// A kernel with Instruction Roofline counters and no time: show gives its intensities, "-" for
// its share of each roofline and says why GIPS are unknown, never "nan%" (issue 53 item 7).
TEST_F(ImportMeaning, ShowNeverPrintsNanForAKernelWithoutTime) {
    json p = json::parse(irf::test::read_file(irf::test::data_path("examples/demo-profile.json")));
    for (json& k : p.at("kernels")) {
        if (k.at("name").get<std::string>().find("stream_triad") != std::string::npos) {
            k["time_ns"] = {
                {"total", nullptr}, {"mean", nullptr}, {"min", nullptr}, {"max", nullptr}};
            k["counters"].erase("time_ns");
            k["samples"] = json::array();
        }
        k.erase("analysis");
    }
    const std::string raw = (m_tmp / "untimed-triad.json").string();
    std::ofstream(raw) << p.dump();
    ASSERT_EQ(run_report({"analyze", raw, "--targets", "none", "-o", out().string()}).exit_code, 0);
    const ProcessResult show = run_report({"show", out().string(), "stream_triad"});
    ASSERT_EQ(show.exit_code, 0) << show.err;
    EXPECT_NE(show.out.find("Instruction Roofline"), std::string::npos) << show.out;
    EXPECT_EQ(show.out.find("nan"), std::string::npos) << show.out;
    EXPECT_NE(show.out.find("GIPS not known: the kernel's time is not in the file"),
              std::string::npos)
        << show.out;
}

} // namespace
} // namespace test_tools_import_meaning

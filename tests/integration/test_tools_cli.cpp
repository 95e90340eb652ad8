// SPDX-License-Identifier: Apache-2.0
// irf-report compare/csv/merge as programs: golden outputs, written files and bad inputs.
#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/golden.hpp"
#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace test_tools_cli {
namespace {

using irf::test::run_process;

const std::string s_golden_dir = IRF_TEST_DATA_DIR "/golden";

irf::test::ProcessResult report(const std::vector<std::string>& args, const std::string& cwd = "",
                                bool expect_error = false) {
    std::vector<std::string> argv{IRF_REPORT_BIN};
    argv.insert(argv.end(), args.begin(), args.end());
    irf::test::RunOptions options;
    options.cwd = cwd;
    options.expect_irf_error = expect_error;
    return run_process(argv, options);
}

/// report() for a run that must fail with an error line.
irf::test::ProcessResult report_bad(const std::vector<std::string>& args) {
    return report(args, "", true);
}

// Exactly one line on stderr, starting with the tool's error prefix, and exit code 2.
void expect_one_line_error(const irf::test::ProcessResult& r, const std::string& needle) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("irf-report: error: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

TEST(ToolsCli, AMistypedCommandGetsTheNearestOne) {
    // "analyzee" is one deletion from "analyze"; CLI11 alone said "A subcommand is required".
    const auto typo = report_bad({"analyzee", "p.json"});
    expect_one_line_error(typo, "unknown command 'analyzee'; did you mean analyze? (commands: ");
    EXPECT_NE(typo.err.find("compare"), std::string::npos) << typo.err;
    const auto far = report_bad({"zzzzzz"});
    expect_one_line_error(far, "unknown command 'zzzzzz' (commands: ");
}

TEST(ToolsCli, CompareMatchesGolden) {
    // Relative names keep the header free of machine-specific paths.
    const auto r =
        report({"compare", "tools_profile_before.json", "tools_profile_after.json"}, s_golden_dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(irf::test::matches_golden("tools_compare.txt", r.out));
    // Hand-computed: transpose_naive 12 -> 9 ms is (9 - 12) / 12 = -25.0%, 12 / 9 = 1.33x faster;
    // transpose_coalesced 5.5 -> 1.6 ms is (1.6 - 5.5) / 5.5 = -70.9%, 5.5 / 1.6 = 3.44x faster.
    EXPECT_NE(r.out.find("12.0 ms -> 9.00 ms (-25.0%)"), std::string::npos);
    EXPECT_NE(r.out.find("l2; 1.33x faster"), std::string::npos);
    EXPECT_NE(r.out.find("5.50 ms -> 1.60 ms (-70.9%)"), std::string::npos);
    EXPECT_NE(r.out.find("-way; 3.44x faster"), std::string::npos);
}

TEST(ToolsCli, CsvMatchesGolden) {
    const auto r = report({"csv", s_golden_dir + "/tools_profile_before.json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(irf::test::matches_golden("tools_csv_before.csv", r.out));
    // LF line ends (docs/tools.md): one header and six kernels are seven '\n' and no '\r'.
    EXPECT_EQ(r.out.find('\r'), std::string::npos);
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 7);
    // Hand-computed: transpose_naive time_mean_ns = 12,000,000 ns / 10 launches = 1,200,000;
    // stream_triad gflops = 67,108,864 fp64 flops / 270,000 ns per launch = 248.5513481.
    EXPECT_NE(r.out.find(",10,1,12000000,1200000,"), std::string::npos);
    EXPECT_NE(r.out.find(",67108864,0,0,0,248.5513481,"), std::string::npos);
}

TEST(ToolsCli, CsvToFileEqualsStdout) {
    irf::test::TempDir tmp;
    const auto to_file =
        report({"csv", s_golden_dir + "/tools_profile_after.json", "-o", (tmp / "k.csv").string()});
    ASSERT_EQ(to_file.exit_code, 0) << to_file.err;
    const auto to_stdout = report({"csv", s_golden_dir + "/tools_profile_after.json"});
    EXPECT_EQ(irf::test::read_file(tmp / "k.csv"), to_stdout.out);
}

class ToolsCliBadInput : public irf::test::TempDirTest {
protected:
    std::string write(const std::string& name, const std::string& text) {
        irf::test::write_file(m_tmp / name, text);
        return (m_tmp / name).string();
    }
    std::string good() { return s_golden_dir + "/tools_profile_before.json"; }
};

TEST_F(ToolsCliBadInput, MissingFile) {
    const std::string missing = (m_tmp / "nope.json").string();
    expect_one_line_error(report_bad({"csv", missing}), missing);
    expect_one_line_error(report_bad({"compare", missing, good()}), missing);
    expect_one_line_error(report_bad({"merge", good(), missing, "-o", (m_tmp / "j.json").string()}),
                          missing);
    EXPECT_FALSE(std::filesystem::exists(m_tmp / "j.json"));
}

TEST_F(ToolsCliBadInput, WrongSchema) {
    const std::string bad = write("bad.json", R"({"schema": "other/v9", "kernels": []})");
    expect_one_line_error(report_bad({"csv", bad}), "schema");
    expect_one_line_error(report_bad({"compare", good(), bad}), "schema");
}

TEST_F(ToolsCliBadInput, NotJson) {
    expect_one_line_error(report_bad({"csv", write("x.json", "{not json")}), "not valid JSON");
}

TEST_F(ToolsCliBadInput, EmptyKernelList) {
    const std::string empty = write("empty.json", R"({"schema": "irf.profile/v1", "kernels": []})");
    expect_one_line_error(report_bad({"csv", empty}), "no kernel");
    expect_one_line_error(report_bad({"compare", empty, good()}), "no kernel");
    expect_one_line_error(report_bad({"merge", empty, "-o", (m_tmp / "j.json").string()}),
                          "no kernel");
}

TEST_F(ToolsCliBadInput, MixedGpusInMerge) {
    auto doc = nlohmann::json::parse(irf::test::read_file(good()));
    doc["rank"] = 0;
    const std::string r0 = write("r0.json", doc.dump());
    doc["rank"] = 1;
    doc["gpu"]["name"] = "NVIDIA A100-SXM4-80GB";
    const std::string r1 = write("r1.json", doc.dump());
    const std::string out = (m_tmp / "job.json").string();
    expect_one_line_error(report_bad({"merge", r0, r1, "-o", out}), "differs");
    EXPECT_FALSE(std::filesystem::exists(out));
    const auto allowed = report({"merge", r0, r1, "-o", out, "--allow-mixed"});
    EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
    EXPECT_NE(allowed.err.find("warning"), std::string::npos);
    const auto job = nlohmann::json::parse(irf::test::read_file(out));
    EXPECT_NE(job["warnings"][0].get<std::string>().find("differs"), std::string::npos);
}

} // namespace
} // namespace test_tools_cli

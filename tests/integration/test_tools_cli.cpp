// SPDX-License-Identifier: Apache-2.0
// irf-report compare/csv/merge as programs: golden outputs, written files and bad inputs.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/golden.hpp"
#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace {

using irf::test::run_process;

const std::string s_golden_dir = IRF_TEST_DATA_DIR "/golden";

irf::test::ProcessResult report(const std::vector<std::string>& args, const std::string& cwd = "") {
    std::vector<std::string> argv{IRF_REPORT_BIN};
    argv.insert(argv.end(), args.begin(), args.end());
    irf::test::RunOptions options;
    options.cwd = cwd;
    return run_process(argv, options);
}

// Exactly one line on stderr, starting with the tool's error prefix, and exit code 2.
void expect_one_line_error(const irf::test::ProcessResult& r, const std::string& needle) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("irf-report: error: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

TEST(ToolsCli, CompareMatchesGolden) {
    // Relative names keep the header free of machine-specific paths.
    const auto r =
        report({"compare", "tools_profile_before.json", "tools_profile_after.json"}, s_golden_dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(irf::test::matches_golden("tools_compare.txt", r.out));
}

TEST(ToolsCli, CsvMatchesGolden) {
    const auto r = report({"csv", s_golden_dir + "/tools_profile_before.json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(irf::test::matches_golden("tools_csv_before.csv", r.out));
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
    expect_one_line_error(report({"csv", missing}), missing);
    expect_one_line_error(report({"compare", missing, good()}), missing);
    expect_one_line_error(report({"merge", good(), missing, "-o", (m_tmp / "j.json").string()}),
                          missing);
    EXPECT_FALSE(std::filesystem::exists(m_tmp / "j.json"));
}

TEST_F(ToolsCliBadInput, WrongSchema) {
    const std::string bad = write("bad.json", R"({"schema": "other/v9", "kernels": []})");
    expect_one_line_error(report({"csv", bad}), "schema");
    expect_one_line_error(report({"compare", good(), bad}), "schema");
}

TEST_F(ToolsCliBadInput, NotJson) {
    expect_one_line_error(report({"csv", write("x.json", "{not json")}), "not valid JSON");
}

TEST_F(ToolsCliBadInput, EmptyKernelList) {
    const std::string empty = write("empty.json", R"({"schema": "irf.profile/v1", "kernels": []})");
    expect_one_line_error(report({"csv", empty}), "no kernel");
    expect_one_line_error(report({"compare", empty, good()}), "no kernel");
    expect_one_line_error(report({"merge", empty, "-o", (m_tmp / "j.json").string()}), "no kernel");
}

TEST_F(ToolsCliBadInput, MixedGpusInMerge) {
    auto doc = nlohmann::json::parse(irf::test::read_file(good()));
    doc["rank"] = 0;
    const std::string r0 = write("r0.json", doc.dump());
    doc["rank"] = 1;
    doc["gpu"]["name"] = "NVIDIA A100-SXM4-80GB";
    const std::string r1 = write("r1.json", doc.dump());
    const std::string out = (m_tmp / "job.json").string();
    expect_one_line_error(report({"merge", r0, r1, "-o", out}), "differs");
    EXPECT_FALSE(std::filesystem::exists(out));
    const auto allowed = report({"merge", r0, r1, "-o", out, "--allow-mixed"});
    EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
    EXPECT_NE(allowed.err.find("warning"), std::string::npos);
    const auto job = nlohmann::json::parse(irf::test::read_file(out));
    EXPECT_NE(job["warnings"][0].get<std::string>().find("differs"), std::string::npos);
}

} // namespace

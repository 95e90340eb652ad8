// SPDX-License-Identifier: Apache-2.0
// irf-report's slicing options as programs (#21 items 1, 4, 5, 6): --names, --sort, --top,
// --format md, -o/--output (and the hidden --json), the analyse alias, compare's totals.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/integration/report_in_golden.hpp"
#include "tests/support/temp_dir.hpp"

namespace test_report_views {
namespace {

irf::test::ProcessResult report(const std::vector<std::string>& args, bool expect_error = false) {
    return irf::test::report_in_golden(args, expect_error);
}

std::size_t count(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
        ++n;
    }
    return n;
}

TEST(ReportViews, AnalyseAliasSortByNameTopAndMangledNames) {
    const auto r = report({"analyse", "tools_profile_before.json", "--sort", "name", "--top", "2",
                           "--names", "mangled"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Top 2 of 6 kernels by name"), std::string::npos) << r.out;
    // _Z10hgemm_wmma... sorts before _Z11gsrb_branch... (mangled names, alphabetical).
    const auto hgemm = r.out.find("  1  _Z10hgemm_wmma");
    const auto gsrb = r.out.find("  2  _Z11gsrb_branchPdPKdi");
    EXPECT_NE(hgemm, std::string::npos) << r.out;
    EXPECT_NE(gsrb, std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("stream_triad"), std::string::npos); // cut by --top 2
}

TEST(ReportViews, AnalyzeFunctionNamesAndConflictWays) {
    const auto r = report({"analyze", "tools_profile_before.json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("  transpose_naive<float>  "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("void "), std::string::npos) << r.out;   // no return types
    EXPECT_NE(r.out.find("8.5-way"), std::string::npos) << r.out; // not "8.5x" like a speedup
}

TEST(ReportViews, CeilingsOfAnotherChipAreAWarningAndAMistypedNameAGuess) {
    // The profile was recorded on an H100 (GH100); a100-pcie is a GA100.
    const auto r = report({"analyze", "tools_profile_before.json", "--ceilings", "a100-pcie"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("irf-report analyze: ceilings a100-pcie are for a GA100, the profiled "
                         "GPU is NVIDIA H100 80GB HBM3, a GH100: rooflines, verdicts and "
                         "projections are off"),
              std::string::npos)
        << r.err;
    const auto same = report({"analyze", "tools_profile_before.json", "--ceilings", "h100-sxm5"});
    EXPECT_EQ(same.err.find("are for a"), std::string::npos) << same.err;
    const auto typo =
        report({"analyze", "tools_profile_before.json", "--ceilings", "h100-sxm"}, true);
    EXPECT_EQ(typo.exit_code, 2);
    EXPECT_NE(typo.err.find("did you mean h100-sxm5?"), std::string::npos) << typo.err;
}

TEST(ReportViews, AnalyzeMarkdownTable) {
    const auto r = report({"analyze", "tools_profile_before.json", "--format", "md", "--top", "3"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("| # | kernel | total time | time % |"), std::string::npos) << r.out;
    // transpose_naive: 12 ms of 42.85 ms = 28.0%, 12 ms / 10 launches = 1.2 ms per launch.
    EXPECT_NE(r.out.find("| 2 | `transpose_naive<float>` | 12.0 ms | 28% | 10 | 1.20 ms |"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("3 of 6 kernels"), std::string::npos);
}

TEST(ReportViews, AnalyzeOutputOptionAndOldJsonSpelling) {
    irf::test::TempDir dir;
    for (const std::string option : {"-o", "--output", "--json"}) {
        const std::string out = (dir.path() / ("a" + option + ".json")).string();
        const auto r = report({"analyze", "tools_profile_before.json", option, out});
        ASSERT_EQ(r.exit_code, 0) << option << r.err;
        EXPECT_NE(irf::test::read_file(out).find("\"display_name\": \"transpose_naive<float>\""),
                  std::string::npos)
            << option;
    }
}

TEST(ReportViews, CompareTopTotalsAndMarkdown) {
    const auto r =
        report({"compare", "tools_profile_before.json", "tools_profile_after.json", "--top", "2"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(count(r.out, "\n  time "), 2u) << r.out;
    EXPECT_NE(r.out.find("(3 more matched kernels; --top to show them)"), std::string::npos);
    // Totals: 42.9 ms -> 34.2 ms is (34.2 - 42.9) / 42.9 = -20.3%; 5 + 1 before, 5 + 1 after.
    EXPECT_NE(r.out.find("total kernel time 42.9 ms -> 34.2 ms (-20.3%); 5 matched, 1 only "
                         "before, 1 only after"),
              std::string::npos)
        << r.out;
    const auto md = report({"compare", "tools_profile_before.json", "tools_profile_after.json",
                            "--format", "md", "-k", "transpose_naive"});
    ASSERT_EQ(md.exit_code, 0) << md.err;
    EXPECT_NE(
        md.out.find("| `transpose_naive<float>` | 12.0 ms | 9.00 ms | 1.33x faster | hbm -> l2 |"),
        std::string::npos)
        << md.out;
    EXPECT_EQ(md.out.find("transpose_coalesced"), std::string::npos); // -k kept one kernel
}

TEST(ReportViews, BadSortIsOneLineAndExit2) {
    const auto r = report({"analyze", "tools_profile_before.json", "--sort", "bogus"}, true);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("--sort"), std::string::npos) << r.err;
}

} // namespace
} // namespace test_report_views

namespace test_report_views {
namespace {

TEST(ReportViews, CsvSlicedByRegexSortAndTop) {
    const auto r = report(
        {"csv", "tools_profile_before.json", "-k", "transpose", "--sort", "name", "--top", "1"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // Header plus one row: transpose_coalesced sorts before transpose_naive by name.
    EXPECT_EQ(count(r.out, "\n"), 2u) << r.out;
    EXPECT_NE(r.out.find("transpose_coalesced"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("transpose_naive"), std::string::npos) << r.out;
}

} // namespace
} // namespace test_report_views

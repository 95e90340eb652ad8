// SPDX-License-Identifier: Apache-2.0
// The options every tool shares (#21 item 4), as programs: --ceilings and --targets take a
// shipped name or a YAML file in irf run and in irf-report analyze, compare and csv; analyze
// keeps a profile's targets unless --targets is given; csv analyses a raw profile first;
// -o/--output writes where each tool is told.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace test_tool_choices {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string s_golden = IRF_TEST_DATA_DIR "/golden/tools_profile_before.json";
const std::string s_golden_after = IRF_TEST_DATA_DIR "/golden/tools_profile_after.json";
const std::string s_gpus = IRF_SOURCE_DIR "/config/gpus/";

class ToolChoices : public irf::test::TempDirTest {
protected:
    void SetUp() override {
        // Files, not shipped names: copies of shipped entries under keys nothing ships.
        m_a100_file = copy_with_key("a100-pcie", "my-a100");
        m_l4_file = copy_with_key("l4", "my-l4");
    }

    std::string copy_with_key(const std::string& shipped, const std::string& key) const {
        std::string text = irf::test::read_file(s_gpus + shipped + ".yaml");
        const std::string from = "\n  key: " + shipped + "\n";
        const auto at = text.find(from);
        EXPECT_NE(at, std::string::npos) << shipped;
        text.replace(at, from.size(), "\n  key: " + key + "\n");
        const fs::path path = m_tmp / (key + ".yaml");
        irf::test::write_file(path, text);
        return path.string();
    }

    irf::test::ProcessResult report(std::vector<std::string> args,
                                    bool expect_error = false) const {
        args.insert(args.begin(), IRF_REPORT_BIN);
        irf::test::RunOptions options;
        options.cwd = m_tmp.path().string();
        options.expect_irf_error = expect_error;
        return irf::test::run_process(args, options);
    }

    json load(const std::string& name) const {
        return json::parse(irf::test::read_file(m_tmp / name));
    }

    std::string m_a100_file, m_l4_file;
};

/// Distinct projection targets of a profile, sorted.
std::set<std::string> targets_of(const json& profile) {
    std::set<std::string> out;
    for (const json& k : profile["kernels"]) {
        if (k.contains("analysis") && k["analysis"].is_object()) {
            for (const json& p : k["analysis"]["projection"]) {
                out.insert(p["target"].get<std::string>());
            }
        }
    }
    return out;
}

TEST_F(ToolChoices, AnalyzeTakesShippedNamesAndFiles) {
    const auto r = report({"analyze", s_golden, "--ceilings", "h100-sxm5", "--targets",
                           "l4," + m_l4_file, "-o", "named.json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json named = load("named.json");
    EXPECT_EQ(named["ceilings_used"]["name"], "h100-sxm5");
    EXPECT_EQ(targets_of(named), (std::set<std::string>{"l4", "my-l4"}));
    const auto f = report({"analyze", s_golden, "--ceilings", m_a100_file, "--output", "f.json"});
    ASSERT_EQ(f.exit_code, 0) << f.err;
    EXPECT_EQ(load("f.json")["ceilings_used"]["name"], "my-a100");
    // The chip check knows the file's chip (GA100), as it knows a shipped entry's.
    EXPECT_NE(f.err.find("ceilings my-a100 are for a GA100"), std::string::npos) << f.err;
}

TEST_F(ToolChoices, AnalyzeKeepsTheProfilesTargetsUnlessTold) {
    ASSERT_EQ(
        report({"analyze", s_golden, "--targets", "l4," + m_l4_file, "-o", "a.json"}).exit_code, 0);
    // Analysed again with other ceilings and no --targets: still projected onto both.
    const auto again = report({"analyze", "a.json", "--ceilings", "h100-pcie", "-o", "b.json"});
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(targets_of(load("b.json")), (std::set<std::string>{"l4", "my-l4"})) << again.err;
    EXPECT_NE(again.out.find("->l4"), std::string::npos) << again.out;
    // --targets replaces them; none removes them.
    ASSERT_EQ(report({"analyze", "a.json", "--targets", "a100-pcie", "-o", "c.json"}).exit_code, 0);
    EXPECT_EQ(targets_of(load("c.json")), (std::set<std::string>{"a100-pcie"}));
    ASSERT_EQ(report({"analyze", "a.json", "--targets", "none", "-o", "d.json"}).exit_code, 0);
    EXPECT_TRUE(targets_of(load("d.json")).empty());
}

TEST_F(ToolChoices, ATargetOfTheProfileThatIsGoneIsLeftOutWithANote) {
    // The golden profile was projected onto test entries (a100-test, b200-test) not shipped.
    const auto r = report({"analyze", s_golden, "-o", "g.json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("irf-report analyze: target a100-test of the profile cannot be loaded; "
                         "left out (pass --targets)"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(targets_of(load("g.json")).empty());
}

TEST_F(ToolChoices, CsvAnalysesARawProfileFirst) {
    json raw = json::parse(irf::test::read_file(s_golden));
    for (json& k : raw["kernels"]) {
        k.erase("analysis");
    }
    raw.erase("ceilings_used");
    raw.erase("regions");
    irf::test::write_file(m_tmp / "raw.json", raw.dump());
    const auto r = report({"csv", "raw.json", "--targets", m_l4_file, "-o", "raw.csv"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("irf-report csv: raw.json has no analysis (a raw profile); analysed now "
                         "with the ceilings of its GPU"),
              std::string::npos)
        << r.err;
    const std::string csv = irf::test::read_file(m_tmp / "raw.csv");
    EXPECT_NE(csv.find(",proj_my-l4_speedup,"), std::string::npos) << csv.substr(0, 800);
    // The verdict columns are filled: transpose_naive is bound by HBM (as in the golden CSV).
    EXPECT_NE(csv.find(",hbm,"), std::string::npos) << csv;
    // An analysed profile is left as it is: no note.
    const auto analysed = report({"csv", s_golden});
    EXPECT_EQ(analysed.err.find("has no analysis"), std::string::npos) << analysed.err;
    // The note names the file escaped: a terminal escape in its name is not sent to the
    // terminal (issue 52 item 10).
    const std::string hostile = "raw\x1b]0;owned\x07.json";
    irf::test::write_file(m_tmp / hostile, raw.dump());
    const auto escaped = report({"csv", hostile, "--targets", m_l4_file, "-o", "h.csv"});
    ASSERT_EQ(escaped.exit_code, 0) << escaped.err;
    EXPECT_NE(escaped.err.find("irf-report csv: raw\\x1B]0;owned\\x07.json has no analysis"),
              std::string::npos)
        << escaped.err;
    EXPECT_EQ(escaped.err.find('\x1b'), std::string::npos) << escaped.err;
}

TEST_F(ToolChoices, CsvAndCompareTakeShippedNamesAndFiles) {
    const auto named = report({"csv", s_golden, "--ceilings", "a100-pcie", "--targets", "l4"});
    ASSERT_EQ(named.exit_code, 0) << named.err;
    EXPECT_NE(named.err.find("ceilings a100-pcie are for a GA100"), std::string::npos);
    EXPECT_NE(named.out.find(",proj_l4_speedup,"), std::string::npos);
    const auto file = report({"csv", s_golden, "--ceilings", m_a100_file, "--targets", m_l4_file});
    ASSERT_EQ(file.exit_code, 0) << file.err;
    EXPECT_NE(file.err.find("ceilings my-a100 are for a GA100"), std::string::npos);
    EXPECT_NE(file.out.find(",proj_my-l4_speedup,"), std::string::npos);
    for (const std::string& ceilings : {std::string("a100-pcie"), m_a100_file}) {
        const auto c = report({"compare", s_golden, s_golden_after, "--ceilings", ceilings,
                               "--targets", "l4," + m_l4_file, "-o", "cmp.txt"});
        ASSERT_EQ(c.exit_code, 0) << c.err;
        EXPECT_NE(c.err.find("are for a GA100"), std::string::npos) << c.err;
        EXPECT_TRUE(c.out.empty()) << c.out; // written to -o instead
        EXPECT_NE(irf::test::read_file(m_tmp / "cmp.txt").find("transpose"), std::string::npos);
    }
    const auto bad = report({"compare", s_golden, s_golden_after, "--targets", "l44"}, true);
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("did you mean l4?"), std::string::npos) << bad.err;
}

TEST_F(ToolChoices, MergedJobShowsItsRankImbalanceInAnalyzeAndCsv) {
    // Two ranks of the golden profile; rank 1 ran every kernel 3 times as long: each kernel's
    // rank times t and 3t, mean 2t, imbalance 3t / 2t = 1.5, slowest rank 1. Both ranks warn
    // the same text, kept once.
    for (int rank = 0; rank < 2; ++rank) {
        json p = json::parse(irf::test::read_file(s_golden));
        p["rank"] = rank;
        p["warnings"] = json::array({"no kernel matched"});
        for (json& k : p["kernels"]) {
            k["time_ns"]["total"] = k["time_ns"]["total"].get<double>() * (rank == 0 ? 1 : 3);
        }
        irf::test::write_file(m_tmp / ("r" + std::to_string(rank) + ".json"), p.dump());
    }
    const auto merged = report({"merge", "r0.json", "r1.json", "-o", "job.json"});
    ASSERT_EQ(merged.exit_code, 0) << merged.err;
    const json job = load("job.json");
    EXPECT_EQ(job["warnings"], json::array({"ranks 0-1: no kernel matched"}));
    const auto text = report({"analyze", "job.json", "--targets", "none", "--top", "3"});
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find(" imbal\n"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("  1.50\n"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("(imbal: the slowest rank's time / the mean over the job's ranks"),
              std::string::npos);
    const auto md = report({"analyze", "job.json", "--targets", "none", "--format", "md"});
    EXPECT_NE(md.out.find(" rank imbalance (max/mean) |"), std::string::npos) << md.out;
    EXPECT_NE(md.out.find(" | 1.5 |"), std::string::npos) << md.out;
    const auto csv = report({"csv", "job.json"});
    ASSERT_EQ(csv.exit_code, 0) << csv.err;
    EXPECT_NE(csv.out.find(",slowest_rank,rank_imbalance"), std::string::npos) << csv.out;
    EXPECT_NE(csv.out.find(",1,1.5"), std::string::npos) << csv.out;
    // Re-analysed with -o, the job keeps its per-rank statistics.
    ASSERT_EQ(report({"analyze", "job.json", "--targets", "none", "-o", "again.json"}).exit_code,
              0);
    EXPECT_DOUBLE_EQ(load("again.json")["kernels"][0]["ranks"]["imbalance"].get<double>(), 1.5);
    EXPECT_EQ(load("again.json")["job"]["files"], json::array({"r0.json", "r1.json"}));
}

TEST_F(ToolChoices, MergeReadsInParallelAlikeAndRefusesWhatWouldNotFit) {
    std::vector<std::string> ranks;
    for (int rank = 0; rank < 3; ++rank) {
        json p = json::parse(irf::test::read_file(s_golden));
        p["rank"] = rank;
        ranks.push_back("r" + std::to_string(rank) + ".json");
        irf::test::write_file(m_tmp / ranks.back(), p.dump());
    }
    const auto merge = [&](const std::vector<std::string>& extra, bool expect_error = false) {
        std::vector<std::string> args{"merge"};
        args.insert(args.end(), ranks.begin(), ranks.end());
        args.insert(args.end(), extra.begin(), extra.end());
        return report(args, expect_error);
    };
    ASSERT_EQ(merge({"-o", "serial.json"}).exit_code, 0);
    ASSERT_EQ(merge({"-o", "parallel.json", "--jobs", "3"}).exit_code, 0);
    EXPECT_EQ(irf::test::read_file(m_tmp / "serial.json"),
              irf::test::read_file(m_tmp / "parallel.json"));
    // After the first input: K kernels x 3 ranks (1 read + 2 to come) x 200 B per entry, plus
    // 12 B per byte of the largest input being read (S): K x 600 + 12 S, over 1e-06 GB.
    const double kernels = static_cast<double>(load("r0.json")["kernels"].size());
    const double bytes = static_cast<double>(std::filesystem::file_size(m_tmp / "r0.json"));
    char need[64];
    std::snprintf(need, sizeof need, "needs about %.3g GB,", (kernels * 600 + 12 * bytes) / 1e9);
    const auto refused = merge({"-o", "tiny.json", "--max-memory", "0.000001"}, true);
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
    EXPECT_NE(refused.err.find(need), std::string::npos) << need << "\n" << refused.err;
    // Reading one input alone is over the limit: stages of one rank would merge nothing, so the
    // line names the least limit for stages of two ranks (2 x K x 200 + 12 S, rounded up to the
    // tenth of a GB), and that limit is enough (issue 52 item 10).
    const double least = std::ceil((2 * kernels * 200 + 12 * bytes) / 1e8) / 10;
    char raise[64];
    std::snprintf(raise, sizeof raise, "raise --max-memory to at least %g", least);
    EXPECT_NE(refused.err.find(raise), std::string::npos) << raise << "\n" << refused.err;
    EXPECT_EQ(refused.err.find("stages of at most 1 ranks"), std::string::npos) << refused.err;
    EXPECT_FALSE(std::filesystem::exists(m_tmp / "tiny.json")) << "nothing is half-written";
    char enough[32];
    std::snprintf(enough, sizeof enough, "%g", least);
    ASSERT_EQ(merge({"-o", "least.json", "--max-memory", enough}).exit_code, 0);
    // Three inputs read at once are over a limit that one at a time fits (after the first
    // input: K x 600 + 12 S each, S the largest of the three): --jobs 1 is the advice, and works.
    double largest = 0;
    for (const std::string& rank : ranks) {
        largest = std::max(largest, static_cast<double>(std::filesystem::file_size(m_tmp / rank)));
    }
    char limit[32];
    std::snprintf(limit, sizeof limit, "%.9g", 1.01 * (kernels * 600 + 12 * largest) / 1e9);
    const auto jobs = merge({"-o", "jobs.json", "--jobs", "3", "--max-memory", limit}, true);
    EXPECT_EQ(jobs.exit_code, 2);
    EXPECT_NE(jobs.err.find("reading 3 inputs at once needs about"), std::string::npos) << jobs.err;
    EXPECT_NE(jobs.err.find("merge with --jobs 1"), std::string::npos) << jobs.err;
    ASSERT_EQ(merge({"-o", "jobs.json", "--jobs", "1", "--max-memory", limit}).exit_code, 0);
}

TEST_F(ToolChoices, RangeErrorsReadAsPeopleWriteThem) {
    const auto top = report({"analyze", s_golden, "--top", "0"}, true);
    EXPECT_EQ(top.exit_code, 2);
    EXPECT_NE(top.err.find("'0' must be a whole number, 1 or more"), std::string::npos) << top.err;
    EXPECT_EQ(top.err.find("Number less or equal"), std::string::npos) << top.err;
}

} // namespace
} // namespace test_tool_choices

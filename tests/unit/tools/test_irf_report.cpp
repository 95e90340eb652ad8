// SPDX-License-Identifier: Apache-2.0
// irf-report merge/compare/csv internals: per-rank statistics, CSV quoting, kernel matching and
// the one-line compare reading.
#include <algorithm>
#include <cfloat>
#include <cstdint>

#include <gtest/gtest.h>

#include "model/profile/profile_json.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/compare_kernels.hpp"
#include "tools/irf_report/csv_kernels.hpp"
#include "tools/irf_report/merge_profiles.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace test_irf_report {
namespace {

using irf::model::KernelRecord;

TEST(ToolsMerge, StatisticsOverRanks) {
    // Times 2000, 4000, 12000 ns: min 2000, median 4000, max 12000, mean 18000 / 3 = 6000,
    // imbalance 12000 / 6000 = 2; rank 2 is the slowest.
    // Launches 2, 2, 5: min 2, median 2, mean 9 / 3 = 3, max 5 on rank 1.
    const auto s = irf::model::rank_stats({{2, 2, 12000}, {0, 2, 2000}, {1, 5, 4000}});
    EXPECT_EQ(s.present, 3u);
    EXPECT_DOUBLE_EQ(s.time_ns.min, 2000);
    EXPECT_DOUBLE_EQ(s.time_ns.median, 4000);
    EXPECT_DOUBLE_EQ(s.time_ns.max, 12000);
    EXPECT_DOUBLE_EQ(s.time_ns.mean, 6000);
    ASSERT_TRUE(s.imbalance.has_value());
    EXPECT_DOUBLE_EQ(*s.imbalance, 2.0);
    EXPECT_EQ(s.time_ns.max_rank, 2);
    EXPECT_DOUBLE_EQ(s.launches.min, 2);
    EXPECT_DOUBLE_EQ(s.launches.median, 2);
    EXPECT_DOUBLE_EQ(s.launches.mean, 3);
    EXPECT_DOUBLE_EQ(s.launches.max, 5);
    EXPECT_EQ(s.launches.max_rank, 1);
    ASSERT_EQ(s.per_rank.size(), 3u);
    EXPECT_EQ(s.per_rank[0].rank, 0); // sorted by rank
}

TEST(ToolsMerge, AbsentRanksCountAsZeroAndEvenMedianAverages) {
    // Ranks 0..3 with 0, 0, 3000, 1000 ns: median (0 + 1000) / 2 = 500, mean 4000 / 4 = 1000,
    // imbalance 3000 / 1000 = 3; two ranks ran it.
    const auto s = irf::model::rank_stats({{0, 0, 0}, {1, 0, 0}, {2, 1, 3000}, {3, 1, 1000}});
    EXPECT_EQ(s.present, 2u);
    EXPECT_DOUBLE_EQ(s.time_ns.median, 500);
    EXPECT_DOUBLE_EQ(s.time_ns.mean, 1000);
    EXPECT_DOUBLE_EQ(*s.imbalance, 3.0);
    EXPECT_EQ(s.time_ns.max_rank, 2);
}

TEST(ToolsMerge, TiesNameTheLowestRankAndZeroTimeHasNoImbalance) {
    const auto tie = irf::model::rank_stats({{1, 1, 500}, {0, 1, 500}});
    EXPECT_EQ(tie.time_ns.max_rank, 0);
    const auto zero = irf::model::rank_stats({{0, 1, 0}, {1, 1, 0}});
    EXPECT_FALSE(zero.imbalance.has_value());
}

TEST(ToolsMerge, RankStatisticsSurviveTheJsonRoundTrip) {
    // Written and read back: the spreads are recomputed from per_rank and agree.
    irf::model::Profile job;
    KernelRecord k;
    k.name = "k";
    k.ranks = irf::model::rank_stats({{0, 1, 100}, {1, 3, 300}});
    job.kernels.push_back(k);
    job.regions.push_back({"step", 400, 4, 1, std::nullopt, k.ranks});
    job.job = irf::model::JobInfo{{0, 1}, {"a.json", "b.json"}, {"node0"}};
    const auto json = irf::model::profile_to_json(job);
    // time mean (100 + 300) / 2 = 200, imbalance 300 / 200 = 1.5.
    EXPECT_DOUBLE_EQ(json["kernels"][0]["ranks"]["imbalance"].get<double>(), 1.5);
    EXPECT_EQ(json["kernels"][0]["ranks"]["launches"]["max_rank"], 1);
    const auto back = irf::model::profile_from_json(json);
    ASSERT_TRUE(back.kernels[0].ranks.has_value());
    EXPECT_DOUBLE_EQ(*back.kernels[0].ranks->imbalance, 1.5);
    ASSERT_TRUE(back.regions[0].ranks.has_value());
    EXPECT_DOUBLE_EQ(back.regions[0].ranks->launches.mean, 2); // (1 + 3) / 2
    ASSERT_TRUE(back.job.has_value());
    EXPECT_EQ(back.job->files, (std::vector<std::string>{"a.json", "b.json"}));
}

irf::model::Profile rank_profile(int rank, double time_ns, const std::string& gpu) {
    irf::model::Profile p;
    p.rank = rank;
    p.gpu.name = gpu;
    p.host = "node" + std::to_string(rank % 2);
    p.pid = 1000 + rank;
    p.start_time = "2026-11-22T10:00:00Z";
    KernelRecord k;
    k.name = "k";
    k.launches = 2;
    k.time_ns = {time_ns, time_ns / 2, time_ns / 2, time_ns / 2};
    k.counters["inst_warp"] = rank + 1.0;
    p.kernels.push_back(k);
    return p;
}

TEST(ToolsMerge, JobSumsLaunchesAndTakesTheSlowestRanksCounters) {
    const auto job = irf::report::merge_profiles(
        {rank_profile(0, 100, "G"), rank_profile(1, 300, "G")}, {"a.json", "b.json"}, false);
    ASSERT_EQ(job.kernels.size(), 1u);
    const KernelRecord& k = job.kernels[0];
    EXPECT_EQ(k.launches, 4u);
    EXPECT_DOUBLE_EQ(k.time_ns.total, 400);
    EXPECT_DOUBLE_EQ(k.time_ns.mean, 100); // 400 ns / 4 launches
    EXPECT_DOUBLE_EQ(k.time_ns.max, 150);
    EXPECT_DOUBLE_EQ(k.counters.at("inst_warp"), 2.0); // rank 1's
    EXPECT_EQ(job.job->hosts, (std::vector<std::string>{"node0", "node1"}));
    const auto json = irf::model::profile_to_json(job);
    EXPECT_EQ(json["kernels"][0]["ranks"]["slowest_rank"], 1);
    EXPECT_EQ(json["job"]["ranks"], nlohmann::json::array({0, 1}));
}

TEST(ToolsMerge, AKernelAtZeroTimeOnlyOnAHigherRankMerges) {
    // k ran only on rank 1, in 0 ns; rank 0 (absent, 0 ns) ties it and would be named slowest.
    auto a = rank_profile(0, 100, "G");
    a.kernels[0].name = "other";
    const auto job = irf::report::merge_profiles({a, rank_profile(1, 0, "G")}, {"a", "b"}, false);
    ASSERT_EQ(job.kernels.size(), 2u);
    EXPECT_EQ(job.kernels[1].name, "k");
    EXPECT_DOUBLE_EQ(job.kernels[1].counters.at("inst_warp"), 2.0); // rank 1's, the one that ran it
}

// `present` counts the ranks that launched a kernel at least once (docs/output-schema.md), a
// launch timed at 0 ns included; a rank that never launched it is not present.
TEST(ToolsMerge, PresentCountsRanksThatLaunchedItEvenAtZeroTime) {
    const auto s = irf::model::rank_stats({{0, 2, 0}, {1, 0, 0}, {2, 1, 300}});
    EXPECT_EQ(s.present, 2u); // ranks 0 (2 launches, 0 ns) and 2
    EXPECT_EQ(s.per_rank.size(), 3u);
    // Through a merge: rank 0 ran k twice in 0 ns, rank 1 for 300 ns, rank 2 only another kernel.
    auto other = rank_profile(2, 100, "G");
    other.kernels[0].name = "other";
    const auto job = irf::report::merge_profiles(
        {rank_profile(0, 0, "G"), rank_profile(1, 300, "G"), other}, {"a", "b", "c"}, false);
    ASSERT_EQ(job.kernels.size(), 2u);
    ASSERT_EQ(job.kernels[0].name, "k");
    ASSERT_TRUE(job.kernels[0].ranks.has_value());
    EXPECT_EQ(job.kernels[0].ranks->present, 2u);
    const auto json = irf::model::profile_to_json(job);
    EXPECT_EQ(json["kernels"][0]["ranks"]["present"], 2);
    EXPECT_EQ(json["kernels"][0]["ranks"]["of"], 3);
    // csv's ranks_present column says the same.
    const std::string csv = irf::report::profile_csv(job, 1);
    const std::string header = csv.substr(0, csv.find('\n'));
    const auto column =
        std::count(header.begin(), header.begin() + header.find("ranks_present"), ',');
    std::string row = csv.substr(csv.find('\n') + 1);
    for (long i = 0; i < column; ++i) {
        row = row.substr(row.find(',') + 1);
    }
    EXPECT_EQ(row.substr(0, row.find(',')), "2") << csv;
}

TEST(ToolsMerge, MixedGpusAreRefusedUnlessAllowed) {
    const std::vector<irf::model::Profile> inputs{rank_profile(0, 1, "A100"),
                                                  rank_profile(1, 1, "H100")};
    EXPECT_THROW((void)irf::report::merge_profiles(inputs, {"a", "b"}, false),
                 irf::report::InputError);
    const auto job = irf::report::merge_profiles(inputs, {"a", "b"}, true);
    ASSERT_FALSE(job.warnings.empty());
    EXPECT_NE(job.warnings[0].find("differs"), std::string::npos);
}

TEST(ToolsMerge, IdenticalWarningsOfSeveralRanksAreKeptOnce) {
    std::vector<irf::model::Profile> inputs;
    for (int rank = 0; rank < 5; ++rank) {
        inputs.push_back(rank_profile(rank, 100, "G"));
        if (rank != 3) {
            inputs.back().warnings.push_back("no kernel matched");
        }
    }
    inputs[3].warnings.push_back("only here");
    const auto job = irf::report::merge_profiles(inputs, {"a", "b", "c", "d", "e"}, false);
    EXPECT_EQ(job.warnings,
              (std::vector<std::string>{"ranks 0-2, 4: no kernel matched", "rank 3: only here"}));
}

TEST(ToolsMerge, RegionsGetTheirPerRankStatistics) {
    // Rank 0 ran k 2 times (100 ns) under "step", rank 1 not at all under it: launches 2, 0
    // (mean 1, max on rank 0), time 100, 0 (mean 50, imbalance 100 / 50 = 2).
    auto a = rank_profile(0, 100, "G");
    a.kernels[0].regions.push_back({"step", 2, 100, 0});
    const auto job = irf::report::merge_profiles({a, rank_profile(1, 300, "G")}, {"a", "b"}, false);
    ASSERT_EQ(job.regions.size(), 1u);
    ASSERT_TRUE(job.regions[0].ranks.has_value());
    EXPECT_DOUBLE_EQ(job.regions[0].ranks->launches.mean, 1);
    EXPECT_EQ(job.regions[0].ranks->launches.max_rank, 0);
    EXPECT_DOUBLE_EQ(*job.regions[0].ranks->imbalance, 2);
}

TEST(ToolsMerge, DuplicateRanksAreRefused) {
    EXPECT_THROW((void)irf::report::merge_profiles(
                     {rank_profile(0, 1, "G"), rank_profile(0, 1, "G")}, {"a", "b"}, false),
                 irf::report::InputError);
}

TEST(ToolsMerge, TheSameRunGivenTwiceIsRefused) {
    // Rank-less profiles take their input position as rank: the same file twice counted twice.
    irf::model::Profile p = rank_profile(0, 100, "G");
    p.rank.reset();
    try {
        (void)irf::report::merge_profiles({p, p}, {"a.json", "a-copy.json"}, false);
        FAIL() << "merged one run twice";
    } catch (const irf::report::InputError& e) {
        EXPECT_STREQ(e.what(), "a-copy.json: the same run as a.json (host, pid and start time); "
                               "each profile counts once");
    }
}

TEST(ToolsMerge, LostDurationsOfTheRanksAreSummed) {
    auto a = rank_profile(0, 100, "G");
    auto b = rank_profile(1, 100, "G");
    a.coverage.lost_durations = 3;
    b.coverage.lost_durations = 4;
    // 3 + 4 = 7 launches of the job whose duration never came.
    EXPECT_EQ(irf::report::merge_profiles({a, b}, {"a", "b"}, false).coverage.lost_durations, 7u);
}

TEST(ToolsMerge, SumsTooLargeSaturateAndSaySo) {
    // 2 x (2^64 - 1) launches wrapped to 2^64 - 2; 2 x 1e308 ns summed to inf (written null).
    std::vector<irf::model::Profile> inputs{rank_profile(0, 1e308, "G"),
                                            rank_profile(1, 1e308, "G")};
    for (auto& p : inputs) {
        p.kernels[0].launches = UINT64_MAX;
        p.coverage.launches = UINT64_MAX;
    }
    const auto job = irf::report::merge_profiles(inputs, {"a", "b"}, false);
    const KernelRecord& k = job.kernels[0];
    EXPECT_EQ(k.launches, UINT64_MAX);
    EXPECT_EQ(job.coverage.launches, UINT64_MAX);
    EXPECT_EQ(k.time_ns.total, DBL_MAX);
    EXPECT_DOUBLE_EQ(k.ranks->time_ns.mean, 1e308); // (1e308 + 1e308) / 2 in long double
    ASSERT_EQ(job.warnings.size(), 1u);
    EXPECT_NE(job.warnings[0].find("capped"), std::string::npos);
    const auto json = irf::model::profile_to_json(job);
    EXPECT_TRUE(json["kernels"][0]["time_ns"]["total"].is_number());
}

TEST(ToolsCsv, FormulaCellsAreNeutralised) {
    // A spreadsheet runs a cell that starts with = + - @ (or tab/CR before one) as a formula.
    EXPECT_EQ(irf::report::csv_field("=cmd|' /C calc'!A0"), "\"'=cmd|' /C calc'!A0\"");
    EXPECT_EQ(irf::report::csv_field("+1+2"), "\"'+1+2\"");
    EXPECT_EQ(irf::report::csv_field("-x"), "\"'-x\"");
    EXPECT_EQ(irf::report::csv_field("@SUM(A1)"), "\"'@SUM(A1)\"");
    // Tab and CR first are escaped like every control character (issue #39 item 5), so the
    // cell no longer starts with them.
    EXPECT_EQ(irf::report::csv_field("\t=1"), "\\t=1");
    EXPECT_EQ(irf::report::csv_field("\r=1"), "\\r=1");
    EXPECT_EQ(irf::report::csv_field("a\x1B]0;x\x07\nb"), "a\\x1B]0;x\\x07\\nb");
    // Numbers stay numbers; '=' inside a name is harmless.
    EXPECT_EQ(irf::report::csv_field("-1.5"), "-1.5");
    EXPECT_EQ(irf::report::csv_field("+2e3"), "+2e3");
    EXPECT_EQ(irf::report::csv_field("a=b"), "a=b");
    // Bytes that are not UTF-8 become U+FFFD, as in the JSON.
    EXPECT_EQ(irf::report::csv_field("caf\xE9"), "caf\xEF\xBF\xBD");
}

TEST(ToolsCsv, QuotesOnlyWhenNeeded) {
    EXPECT_EQ(irf::report::csv_field("plain"), "plain");
    EXPECT_EQ(irf::report::csv_field("f(int, float)"), "\"f(int, float)\"");
    EXPECT_EQ(irf::report::csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    // A line break is escaped like every control character (issue #39 item 5): one line.
    EXPECT_EQ(irf::report::csv_field("a\nb"), "a\\nb");
}

KernelRecord kernel(const std::string& name, std::uint32_t grid) {
    KernelRecord k;
    k.name = name;
    k.launch.grid = {grid, 1, 1};
    return k;
}

TEST(ToolsCommon, NameLabelsAreSharedByBothSidesAndDistinct) {
    std::vector<KernelRecord> before{kernel("void a::k<int>(int)", 1),
                                     kernel("void a::k<int>(int)", 2)};
    std::vector<KernelRecord> after{kernel("void a::k<int>(int)", 3),
                                    kernel("void b::k<int>(int)", 1)};
    const auto labels = irf::report::name_labels(before, after);
    // One kernel on both sides reads the same (no "#n"); a::k and b::k differ by their scope.
    EXPECT_EQ(labels.at("void a::k<int>(int)"), "a::k<int>");
    EXPECT_EQ(labels.at("void b::k<int>(int)"), "b::k<int>");
}

TEST(ToolsCommon, LeftoversOfOneNameArePairedNotListedOnBothSides) {
    // f ran with grids 1 and 2 before, 3 and 4 after: never "only before" and "only after".
    const std::vector<KernelRecord> before{kernel("f", 1), kernel("f", 2)};
    const std::vector<KernelRecord> after{kernel("f", 3), kernel("f", 4), kernel("f", 5)};
    const auto m = irf::report::match_kernels(before, after);
    ASSERT_EQ(m.pairs.size(), 2u);
    EXPECT_EQ(m.pairs[0], (std::pair<std::size_t, std::size_t>{0, 0}));
    EXPECT_EQ(m.pairs[1], (std::pair<std::size_t, std::size_t>{1, 1}));
    EXPECT_TRUE(m.only_before.empty());
    EXPECT_EQ(m.only_after, (std::vector<std::size_t>{2}));
}

TEST(ToolsCommon, MatchByLaunchThenByUniqueName) {
    const std::vector<KernelRecord> before{kernel("a", 1), kernel("a", 2), kernel("b", 1),
                                           kernel("gone", 1)};
    const std::vector<KernelRecord> after{kernel("b", 4), kernel("a", 2), kernel("new", 1)};
    const auto m = irf::report::match_kernels(before, after);
    // b matches by its unique name despite the new grid; a (grid 2) by name and launch.
    ASSERT_EQ(m.pairs.size(), 2u);
    EXPECT_EQ(m.pairs[0], (std::pair<std::size_t, std::size_t>{2, 0}));
    EXPECT_EQ(m.pairs[1], (std::pair<std::size_t, std::size_t>{1, 1}));
    EXPECT_EQ(m.only_before, (std::vector<std::size_t>{0, 3}));
    EXPECT_EQ(m.only_after, (std::vector<std::size_t>{2}));
}

KernelRecord analysed(double ii_hbm, double gips, double time_ns) {
    KernelRecord k;
    k.time_ns.total = time_ns;
    k.analysis.emplace();
    k.analysis->irm.emplace();
    k.analysis->irm->ii.hbm = ii_hbm;
    k.analysis->irm->gips_warp = gips;
    k.analysis->irm->bound = "hbm";
    return k;
}

TEST(ToolsCompare, ReadingNamesTheMovement) {
    // HBM intensity 0.5 -> 2 (x4), GIPS 10 -> 20, time 4 ms -> 2 ms (2x faster).
    EXPECT_EQ(irf::report::compare_reading(analysed(0.5, 10, 4e6), analysed(2, 20, 2e6)),
              "moved right along HBM: fewer DRAM transactions per instruction (II 0.5 -> 2), up: "
              "more warp GIPS; 2x faster");
    EXPECT_EQ(irf::report::compare_reading(analysed(2, 20, 2e6), analysed(1, 10, 3e6)),
              "moved left along HBM: more DRAM transactions per instruction (II 2 -> 1), down: "
              "fewer warp GIPS; 1.5x slower");
    EXPECT_EQ(irf::report::compare_reading(analysed(1, 10, 1e6), analysed(1.01, 10, 1.01e6)),
              "same HBM intensity (II 1 -> 1.01); time unchanged");
    EXPECT_EQ(irf::report::compare_reading(KernelRecord{}, analysed(1, 1, 1)),
              "no Instruction Roofline before (timing only); time not comparable");
}

} // namespace
} // namespace test_irf_report

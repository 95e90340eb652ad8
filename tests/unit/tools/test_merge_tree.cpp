// SPDX-License-Identifier: Apache-2.0
// irf-report merge as a tree (issue #34 item 3): merging job profiles merged before gives every
// per-rank statistic of one flat merge, numbers computed by hand.
#include <gtest/gtest.h>

#include "model/profile/profile_json.hpp"
#include "tools/irf_report/merge_profiles.hpp"
#include "tools/irf_report/merge_warnings.hpp"

namespace test_merge_tree {
namespace {

using irf::model::KernelRecord;
using irf::model::Profile;
using irf::model::RankStats;

// Rank r ran "k" for `k_ns` over `launches` launches inside NVTX range "step", and, on rank 2
// only, "only_c" (50 ns, 5 launches).
Profile rank(int r, double k_ns, std::uint64_t launches, const std::string& warning) {
    Profile p;
    p.rank = r;
    p.gpu.name = "G";
    p.host = "node" + std::to_string(r / 2);
    p.pid = 100 + r;
    p.start_time = "2026-11-25T10:00:0" + std::to_string(r) + "Z";
    p.coverage.launches = launches;
    KernelRecord k;
    k.name = "k";
    k.launches = launches;
    k.profiled_launches = 1;
    k.time_ns = {k_ns, k_ns / static_cast<double>(launches), 0, k_ns / 2};
    k.counters["inst_warp"] = 10.0 + r;
    k.regions.push_back({"step", launches, k_ns, 1});
    p.kernels.push_back(k);
    if (r == 2) {
        KernelRecord c;
        c.name = "only_c";
        c.launches = 5;
        c.time_ns = {50, 10, 10, 10};
        p.kernels.push_back(c);
    }
    p.warnings = {warning};
    return p;
}

// A merge written to its file and read back, as the next stage of the tree reads it.
Profile through_file(const Profile& p) {
    return irf::model::profile_from_json(nlohmann::json::parse(irf::model::dump_profile(p)));
}

void expect_same_stats(const RankStats& flat, const RankStats& tree, const std::string& what) {
    SCOPED_TRACE(what);
    EXPECT_EQ(tree.present, flat.present);
    EXPECT_DOUBLE_EQ(tree.time_ns.min, flat.time_ns.min);
    EXPECT_DOUBLE_EQ(tree.time_ns.median, flat.time_ns.median);
    EXPECT_DOUBLE_EQ(tree.time_ns.mean, flat.time_ns.mean);
    EXPECT_DOUBLE_EQ(tree.time_ns.max, flat.time_ns.max);
    EXPECT_EQ(tree.time_ns.max_rank, flat.time_ns.max_rank);
    EXPECT_DOUBLE_EQ(tree.launches.median, flat.launches.median);
    EXPECT_EQ(tree.launches.max_rank, flat.launches.max_rank);
    EXPECT_EQ(tree.imbalance, flat.imbalance);
    ASSERT_EQ(tree.per_rank.size(), flat.per_rank.size());
    for (std::size_t i = 0; i < flat.per_rank.size(); ++i) {
        EXPECT_EQ(tree.per_rank[i].rank, flat.per_rank[i].rank);
        EXPECT_EQ(tree.per_rank[i].launches, flat.per_rank[i].launches);
        EXPECT_DOUBLE_EQ(tree.per_rank[i].time_ns, flat.per_rank[i].time_ns);
    }
}

TEST(ToolsMergeTree, MergedPartsGiveTheFlatMergesPerRankStatistics) {
    const Profile a = rank(0, 100, 1, "W");
    const Profile b = rank(1, 400, 2, "Y");
    const Profile c = rank(2, 200, 3, "W");
    const Profile d = rank(3, 300, 4, "X");
    const Profile flat =
        irf::report::merge_profiles({a, b, c, d}, {"a.json", "b.json", "c.json", "d.json"}, false);
    const Profile ab =
        through_file(irf::report::merge_profiles({a, b}, {"a.json", "b.json"}, false));
    const Profile cd =
        through_file(irf::report::merge_profiles({c, d}, {"c.json", "d.json"}, false));
    const Profile tree = irf::report::merge_profiles({ab, cd}, {"ab.json", "cd.json"}, false);

    // "k": 100, 400, 200, 300 ns on ranks 0-3: median (200 + 300) / 2 = 250, mean 1000 / 4 =
    // 250, max 400 on rank 1, imbalance 400 / 250 = 1.6; launches 1-4: median 2.5, max on rank 3.
    ASSERT_EQ(flat.kernels.size(), 2u);
    const RankStats& k = *flat.kernels[0].ranks;
    EXPECT_EQ(k.present, 4u);
    EXPECT_DOUBLE_EQ(k.time_ns.median, 250);
    EXPECT_DOUBLE_EQ(k.time_ns.mean, 250);
    EXPECT_EQ(k.time_ns.max_rank, 1);
    EXPECT_DOUBLE_EQ(*k.imbalance, 1.6);
    EXPECT_DOUBLE_EQ(k.launches.median, 2.5);
    EXPECT_EQ(k.launches.max_rank, 3);
    // "only_c": 0, 0, 50, 0 ns: median 0, mean 12.5, imbalance 50 / 12.5 = 4, one rank of four.
    const RankStats& only_c = *flat.kernels[1].ranks;
    EXPECT_EQ(only_c.present, 1u);
    EXPECT_EQ(only_c.per_rank.size(), 4u);
    EXPECT_DOUBLE_EQ(only_c.time_ns.median, 0);
    EXPECT_DOUBLE_EQ(only_c.time_ns.mean, 12.5);
    EXPECT_DOUBLE_EQ(*only_c.imbalance, 4);

    ASSERT_EQ(tree.kernels.size(), flat.kernels.size());
    for (std::size_t i = 0; i < flat.kernels.size(); ++i) {
        const KernelRecord& f = flat.kernels[i];
        const KernelRecord& t = tree.kernels[i];
        EXPECT_EQ(t.name, f.name);
        EXPECT_EQ(t.launches, f.launches);
        EXPECT_DOUBLE_EQ(t.time_ns.total, f.time_ns.total);
        EXPECT_DOUBLE_EQ(t.time_ns.min, f.time_ns.min);
        EXPECT_DOUBLE_EQ(t.time_ns.max, f.time_ns.max);
        EXPECT_EQ(t.counters, f.counters); // the slowest rank's: rank 1's for "k"
        expect_same_stats(*f.ranks, *t.ranks, f.name);
    }
    EXPECT_EQ(flat.kernels[0].counters.at("inst_warp"), 11.0);
    // The region "step": the same numbers as "k", from the kernels' regions and then from the
    // parts' region statistics.
    ASSERT_EQ(tree.regions.size(), 1u);
    ASSERT_EQ(flat.regions.size(), 1u);
    expect_same_stats(*flat.regions[0].ranks, *tree.regions[0].ranks, "region step");
    EXPECT_DOUBLE_EQ(tree.regions[0].ranks->time_ns.median, 250);
    // The job: every rank, the rank files (not the parts), the hosts, each warning once.
    EXPECT_EQ(tree.job->ranks, flat.job->ranks);
    EXPECT_EQ(tree.job->files, flat.job->files);
    EXPECT_EQ(tree.job->hosts, (std::vector<std::string>{"node0", "node1"}));
    EXPECT_EQ(tree.coverage.launches, 10u);
    const std::vector<std::string> warnings{"ranks 0, 2: W", "rank 1: Y", "rank 3: X"};
    EXPECT_EQ(flat.warnings, warnings);
    EXPECT_EQ(tree.warnings, warnings);
}

TEST(ToolsMergeTree, APartGivenTwiceIsRefusedByItsRanks) {
    const Profile ab = through_file(irf::report::merge_profiles(
        {rank(0, 100, 1, "W"), rank(1, 400, 2, "W")}, {"a.json", "b.json"}, false));
    try {
        (void)irf::report::merge_profiles({ab, ab}, {"ab.json", "ab2.json"}, false);
        FAIL() << "a part given twice was merged";
    } catch (const std::exception& e) {
        EXPECT_STREQ(e.what(), "ab2.json: rank 0 is also ab.json (the same rank given twice?)");
    }
}

TEST(ToolsMergeTree, FoldedWarningsAreReadBackAndOtherTextIsNot) {
    irf::report::MergeWarnings w;
    EXPECT_TRUE(w.add_folded("ranks 0-2, 7: slow"));
    EXPECT_TRUE(w.add_folded("rank 3: slow"));
    EXPECT_FALSE(w.add_folded("ranks of the job: text"));
    EXPECT_FALSE(w.add_folded("ranks 0-99999999: too long a range"));
    w.add("slow", 9);
    EXPECT_EQ(w.folded(), (std::vector<std::string>{"ranks 0-3, 7, 9: slow"}));
    EXPECT_EQ(irf::report::rank_ranges({5, 1, 2, 3}), "1-3, 5");
}

} // namespace
} // namespace test_merge_tree

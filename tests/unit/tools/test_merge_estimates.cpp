// SPDX-License-Identifier: Apache-2.0
// irf-report merge of IRF_TIMING=sampled estimates (issue 55 item 5; docs/configuration.md,
// "Sampled timing"): totals add, an estimated part makes the job's total an estimate, and the
// ranks' standard errors add in quadrature; numbers computed by hand.
#include <gtest/gtest.h>

#include <optional>

#include "model/profile/profile_json.hpp"
#include "tools/irf_report/merge_profiles.hpp"

namespace test_merge_estimates {
namespace {

using irf::model::KernelRecord;
using irf::model::Profile;

// Rank r ran "k" 100 times for `total_ns`, `estimated` of them untimed with an error of
// `error_ns` (none: measured), and "m" (10 launches, 500 ns, measured).
Profile estimating_rank(int r, double total_ns, std::uint64_t estimated,
                        std::optional<double> error_ns) {
    Profile p;
    p.rank = r;
    p.gpu.name = "G";
    KernelRecord k;
    k.name = "k";
    k.launches = 100;
    k.time_ns = {total_ns, 1.0, total_ns / 100, 50};
    k.estimated_launches = estimated;
    k.estimate_error_ns = error_ns;
    p.kernels.push_back(k);
    KernelRecord m;
    m.name = "m";
    m.launches = 10;
    m.time_ns = {500, 50, 50, 50};
    p.kernels.push_back(m);
    return p;
}

Profile merged_job(const std::vector<Profile>& ranks) {
    std::vector<std::string> files;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        files.push_back("r" + std::to_string(i) + ".json");
    }
    const Profile job = irf::report::merge_profiles(ranks, files, false);
    // As written and read back: what the next merge or a reader sees.
    return irf::model::profile_from_json(nlohmann::json::parse(irf::model::dump_profile(job)));
}

TEST(ToolsMergeEstimates, TotalsAddAndErrorsAddInQuadrature) {
    // Rank 0 measured 1000 ns; rank 1 estimated 80 launches of its 2000 ns with an error of
    // 30 ns, rank 2 40 launches of 3000 ns with 40 ns: 6000 ns, 120 launches estimated,
    // sqrt(30^2 + 40^2) = 50 ns.
    const Profile job =
        merged_job({estimating_rank(0, 1000, 0, std::nullopt), estimating_rank(1, 2000, 80, 30.0),
                    estimating_rank(2, 3000, 40, 40.0)});
    ASSERT_EQ(job.kernels.size(), 2u);
    const KernelRecord& k = job.kernels[0];
    EXPECT_DOUBLE_EQ(k.time_ns.total, 6000);
    EXPECT_EQ(k.estimated_launches, 120u);
    ASSERT_TRUE(k.estimate_error_ns.has_value());
    EXPECT_DOUBLE_EQ(*k.estimate_error_ns, 50);
    // Measured on every rank: no estimate.
    EXPECT_EQ(job.kernels[1].estimated_launches, 0u);
    EXPECT_FALSE(job.kernels[1].estimate_error_ns.has_value());
    const nlohmann::json written = nlohmann::json::parse(irf::model::dump_profile(job));
    EXPECT_EQ(written["kernels"][0]["time_ns"]["estimated"],
              (nlohmann::json{{"launches", 120}, {"error_ns", 50.0}}));
    EXPECT_FALSE(written["kernels"][1]["time_ns"].contains("estimated"));
}

TEST(ToolsMergeEstimates, MeasuredOnTheFirstRankAndEstimatedOnAnotherIsAnEstimate) {
    // The first rank (whose record the job starts from) measured; rank 1 estimated 5 launches
    // with an error of 12 ns: the job's total is an estimate with that error.
    const Profile job =
        merged_job({estimating_rank(0, 1000, 0, std::nullopt), estimating_rank(1, 2000, 5, 12.0)});
    EXPECT_EQ(job.kernels[0].estimated_launches, 5u);
    EXPECT_DOUBLE_EQ(job.kernels[0].estimate_error_ns.value_or(-1), 12);
    // The other way round: the estimate of the first rank is kept, not dropped or doubled.
    const Profile back =
        merged_job({estimating_rank(0, 2000, 5, 12.0), estimating_rank(1, 1000, 0, std::nullopt)});
    EXPECT_EQ(back.kernels[0].estimated_launches, 5u);
    EXPECT_DOUBLE_EQ(back.kernels[0].estimate_error_ns.value_or(-1), 12);
}

TEST(ToolsMergeEstimates, AnUnknownErrorMakesTheJobsErrorUnknown) {
    // Rank 1's estimate had under two timed launches (error null): the sum's error is unknown,
    // never the other rank's 30 ns alone.
    const Profile job = merged_job(
        {estimating_rank(0, 2000, 80, 30.0), estimating_rank(1, 3000, 40, std::nullopt)});
    EXPECT_EQ(job.kernels[0].estimated_launches, 120u);
    EXPECT_FALSE(job.kernels[0].estimate_error_ns.has_value());
}

TEST(ToolsMergeEstimates, ATreeOfMergesGivesTheFlatMergesError) {
    // (r0 + r1) + r2 = r0 + r1 + r2: sqrt(sqrt(30^2 + 40^2)^2 + 120^2) = sqrt(2500 + 14400) = 130.
    const Profile r0 = estimating_rank(0, 2000, 80, 30.0);
    const Profile r1 = estimating_rank(1, 3000, 40, 40.0);
    const Profile r2 = estimating_rank(2, 4000, 10, 120.0);
    const Profile part = merged_job({r0, r1});
    const Profile tree = merged_job({part, r2});
    EXPECT_EQ(tree.kernels[0].estimated_launches, 130u);
    EXPECT_DOUBLE_EQ(tree.kernels[0].estimate_error_ns.value_or(-1), 130);
    EXPECT_DOUBLE_EQ(tree.kernels[0].time_ns.total, 9000);
}

} // namespace
} // namespace test_merge_estimates

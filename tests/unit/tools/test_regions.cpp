// SPDX-License-Identifier: Apache-2.0
// NVTX regions in irf-report: merged across ranks by path, compared by path, listed as CSV.
#include <gtest/gtest.h>

#include "model/roofline/regions.hpp"
#include "tools/irf_report/compare_kernels.hpp"
#include "tools/irf_report/csv_kernels.hpp"
#include "tools/irf_report/merge_profiles.hpp"

namespace irf::report {
namespace tools_test_regions {
namespace {

model::Profile rank_profile(int rank, double fwd_ns, std::uint64_t fwd_profiled) {
    model::Profile p;
    p.rank = rank;
    p.gpu.name = "GPU";
    model::KernelRecord k;
    k.name = "gemm()";
    k.launches = 4;
    k.profiled_launches = fwd_profiled;
    k.time_ns.total = fwd_ns + 100;
    k.counters = {{"inst_warp", 1000}, {"time_ns", 500}};
    k.regions = {{"step/fwd", 3, fwd_ns, fwd_profiled}, {"step/bwd", 1, 100, 0}};
    p.kernels.push_back(k);
    model::roll_up_regions(p);
    return p;
}

TEST(ReportRegions, MergeSumsRegionsAcrossRanksByPath) {
    const model::Profile job = merge_profiles({rank_profile(0, 900, 1), rank_profile(1, 1500, 2)},
                                              {"r0.json", "r1.json"}, false);
    ASSERT_EQ(job.regions.size(), 2u);
    const model::RegionRecord& fwd = job.regions[0];
    EXPECT_EQ(fwd.path, "step/fwd");
    EXPECT_EQ(fwd.time_ns, 2400);                               // 900 + 1500
    EXPECT_EQ(fwd.launches, 6u);                                // 3 + 3
    EXPECT_EQ(job.kernels[0].regions[0].profiled_launches, 3u); // 1 + 2
    EXPECT_EQ(job.regions[1].time_ns, 200);                     // bwd: 100 + 100
}

TEST(ReportRegions, CsvListsOneRowPerRegion) {
    model::Profile p = rank_profile(0, 900, 1);
    p.kernels[0].analysis = model::KernelAnalysis{};
    p.kernels[0].analysis->irm = model::IrmResult{};
    p.kernels[0].analysis->irm->bound = "hbm";
    model::roll_up_regions(p);
    const std::string csv = regions_csv(p);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "path,time_ns,launches,kernels,profiled_launches,gips_warp,gflops,ii_l1,ii_l2,"
              "ii_hbm,share_hbm");
    // fwd: 900 ns, 3 launches, 1 kernel, 1 profiled launch; gips = 1000 / 500 = 2; gflops =
    // 0 FLOPs / 500 ns = 0; no transaction counters: empty II cells; all its time hbm-bound.
    EXPECT_NE(csv.find("step/fwd,900,3,1,1,2,0,,,,1\n"), std::string::npos) << csv;
}

TEST(ReportRegions, CompareMatchesRegionsByPath) {
    model::Profile before = rank_profile(0, 900, 1);
    model::Profile after = rank_profile(0, 300, 1);
    after.regions.push_back({"new/phase", 50, 1, 1, std::nullopt, std::nullopt});
    const std::string text = compare_text(before, "a.json", after, "b.json");
    EXPECT_NE(text.find("step/fwd: 900 ns -> 300 ns (-66.7%), 3x faster"), std::string::npos)
        << text;
    EXPECT_NE(text.find("new/phase: only after"), std::string::npos) << text;
}

} // namespace
} // namespace tools_test_regions
} // namespace irf::report

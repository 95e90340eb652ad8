// SPDX-License-Identifier: Apache-2.0
// irf-report csv at scale: rows formatted on several threads, from projections folded into
// briefs, are the same bytes as rows formatted on one thread from the full projections.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "config/gpu_database.hpp"
#include "model/analyze.hpp"
#include "model/profile/profile_json.hpp"
#include "tools/irf_report/csv_kernels.hpp"

namespace irf::test {
namespace test_csv_rows {
namespace {

std::string source_path(const char* relative) {
    return (std::filesystem::path(IRF_SOURCE_DIR) / relative).string();
}

// 1,200 kernels from the bundled example (more than two threads' worth of rows), varied in
// time and grid so that rows differ.
model::Profile many_kernels() {
    const model::Profile example =
        model::load_profile(source_path("tests/data/examples/demo-profile.json"));
    model::Profile p = example;
    p.kernels.clear();
    for (std::size_t i = 0; i < 1200; ++i) {
        model::KernelRecord k = example.kernels[i % example.kernels.size()];
        k.name += "_" + std::to_string(i);
        k.analysis.reset();
        k.time_ns.total *= 1.0 + static_cast<double>(i % 29) / 7.0;
        k.launch.grid[0] = 1 + static_cast<std::uint32_t>(i * 131 % 5000);
        p.kernels.push_back(std::move(k));
    }
    return p;
}

// Twelve targets of every generation from Volta to Blackwell (every shipped one, 37, made this a
// slowest row under the sanitizers for nothing more).
constexpr const char* k_targets =
    "v100-sxm2,t4,rtx-2080-ti,a100-sxm4-80gb,a10,rtx-3090,l40s,rtx-4090,h100-pcie,h200-sxm,b200,"
    "rtx-5090";

TEST(ToolsCsvRows, FoldedOnFourThreadsEqualsFullOnOne) {
    const std::vector<std::string> dirs{source_path("config/gpus")};
    const config::Ceilings source = config::load_shipped("h100-sxm5", dirs);
    const std::vector<config::Ceilings> targets = config::resolve_targets(k_targets, dirs);
    model::Profile full = many_kernels();
    model::Profile folded = full;
    model::analyze(full, source, targets, {1, false});
    model::analyze(folded, source, targets, {2, false, true});
    ASSERT_FALSE(folded.brief_targets.empty()); // the briefs are what is read
    ASSERT_TRUE(folded.kernels[0].analysis->projection.empty());
    const std::string csv = report::profile_csv(full, 1);
    EXPECT_EQ(report::profile_csv(folded, 4), csv);
    EXPECT_EQ(report::profile_csv(full, 3), csv);
    // One header and 1,200 rows, each with the five columns of every target.
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1201);
    EXPECT_NE(csv.find(",proj_b200_time_point_ns,"), std::string::npos);
}

} // namespace
} // namespace test_csv_rows
} // namespace irf::test

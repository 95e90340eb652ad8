// SPDX-License-Identifier: Apache-2.0
// model::analyze on several threads writes the same profile as on one, and without projection
// details keeps every value the summaries and the CSV show (model/analyze.hpp, AnalyzeSettings).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "config/gpu_database.hpp"
#include "model/analyze.hpp"
#include "model/profile/profile_json.hpp"
#include "model/summary/text_summary.hpp"

namespace irf::model {
namespace test_analyze_threads {
namespace {

std::string source_path(const char* relative) {
    return (std::filesystem::path(IRF_SOURCE_DIR) / relative).string();
}

// Twelve targets, two or more of each generation and datapath layout from Volta to Blackwell:
// every shipped one (37) made these the slowest rows under the sanitizers, for no other case.
constexpr const char* k_targets =
    "v100-sxm2,t4,rtx-2080-ti,a100-sxm4-80gb,a10,rtx-3090,l40s,rtx-4090,h100-pcie,h200-sxm,b200,"
    "rtx-5090";

// The bundled example's kernels, 200 of them (four takes of 64 kernels) varied in time,
// work, grid and SM clock, so threads meet write-only kernels, scaled ceilings and every note.
Profile varied_profile() {
    const Profile example = load_profile(source_path("tests/data/examples/demo-profile.json"));
    Profile p = example;
    p.kernels.clear();
    for (std::size_t i = 0; i < 200; ++i) {
        KernelRecord k = example.kernels[i % example.kernels.size()];
        const double scale = 1.0 + static_cast<double>(i % 37) / 8.0;
        k.name += "_" + std::to_string(i);
        k.analysis.reset();
        k.time_ns.total *= scale;
        k.launch.grid[0] = 1 + static_cast<std::uint32_t>(i * 97 % 4000);
        for (const char* name : {"time_ns", "inst_warp", "inst_thread", "dram_sectors_read"}) {
            if (k.counters.count(name) != 0) {
                k.counters[name] *= scale;
            }
        }
        if (i % 3 == 0) {
            k.counters["clock_hz"] = 1.2e9 + 1e7 * static_cast<double>(i % 5);
        }
        p.kernels.push_back(std::move(k));
    }
    return p;
}

struct Analysed {
    Profile one, many;
};

Analysed analysed(bool details_on_many) {
    const std::vector<std::string> dirs{source_path("config/gpus")};
    const config::Ceilings source = config::load_shipped("h100-sxm5", dirs);
    const std::vector<config::Ceilings> targets = config::resolve_targets(k_targets, dirs);
    Analysed a{varied_profile(), {}};
    a.many = a.one;
    analyze(a.one, source, targets, {1, true});
    analyze(a.many, source, targets, {4, details_on_many});
    return a;
}

TEST(ModelAnalyzeThreads, FourThreadsWriteTheSameProfileAsOne) {
    const Analysed a = analysed(true);
    ASSERT_EQ(a.one.kernels.size(), 200u);
    ASSERT_EQ(a.one.kernels[7].analysis->projection.size(), 12u); // every target
    EXPECT_EQ(dump_profile(a.one), dump_profile(a.many));
}

TEST(ModelAnalyzeThreads, WithoutDetailsTheShownValuesAreKept) {
    const Analysed a = analysed(false);
    std::size_t projections = 0;
    for (std::size_t i = 0; i < a.one.kernels.size(); ++i) {
        const auto& full = a.one.kernels[i].analysis->projection;
        const auto& lean = a.many.kernels[i].analysis->projection;
        ASSERT_EQ(full.size(), lean.size());
        for (std::size_t j = 0; j < full.size(); ++j, ++projections) {
            EXPECT_EQ(lean[j].target, full[j].target);
            EXPECT_EQ(lean[j].time_point_ns, full[j].time_point_ns);
            EXPECT_EQ(lean[j].time_low_ns, full[j].time_low_ns);
            EXPECT_EQ(lean[j].time_high_ns, full[j].time_high_ns);
            EXPECT_EQ(lean[j].speedup_point, full[j].speedup_point);
            EXPECT_EQ(lean[j].confidence, full[j].confidence);
            EXPECT_EQ(lean[j].bound_target, full[j].bound_target);
            EXPECT_FALSE(full[j].notes.empty());
            EXPECT_TRUE(lean[j].notes.empty());
            EXPECT_TRUE(lean[j].resource_ns_target.empty());
            EXPECT_FALSE(lean[j].waves_target.has_value());
        }
    }
    EXPECT_GT(projections, 2000u);
}

// Folded (the text-only summary of irf-report analyze): each kernel keeps one brief per target
// with the values the per-target section sums, no projection, and the summary reads the same.
TEST(ModelAnalyzeThreads, FoldedProjectionsGiveTheSameSummary) {
    const std::vector<std::string> dirs{source_path("config/gpus")};
    const config::Ceilings source = config::load_shipped("h100-sxm5", dirs);
    const std::vector<config::Ceilings> targets = config::resolve_targets(k_targets, dirs);
    ASSERT_GT(targets.size(), k_summary_target_columns);
    Profile full = varied_profile();
    Profile folded = full;
    analyze(full, source, targets, {2, false});
    analyze(folded, source, targets, {2, false, true});
    ASSERT_EQ(folded.brief_targets.size(), targets.size());
    std::size_t briefs = 0;
    for (std::size_t i = 0; i < full.kernels.size(); ++i) {
        const KernelAnalysis& f = *full.kernels[i].analysis;
        const KernelAnalysis& b = *folded.kernels[i].analysis;
        EXPECT_TRUE(b.projection.empty());
        ASSERT_EQ(b.projection_brief.size(), f.projection.size());
        for (std::size_t j = 0; j < f.projection.size(); ++j, ++briefs) {
            const ProjectionBrief& brief = b.projection_brief[j];
            EXPECT_EQ(folded.brief_targets.at(brief.target), f.projection[j].target);
            EXPECT_EQ(brief.point_ns, f.projection[j].time_point_ns);
            EXPECT_EQ(brief.low_ns, f.projection[j].time_low_ns);
            EXPECT_EQ(brief.high_ns, f.projection[j].time_high_ns);
            EXPECT_EQ(brief.low_confidence, f.projection[j].confidence == "low");
            EXPECT_EQ(brief.speedup, f.projection[j].speedup_point);
        }
    }
    EXPECT_GT(briefs, 2000u);
    EXPECT_EQ(text_summary(folded, {}), text_summary(full, {}));
    // With as few targets as the summary shows per kernel, nothing is folded.
    Profile few = varied_profile();
    analyze(few, source, {targets.begin(), targets.begin() + 2}, {2, false, true});
    EXPECT_TRUE(few.brief_targets.empty());
    EXPECT_EQ(few.kernels[0].analysis->projection.size(), 2u);
}

} // namespace
} // namespace test_analyze_threads
} // namespace irf::model

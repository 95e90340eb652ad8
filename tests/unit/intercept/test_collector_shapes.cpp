// SPDX-License-Identifier: Apache-2.0
// One (name, launch configuration) key running several shapes (issue 41 items 1, 2 and 6): a
// profiled launch counts at its own duration, samples follow the duration clusters, and a
// kernel without counters says why.
#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "tests/unit/intercept/collector_profile.hpp"

namespace irf::intercept {
namespace test_collector_shapes {
namespace {

config::Config plain() {
    config::Config c;
    c.callstack = 0;
    return c;
}

/// One launch of `name` (handle `fn`): counters (with `own_ns` as time_ns when > 0) if chosen,
/// then its activity record of `activity_ns`. Returns whether it was profiled.
bool launch(Collector& c, std::uint64_t id, double own_ns, double activity_ns,
            const char* name = "_Z4gemmv", std::uintptr_t fn = 0x40, bool graph = false) {
    LaunchEvent e;
    e.function = reinterpret_cast<const void*>(fn);
    e.mangled = name;
    e.correlation_id = id;
    e.graph = graph;
    const bool profiled = test::sampled(c.on_launch(e));
    if (profiled) {
        model::Counters counters{{"inst_warp", 10}};
        if (own_ns > 0) {
            counters["time_ns"] = own_ns;
        }
        c.on_counters({id, counters, 1});
    }
    c.on_duration({id, 1000, 1000 + static_cast<std::uint64_t>(activity_ns)});
    return profiled;
}

using test::profile_of;

TEST(CollectorShapes, FourfoldShapesSumToTheirLaunches) {
    Collector c{plain()};
    // Shape A runs 100 us, shape B 400 us; a replay pass takes 50 us longer than the launch.
    EXPECT_TRUE(launch(c, 1, 100e3, 150e3));  // A, first launch: provisional sample
    EXPECT_TRUE(launch(c, 2, 400e3, 450e3));  // B, the IRF_SAMPLES=1 sample
    EXPECT_FALSE(launch(c, 3, 100e3, 100e3)); // A: a cluster without a sample -> ask for one
    EXPECT_TRUE(launch(c, 4, 100e3, 150e3));  // A, the cluster sample
    EXPECT_FALSE(launch(c, 5, 400e3, 400e3)); // B: its cluster has a sample
    const model::Profile p = profile_of(c);
    ASSERT_EQ(p.kernels.size(), 1u);
    const model::KernelRecord& k = p.kernels[0];
    // Total = 100 + 400 + 100 + 100 + 400 us = 1100 us (the imputed mean would give
    // 3 x 250 + 500 = 1250 us).
    EXPECT_DOUBLE_EQ(k.time_ns.total, 1100e3);
    // min/mean/max: the unprofiled launches 3 and 5 (100, 400 -> mean 250 us); the first is
    // reported.
    EXPECT_DOUBLE_EQ(k.time_ns.min, 100e3);
    EXPECT_DOUBLE_EQ(k.time_ns.max, 400e3);
    EXPECT_DOUBLE_EQ(k.time_ns.mean, 250e3);
    ASSERT_TRUE(k.first_launch_ns.has_value());
    EXPECT_DOUBLE_EQ(*k.first_launch_ns, 100e3);
    EXPECT_EQ(k.imputed_launches, 0u);
    EXPECT_EQ(k.profiled_launches, 2u); // launches 2 and 4 (the first's sample is dropped)
    EXPECT_DOUBLE_EQ(k.counters.at("time_ns"), 500e3);
    ASSERT_EQ(k.duration_clusters.size(), 2u);
    EXPECT_DOUBLE_EQ(k.duration_clusters[0].time_ns, 200e3); // launches 3 and 4
    EXPECT_EQ(k.duration_clusters[0].profiled, 1u);
    EXPECT_DOUBLE_EQ(k.duration_clusters[1].time_ns, 800e3); // launches 2 and 5
    EXPECT_EQ(k.duration_clusters[1].profiled, 1u);
    EXPECT_TRUE(k.no_counters.empty());
}

// As on the H100 (tests/data/gpu/h100/call3/irf/bank-ways1.json): three launches, the first
// loads the module, the second is the sample and runs 2.50 us under counters, the third 1.41 us.
// min/mean/max are the third's alone; the total keeps the sample's own duration.
TEST(CollectorShapes, AProfiledLaunchStaysOutOfMinMeanMax) {
    Collector c{plain()};
    EXPECT_TRUE(launch(c, 1, 2496, 2600)); // first launch: provisional sample
    EXPECT_TRUE(launch(c, 2, 2496, 2600)); // the sample
    EXPECT_FALSE(launch(c, 3, 0, 1408));   // unprofiled
    const model::KernelRecord k = profile_of(c).kernels.at(0);
    EXPECT_DOUBLE_EQ(k.time_ns.min, 1408);
    EXPECT_DOUBLE_EQ(k.time_ns.mean, 1408);
    EXPECT_DOUBLE_EQ(k.time_ns.max, 1408);
    EXPECT_DOUBLE_EQ(k.time_ns.total, 2496 + 2496 + 1408);
    EXPECT_EQ(k.imputed_launches, 0u);
    bool noted = false;
    for (const std::string& note : k.notes) {
        noted = noted || note.find("1 launch under counters left out of min/mean/max (in the "
                                   "total at its own duration): under counters 2.50 us a "
                                   "launch, unprofiled 1.41 us") != std::string::npos;
    }
    EXPECT_TRUE(noted) << testing::PrintToString(k.notes);
}

// Without an unprofiled launch after the first, min/mean/max are the samples' own durations,
// and a note says they were measured under counters.
TEST(CollectorShapes, OnlyProfiledLaunchesGiveTheirOwnDurations) {
    Collector c{plain()};
    EXPECT_TRUE(launch(c, 1, 3000, 3100)); // first launch
    EXPECT_TRUE(launch(c, 2, 2000, 2100)); // the sample, the only launch after the first
    const model::KernelRecord k = profile_of(c).kernels.at(0);
    EXPECT_DOUBLE_EQ(k.time_ns.mean, 2000);
    EXPECT_DOUBLE_EQ(k.time_ns.total, 5000);
    bool noted = false;
    for (const std::string& note : k.notes) {
        noted = noted || note.find("every launch after the first was profiled") == 0;
    }
    EXPECT_TRUE(noted) << testing::PrintToString(k.notes);
}

TEST(CollectorShapes, WithoutOwnDurationTheLaunchIsImputedAndCounted) {
    Collector c{plain()};
    EXPECT_TRUE(launch(c, 1, 0, 900));  // first launch, provisional sample, no time_ns
    EXPECT_TRUE(launch(c, 2, 0, 900));  // the sample, no time_ns
    EXPECT_FALSE(launch(c, 3, 0, 200)); // timed
    EXPECT_FALSE(launch(c, 4, 0, 400)); // timed
    const model::KernelRecord k = profile_of(c).kernels.at(0);
    // Launches 1 and 2 count at the unprofiled warm mean (200 + 400) / 2 = 300:
    // 300 + 300 + 200 + 400 = 1200.
    EXPECT_DOUBLE_EQ(k.time_ns.total, 1200);
    EXPECT_EQ(k.imputed_launches, 2u);
}

TEST(CollectorShapes, OneShapeAsksForNoFurtherSample) {
    Collector c{plain()};
    int profiled = 0;
    for (std::uint64_t id = 1; id <= 6; ++id) {
        profiled += launch(c, id, 100 + static_cast<double>(id), 100 + static_cast<double>(id));
    }
    EXPECT_EQ(profiled, 2); // the first launch and the one sample: 101..106 ns is one cluster
    EXPECT_TRUE(profile_of(c).kernels.at(0).duration_clusters.empty());
}

TEST(CollectorShapes, ClusterSamplesStopAtTheirBudget) {
    Collector c{plain()};
    int profiled = 0;
    // A sample always lands on 100 ns while launches of 1000 ns keep asking for their cluster:
    // IRF_SAMPLES (1) x 3 further clusters = 3 tries, then no more.
    profiled += launch(c, 1, 100, 100); // first launch
    profiled += launch(c, 2, 100, 100); // the sample
    for (std::uint64_t id = 3; id <= 20; ++id) {
        profiled += launch(c, id, 100, 1000);
    }
    EXPECT_EQ(profiled, 2 + 3);
}

TEST(CollectorShapes, KernelsWithoutCountersSayWhy) {
    config::Config cfg = plain();
    cfg.kernels = "gemm|nccl|graph_k|late";
    cfg.launch_count = 2; // the gemm's first launch and sample
    Collector c{cfg};
    launch(c, 1, 10, 10);
    launch(c, 2, 10, 10);
    launch(c, 3, 10, 10, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 0x50);
    launch(c, 4, 10, 10, "_Z7graph_kv", 0x60, true);
    launch(c, 5, 10, 10, "_Z4latev", 0x70);
    launch(c, 6, 10, 10, "_Z5otherv", 0x80);
    std::map<std::string, model::KernelRecord> by_name;
    for (const model::KernelRecord& k : profile_of(c).kernels) {
        by_name[k.name] = k;
    }
    EXPECT_TRUE(by_name.at("gemm()").no_counters.empty());
    EXPECT_FALSE(by_name.at("gemm()").collective);
    const model::KernelRecord& nccl = by_name.at("ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    EXPECT_EQ(nccl.no_counters, "excluded: collective");
    EXPECT_TRUE(nccl.collective);
    EXPECT_EQ(by_name.at("graph_k()").no_counters, "graph node: timed only");
    EXPECT_EQ(by_name.at("late()").no_counters, "sample budget spent: IRF_LAUNCH_COUNT");
    EXPECT_EQ(by_name.at("other()").no_counters, "filtered: IRF_KERNELS");
}

} // namespace
} // namespace test_collector_shapes
} // namespace irf::intercept

// SPDX-License-Identifier: Apache-2.0
// Kernel table orders and names (#41 items 4 and 9): recoverable time, the launch shape that
// tells records of one symbol apart.
#include <gtest/gtest.h>

#include "model/analyze.hpp"
#include "model/profile/kernel_labels.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::model {
namespace test_kernel_labels {
namespace {

KernelRecord kernel(const std::string& name, double total_ns, std::optional<double> roof_pct) {
    KernelRecord k;
    k.name = name;
    k.time_ns.total = total_ns;
    if (roof_pct) {
        k.analysis.emplace();
        k.analysis->irm.emplace();
        k.analysis->irm->bound = "hbm";
        k.analysis->irm->roofline_pct = *roof_pct;
    }
    return k;
}

TEST(KernelLabels, RecoverableTimeIsWhatTheRooflineWouldSave) {
    // 10 ms at 25% of its roofline: 10 x (1 - 0.25) = 7.5 ms could be saved.
    EXPECT_DOUBLE_EQ(*recoverable_ns(kernel("a", 10e6, 25.0)), 7.5e6);
    // Above the roofline (ceilings of another GPU) counts as at it: nothing to save, never < 0.
    EXPECT_DOUBLE_EQ(*recoverable_ns(kernel("b", 4e6, 130.0)), 0.0);
    EXPECT_FALSE(recoverable_ns(kernel("c", 4e6, std::nullopt)).has_value()); // no verdict
}

TEST(KernelLabels, RecoverableOrderPutsTheLargestSavingFirst) {
    // a: 10 ms at 90% -> 1 ms; b: 4 ms at 25% -> 3 ms; c: 20 ms, no roofline -> last.
    const std::vector<KernelRecord> kernels = {kernel("a", 10e6, 90.0), kernel("b", 4e6, 25.0),
                                               kernel("c", 20e6, std::nullopt)};
    const std::vector<std::string> labels = {"a", "b", "c"};
    EXPECT_EQ(kernel_order(kernels, labels, KernelOrder::recoverable),
              (std::vector<std::size_t>{1, 0, 2}));
    EXPECT_EQ(kernel_order(kernels, labels, KernelOrder::time),
              (std::vector<std::size_t>{2, 0, 1}));
    EXPECT_EQ(parse_kernel_order("recoverable"), KernelOrder::recoverable);
}

TEST(KernelLabels, LaunchShapeLeavesOutUnitDimensions) {
    LaunchConfig launch;
    launch.grid = {132, 1, 1};
    launch.block = {256, 1, 1};
    EXPECT_EQ(launch_shape(launch), "g132 b256");
    launch.grid = {64, 8, 1};
    launch.block = {32, 8, 1};
    EXPECT_EQ(launch_shape(launch), "g64x8 b32x8");
    launch.grid = {1, 1, 4};
    EXPECT_EQ(launch_shape(launch), "g1x1x4 b32x8");
}

TEST(KernelLabels, RecordsOfOneKernelAreNamedByTheirShape) {
    KernelRecord small = kernel("void scale<float>(float*)", 1e6, std::nullopt);
    small.launch.grid = {132, 1, 1};
    small.launch.block = {256, 1, 1};
    KernelRecord large = small;
    large.launch.grid = {264, 1, 1};
    EXPECT_EQ(kernel_labels({small, large}),
              (std::vector<std::string>{"scale<float> [g132 b256]", "scale<float> [g264 b256]"}));
}

TEST(KernelLabels, UnderFilledGridIsNoted) {
    // 64 blocks on the V100's 80 SMs: 80 - 64 = 16 SMs idle, 16 / 80 = 20%.
    Profile p;
    p.kernels.push_back(test::kernel_record(1000, 64));
    p.kernels.push_back(test::kernel_record(1000, 80)); // one block per SM: nothing to say
    analyze(p, test::v100(), {});
    const auto& notes = p.kernels[0].analysis->notes;
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0], "launch: under-filled grid: 64 blocks on 80 SMs, so 16 SMs (20%) idle for "
                        "the whole kernel; more blocks (or split-K) would use them");
    EXPECT_TRUE(p.kernels[1].analysis->notes.empty());
}

} // namespace
} // namespace test_kernel_labels
} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// integration tests (no GPU): H100 profiles projected onto the H200 against durations measured
// on an H200 (tests/data/gpu/projection/, docs/validation/projection.md). `irf-report
// check-projection` re-analyses the H100 recordings with today's model, so a model change that
// worsens the projection's error fails here. The bounds sit just above the figures of
// 2026-11-27 (in brackets); a change that improves them should lower the bounds.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/golden.hpp"
#include "tests/support/run_process.hpp"

namespace test_projection_recorded {
namespace {

using nlohmann::json;

std::string recording(const std::string& gpu, const std::string& name) {
    return irf::test::data_path("gpu/projection/" + gpu + "/" + name + ".json");
}

/// check-projection of `name` (H100 -> H200) as JSON; `extra`: further options.
json check(const std::string& name, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> argv = {
        IRF_REPORT_BIN,          "check-projection", recording("h100", name),
        recording("h200", name), "--format",         "json"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    const auto r = irf::test::run_process(argv);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out);
}

/// The compared kernel whose demangled name contains `part` (the first, longest measured).
json kernel_like(const json& result, const std::string& part) {
    for (const json& k : result.at("kernels")) {
        if (k.at("name").get<std::string>().find(part) != std::string::npos) {
            return k;
        }
    }
    ADD_FAILURE() << "no compared kernel like " << part;
    return json::object();
}

// BabelStream's streams and cuBLAS GEMMs (tests/gpu/torch/projection_kernels.py): onto the
// shipped h200-sxm ceilings, the per-launch error stays small [MAPE 3.4%, weighted 1.8%].
TEST(ProjectionRecorded, StreamsAndGemmsOntoTheShippedH200) {
    const json r = check("projection_kernels");
    EXPECT_EQ(r.at("target"), "h200-sxm");
    const json& s = r.at("summary");
    EXPECT_EQ(s.at("compared"), 11);
    EXPECT_LE(s.at("mape").get<double>(), 0.04);
    EXPECT_LE(s.at("weighted_mape").get<double>(), 0.02);
    // The add stream (and the triad: torch runs both as one kernel) is HBM-bound on both: its
    // recorded 266.4 us a launch (44 launches: add and triad, 22 each) shrinks by the shipped HBM
    // bandwidths, 3352.3 GB/s (104.759375 G sectors/s x 32 B) -> 4800 GB/s, all but the H100's
    // launch floor, which becomes the H200's (docs/model.md, "Launch floor + work"):
    // 738.9 + (266425 - 896.4) x 3352.3 / 4800 = 186182.8 ns.
    const json add = kernel_like(r, "CUDAFunctor_add");
    const double recorded = add.at("recorded_mean_ns").get<double>();
    EXPECT_NEAR(recorded, 266425, 1);
    EXPECT_NEAR(add.at("predicted_mean_ns").get<double>(),
                738.9 + (recorded - 896.4) * 3352.3 / 4800, 30);
    EXPECT_EQ(add.at("bound_source"), "hbm");
    // Measured on the H200: 184.8 us, +0.75% from the prediction.
    EXPECT_NEAR(add.at("measured_mean_ns").get<double>(), 184800, 100);
    EXPECT_NEAR(add.at("error").get<double>(), 0.0075, 0.001);
}

// With the ceilings irf-calibrate measured on each GPU, the streams' error stays under 3.5%
// [0.9, 1.3, 1.0 and 3.0% for add (and triad, the same kernel), mul, dot and fill; copy is a
// cudaMemcpy, not a kernel].
TEST(ProjectionRecorded, StreamsOntoMeasuredCeilings) {
    const json r =
        check("projection_kernels", {"--ceilings", irf::test::data_path("gpu/h100/calibrate.yaml"),
                                     "--target", irf::test::data_path("gpu/h200/calibrate.yaml")});
    for (const char* stream : {"CUDAFunctor_add", "MulFunctor", "dot_kernel", "FillFunctor"}) {
        EXPECT_LE(std::abs(kernel_like(r, stream).at("error").get<double>()), 0.035) << stream;
    }
}

// The PyTorch training step (tests/gpu/torch/train_step.py): 102 kernels compared [MAPE 9.0%,
// weighted by time 6.2%, after the warm-L2 rule; issue 54 asks under 10% by time; the misses are
// sub-2-us launches and HBM-bound launches near the L2's size, docs/validation/projection.md].
TEST(ProjectionRecorded, TrainingStepOntoTheShippedH200) {
    const json r = check("torch_step");
    const json& s = r.at("summary");
    EXPECT_GE(s.at("compared").get<int>(), 100);
    EXPECT_LE(s.at("mape").get<double>(), 0.095);
    EXPECT_LE(s.at("weighted_mape").get<double>(), 0.07);
    for (const char* naive : {"mape_sm_clock", "mape_dram", "mape_by_bound"}) {
        EXPECT_LT(s.at("mape").get<double>(), s.at(naive).get<double>()) << naive;
    }
    // Every miss over 25% is one the model flags as low confidence (sub-2-us launches are
    // latency-bound; the attention kernels' HBM bound is uncertain); the 20 high-confidence
    // kernels are within 6.2% on average.
    for (const json& k : r.at("kernels")) {
        if (std::abs(k.at("error").get<double>()) > 0.25) {
            EXPECT_EQ(k.at("confidence"), "low") << k.at("name");
        }
    }
    EXPECT_GE(s.at("high_confidence").get<int>(), 20);
    EXPECT_LE(s.at("high_confidence_mape").get<double>(), 0.07);
    // Kernels launched once are left out: their time includes lazy module loading.
    bool single_left_out = false;
    for (const json& why : r.at("left_out")) {
        single_left_out =
            single_left_out || why.get<std::string>().find("a single launch") != std::string::npos;
    }
    EXPECT_TRUE(single_left_out);
}

// Through the command, the high-confidence MAPE is the mean |error| of the kernels it lists as
// high confidence, not of every compared kernel (docs/tools.md): the training step has both.
TEST(ProjectionRecorded, HighConfidenceMapeIsOverTheHighConfidenceKernels) {
    const json r = check("torch_step");
    double sum = 0;
    int high = 0;
    for (const json& k : r.at("kernels")) {
        if (k.at("confidence") == "high") {
            sum += std::abs(k.at("error").get<double>());
            ++high;
        }
    }
    const json& s = r.at("summary");
    ASSERT_GT(high, 0);
    ASSERT_LT(high, s.at("compared").get<int>()); // some are low: the two means differ
    EXPECT_EQ(s.at("high_confidence").get<int>(), high);
    EXPECT_NEAR(s.at("high_confidence_mape").get<double>(), sum / high, 1e-12);
}

} // namespace
} // namespace test_projection_recorded

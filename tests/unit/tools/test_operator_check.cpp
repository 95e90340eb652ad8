// SPDX-License-Identifier: Apache-2.0
// unit tests: check-projection --published (tools/irf_report/operator_check.hpp): operators
// summed per NVTX range, projected, against published times and the naive scalings; every value
// worked out here.
#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

#include "tools/irf_report/command.hpp"
#include "tools/irf_report/operator_check.hpp"

namespace irf::report {
namespace test_operator_check {
namespace {

/// A kernel of `total_ns` in all, its time under each range in `regions`, projected onto "t"
/// (total low/point/high) when `point` > 0, else without counters.
model::KernelRecord kernel(const std::string& name, double total_ns,
                           std::vector<std::pair<std::string, double>> regions, double low = 0,
                           double point = 0, double high = 0, const std::string& bound = "") {
    model::KernelRecord k;
    k.name = name;
    k.launches = 10;
    k.time_ns.total = total_ns;
    k.time_ns.mean = total_ns / 10;
    for (const auto& [path, ns] : regions) {
        k.regions.push_back({path, 2, ns, 0});
    }
    if (point > 0) {
        k.profiled_launches = 1;
        model::Projection p;
        p.target = "t";
        p.time_low_ns = low;
        p.time_point_ns = point;
        p.time_high_ns = high;
        p.bound_source = bound;
        k.analysis.emplace().projection.push_back(p);
    } else {
        k.no_counters = "graph node: timed only";
    }
    return k;
}

OperatorCheck worked_example() {
    model::Profile recorded;
    // K1: 1000 ns in all (100 outside every range), x0.5 (0.4 - 0.7), DRAM-bound.
    recorded.kernels.push_back(
        kernel("K1", 1000, {{"opA", 600}, {"opB/inner", 300}}, 400, 500, 700, "hbm"));
    // K2: 200 ns, all under opA, x3 (1.5 - 4.5), issue-bound.
    recorded.kernels.push_back(kernel("K2", 200, {{"opA", 200}}, 300, 600, 900, "issue"));
    recorded.kernels.push_back(kernel("K3", 50, {{"opC", 50}})); // no counters
    PublishedTimes published;
    published.gpu = "t";
    published.ns_per_call = {{"opA", 500}, {"opB", 150}, {"opC", 10}, {"opD", 10}};
    OperatorCheckSettings s;
    s.target = "t";
    s.calls = 2;
    s.floor_ns = 200;
    s.factors = {0.5, 0.25};
    return check_operators(recorded, published, s);
}

TEST(OperatorCheck, RangesSummedPerCallProjectedAndScaledAsWorkedOut) {
    const OperatorCheck c = worked_example();
    ASSERT_EQ(c.operators.size(), 2u);
    const OperatorProjection& a = c.operators[0]; // 500 ns measured: first
    EXPECT_EQ(a.name, "opA");
    EXPECT_EQ(a.kernels, 2u);
    EXPECT_DOUBLE_EQ(a.recorded_ns, 400);  // (600 + 200) / 2 calls
    EXPECT_DOUBLE_EQ(a.predicted_ns, 450); // (600 x 0.5 + 200 x 3) / 2
    EXPECT_DOUBLE_EQ(a.low_ns, 270);       // (600 x 0.4 + 200 x 1.5) / 2
    EXPECT_DOUBLE_EQ(a.high_ns, 660);      // (600 x 0.7 + 200 x 4.5) / 2
    // No calibrated interval here: the model's own is the same.
    EXPECT_DOUBLE_EQ(a.model_low_ns, 270);
    EXPECT_DOUBLE_EQ(a.model_high_ns, 660);
    EXPECT_DOUBLE_EQ(a.error, -0.1); // 450 vs 500
    EXPECT_TRUE(a.inside);
    EXPECT_DOUBLE_EQ(a.sm_clock_ns, 200); // 800 x 0.5 / 2
    EXPECT_DOUBLE_EQ(a.dram_ns, 100);     // 800 x 0.25 / 2
    EXPECT_DOUBLE_EQ(a.by_bound_ns, 125); // (600 x 0.25 (hbm) + 200 x 0.5 (issue)) / 2
    EXPECT_EQ(a.bound, "hbm");            // K1 has the most time under opA
    EXPECT_FALSE(a.launch_bound);
    const OperatorProjection& b = c.operators[1]; // a nested range counts in its top level
    EXPECT_EQ(b.name, "opB");
    EXPECT_DOUBLE_EQ(b.recorded_ns, 150);
    EXPECT_DOUBLE_EQ(b.predicted_ns, 75);
    EXPECT_DOUBLE_EQ(b.error, -0.5);
    EXPECT_FALSE(b.inside); // 60 - 105
    EXPECT_TRUE(b.launch_bound);
    ASSERT_EQ(c.left_out.size(), 2u);
    EXPECT_EQ(c.left_out[0], "opC: kernel K3: no counters (graph node: timed only)");
    EXPECT_EQ(c.left_out[1], "opD: not in the recorded profile");
}

TEST(OperatorCheck, HeadlineAndLaunchBoundSummariesApart) {
    const OperatorCheck c = worked_example();
    EXPECT_EQ(c.headline.count, 1u);
    EXPECT_DOUBLE_EQ(c.headline.mape, 0.1);
    EXPECT_DOUBLE_EQ(c.headline.weighted_mape, 0.1);
    EXPECT_DOUBLE_EQ(c.headline.inside_share, 1);
    EXPECT_DOUBLE_EQ(c.headline.naive.sm_clock, 0.6); // |200 - 500| / 500
    EXPECT_DOUBLE_EQ(c.headline.naive.dram, 0.8);     // |100 - 500| / 500
    EXPECT_DOUBLE_EQ(c.headline.naive.by_bound, 0.75);
    EXPECT_EQ(c.launch_bound.count, 1u);
    EXPECT_DOUBLE_EQ(c.launch_bound.mape, 0.5);
    EXPECT_DOUBLE_EQ(c.launch_bound.inside_share, 0);
    EXPECT_DOUBLE_EQ(c.launch_bound.naive.sm_clock, 0.5);  // 75 vs 150
    EXPECT_DOUBLE_EQ(c.launch_bound.naive.by_bound, 0.75); // DRAM-bound: 37.5 vs 150
    const std::string text = operator_check_text(c, 20, false);
    EXPECT_NE(text.find("headline: 1 operators; MAPE 10.0% (time-weighted 10.0%); inside the "
                        "interval 100% of operators, 100% of measured time; naive MAPE: SMs x "
                        "clock 60.0%, DRAM bandwidth 80.0%, by bound 75.0%; the model beats SMs "
                        "x clock, beats DRAM, beats by bound\n"),
              std::string::npos)
        << text;
    // Launch-bound: the model's 50% equals SMs x clock's 50%, a tie (naive_scaling.hpp).
    EXPECT_NE(text.find("the model ties with SMs x clock"), std::string::npos) << text;
}

TEST(OperatorCheck, NaiveFactorsAreSourceOverTarget) {
    const NaiveFactors f = naive_factors(100, 2000, 3000, 50, 1000, 1500);
    EXPECT_DOUBLE_EQ(f.sm_clock, 4); // 100 x 2000 / (50 x 1000)
    EXPECT_DOUBLE_EQ(f.dram, 2);
    const NaiveFactors unknown = naive_factors(100, 2000, 0, 50, 0, 1500);
    EXPECT_EQ(unknown.sm_clock, 0); // no target clock: no factor, never a guess
    EXPECT_EQ(unknown.dram, 0);
}

std::string write_temp(const std::string& text) {
    const std::string path = ::testing::TempDir() + "published_" +
                             std::to_string(reinterpret_cast<std::uintptr_t>(&text)) + ".json";
    std::ofstream(path) << text;
    return path;
}

TEST(OperatorCheck, PublishedTimesReadInNsWithoutThePySuffix) {
    const std::string path =
        write_temp(R"({"source": {"repo": "r", "commit": "c"}, "gpus": {"t": {"times_ms": {)"
                   R"("1_Square.py": {"mean": 0.347}, "2_Other": {"mean": 2}}}}})");
    const PublishedTimes p = load_published_times(path, "t");
    EXPECT_EQ(p.source, "r@c");
    ASSERT_EQ(p.ns_per_call.size(), 2u);
    EXPECT_DOUBLE_EQ(p.ns_per_call.at("1_Square"), 347'000);
    EXPECT_DOUBLE_EQ(p.ns_per_call.at("2_Other"), 2e6);
    std::remove(path.c_str());
}

TEST(OperatorCheck, BadPublishedFilesNameWhatIsWrong) {
    const auto message = [](const std::string& text, const std::string& gpu) {
        const std::string path = write_temp(text);
        try {
            (void)load_published_times(path, gpu);
        } catch (const InputError& e) {
            std::remove(path.c_str());
            return std::string(e.what()).substr(path.size());
        }
        std::remove(path.c_str());
        return std::string("accepted");
    };
    EXPECT_EQ(message("{", "t"), ": not valid JSON");
    EXPECT_EQ(message(R"({"gpus": {"u": {"times_ms": {}}}})", "t"),
              ": no published times for GPU 't' (gpus.t.times_ms)");
    EXPECT_EQ(message(R"({"gpus": {"t": {"times_ms": []}}})", "t"),
              ": no published times for GPU 't' (gpus.t.times_ms)");
    EXPECT_EQ(message(R"({"gpus": {"t": {"times_ms": {"a": {"mean": 0}}}}})", "t"),
              ": gpus.t.times_ms.a.mean is not a positive number of ms");
    EXPECT_EQ(message(R"({"gpus": {"t": {"times_ms": {"a": {"mean": "1"}}}}})", "t"),
              ": gpus.t.times_ms.a.mean is not a positive number of ms");
}

} // namespace
} // namespace test_operator_check
} // namespace irf::report

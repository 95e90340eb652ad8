// SPDX-License-Identifier: Apache-2.0
// Unit tests of irf-calibrate's device-free host logic: --only selection, the identity of a
// measured file, and its completion.
#include <stdexcept>

#include <gtest/gtest.h>

#include "calibrate/benchmarks.hpp"
#include "calibrate/identity.hpp"
#include "config/ceilings_yaml.hpp"

namespace irf::calibrate {
namespace test_selection_identity {
namespace {

TEST(CalibrateSelection, EmptyAndAllSelectEverythingInOrder) {
    const auto all = select_benchmarks("");
    ASSERT_EQ(all.size(), benchmark_specs().size());
    EXPECT_EQ(all.front(), "issue");
    EXPECT_EQ(select_benchmarks("all"), all);
}

TEST(CalibrateSelection, NamesAndGroupsKeepRunOrder) {
    EXPECT_EQ(select_benchmarks("hbm,issue"), (std::vector<std::string>{"issue", "hbm"}));
    const auto memory = select_benchmarks("memory");
    EXPECT_EQ(memory, (std::vector<std::string>{"l1", "shared", "l2", "hbm"}));
    const auto tensor = select_benchmarks("tensor,pcie");
    EXPECT_EQ(tensor.back(), "pcie");
    EXPECT_EQ(tensor.front(), "tensor_fp16");
}

TEST(CalibrateSelection, UnknownItemIsNamed) {
    try {
        (void)select_benchmarks("issue,,hbmm");
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "--only: unknown benchmark 'hbmm' (see --list)");
    }
}

TEST(CalibrateIdentity, Slug) {
    EXPECT_EQ(slug("NVIDIA H100 80GB HBM3"), "nvidia-h100-80gb-hbm3");
    EXPECT_EQ(slug("  Tesla V100-SXM2-16GB  "), "tesla-v100-sxm2-16gb");
    EXPECT_EQ(slug("***"), "gpu");
}

DeviceInfo h100() {
    DeviceInfo d;
    d.name = "NVIDIA H100 80GB HBM3";
    d.cc_major = 9;
    d.cc_minor = 0;
    d.sms = 132;
    d.max_clock_mhz = 1980;
    d.l2_bytes = 52428800;
    d.memory_bytes = 85899345920ull;
    d.driver = "13.0";
    d.runtime = "13.0";
    return d;
}

TEST(CalibrateIdentity, MatchesTheDatabaseEntry) {
    const auto c = identity(h100(), {std::string(IRF_SOURCE_DIR) + "/config/gpus"},
                            "irf-calibrate test", true);
    EXPECT_EQ(c.gpu.key, "h100-sxm5.measured");
    EXPECT_EQ(c.gpu.chip, "GH100");
    EXPECT_EQ(c.gpu.memory_type, "HBM3");
    EXPECT_EQ(c.gpu.cc, "9.0");
    EXPECT_EQ(c.environment.at("tool"), "irf-calibrate test");
    EXPECT_EQ(c.environment.at("driver"), "CUDA driver API 13.0");
    EXPECT_EQ(c.environment.count("note"), 1u); // quick run
}

TEST(CalibrateIdentity, UnknownDeviceGetsSlugKey) {
    auto d = h100();
    d.name = "NVIDIA H100 NVL";
    const auto c = identity(d, {std::string(IRF_SOURCE_DIR) + "/config/gpus"}, "t", false);
    EXPECT_EQ(c.gpu.key, "nvidia-h100-nvl.measured");
    EXPECT_TRUE(c.gpu.chip.empty());
}

TEST(CalibrateIdentity, CompleteDerivesMissingIssueRateAndValidates) {
    auto c = identity(h100(), {}, "t", false);
    EXPECT_TRUE(complete(c, "2026-11-22").empty());
    // 132 SMs x 4 schedulers x 1980 MHz / 1e3 = 1045.44 warp-GIPS.
    EXPECT_DOUBLE_EQ(c.warp_gips.value, 1045.44);
    EXPECT_EQ(c.warp_gips.provenance, config::Provenance::derived);
    // The result is a valid file.
    EXPECT_NO_THROW((void)config::parse_ceilings_yaml(config::to_yaml(c), "out"));
}

config::Quantity measured(double value, const std::string& unit) {
    config::Quantity q;
    q.value = value;
    q.unit = unit;
    q.provenance = config::Provenance::measured;
    q.method = "test";
    return q;
}

TEST(CalibrateIdentity, CompleteDemotesImpossibleMeasurements) {
    auto c = identity(h100(), {}, "t", false);
    c.warp_gips = measured(5000, "warp-GIPS"); // above 1.02 x 1045.44
    c.pipe_gips["fp32"] = measured(2000, "warp-GIPS");
    c.pipe_gips["fp64"] = measured(500, "warp-GIPS");
    c.l2_gbs = measured(2000, "GB/s");
    c.hbm_gbs = measured(3000, "GB/s");
    const auto warnings = complete(c, "2026-11-22");
    EXPECT_EQ(warnings.size(), 3u);
    EXPECT_EQ(c.details.at("issue_suspect").value, 5000);
    EXPECT_EQ(c.warp_gips.provenance, config::Provenance::derived);
    EXPECT_EQ(c.pipe_gips.count("fp32"), 0u);
    EXPECT_EQ(c.pipe_gips.count("fp64"), 1u);
    EXPECT_FALSE(c.l2_gbs.has_value());
}

TEST(CalibrateIdentity, CompleteStillRejectsOtherBadValues) {
    auto c = identity(h100(), {}, "t", false);
    c.hbm_gbs = measured(-1, "GB/s");
    EXPECT_THROW((void)complete(c, "2026-11-22"), config::CeilingsError);
}

} // namespace
} // namespace test_selection_identity
} // namespace irf::calibrate

// SPDX-License-Identifier: Apache-2.0
// gpu tests: each hazard app of tests/gpu/hazards.json runs under libirf.so and must end as its
// case says (exit status, its own host check, the profile's record of the kernel). Skipped
// without a device, failed instead under IRF_GPU_TESTS_REQUIRE=1. When IRF_GPU_HAZARD_OUT is
// set, every profile and log is copied there (scripts/gpu-validate.sh keeps them).
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/gpu/expected_cases.hpp"
#include "tests/gpu/gpu_probe.hpp"
#include "tests/gpu/hazard_cases.hpp"
#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
namespace test_hazards {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void check_kernel(const KernelCheck& c, const json& profile) {
    std::vector<json> found;
    for (const auto& k : profile.value("kernels", json::array())) {
        if (k.value("name", std::string()).find(c.kernel) != std::string::npos) {
            found.push_back(k);
        }
    }
    ASSERT_EQ(found.size(), 1u) << "kernels named like '" << c.kernel << "'";
    EXPECT_EQ(found[0].at("launches").get<int>(), c.launches);
    const int profiled = found[0].at("profiled_launches").get<int>();
    EXPECT_GE(profiled, c.profiled_min);
    if (c.profiled_max) {
        EXPECT_LE(profiled, *c.profiled_max);
    }
    if (!c.region.empty()) {
        int in_region = 0;
        for (const auto& r : found[0].value("regions", json::array())) {
            if (r.value("path", std::string()) == c.region) {
                in_region = r.at("launches").get<int>();
            }
        }
        EXPECT_EQ(in_region, c.launches) << "launches under NVTX path " << c.region;
    }
}

class Hazard : public ::testing::TestWithParam<HazardCase> {
protected:
    TempDir m_tmp;
};

TEST_P(Hazard, EndsAsExpectedUnderIrf) {
    IRF_REQUIRE_DEVICE();
    const HazardCase& c = GetParam();
    ASSERT_FALSE(libirf_path().empty())
        << "libirf.so not built: no injected-library target defined";
    RunOptions options;
    options.env = irf_environment(c.env, (m_tmp / "profile").string());
    options.timeout_s = 240;
    const ProcessResult run = run_process(hazard_command(c, app_path(c.app)), options);
    keep_run_outputs("IRF_GPU_HAZARD_OUT", c.id, (m_tmp / "profile").string(), run.exit_code,
                     run.signal, run.out, run.err);
    SCOPED_TRACE("stdout:\n" + run.out + "stderr:\n" + run.err);
    EXPECT_FALSE(run.timed_out) << "hung";
    EXPECT_EQ(run.exit_code, c.exit_code);
    EXPECT_NE(run.out.find(c.stdout_has), std::string::npos);
    const fs::path path = m_tmp / "profile.json";
    if (!fs::exists(path)) {
        EXPECT_FALSE(c.profile_required) << "no profile written";
        return;
    }
    const json profile = json::parse(read_file(path), nullptr, false);
    ASSERT_FALSE(profile.is_discarded()) << "the profile is not whole JSON";
    for (const KernelCheck& k : c.kernels) {
        SCOPED_TRACE("kernel " + k.kernel);
        check_kernel(k, profile);
    }
}

INSTANTIATE_TEST_SUITE_P(Apps, Hazard, ::testing::ValuesIn(hazard_cases()),
                         [](const auto& param_info) { return gtest_name(param_info.param.id); });

} // namespace
} // namespace test_hazards
} // namespace irf::test

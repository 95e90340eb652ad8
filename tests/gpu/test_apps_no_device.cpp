// SPDX-License-Identifier: Apache-2.0
// integration tests (no GPU needed): every gpu app (known-answer and hazard) hidden from all
// devices says so in one line and exits 77, and a bad variant name is a usage error (exit 2);
// every kernel check of tests/gpu/hazards.json can be met.
#include <string>

#include <gtest/gtest.h>

#include "tests/gpu/expected_cases.hpp"
#include "tests/gpu/hazard_cases.hpp"
#include "tests/support/run_process.hpp"

namespace irf::test {
namespace test_apps_no_device {
namespace {

std::vector<std::string> all_apps() {
    std::vector<std::string> apps = expected_apps();
    const std::vector<std::string> hazards = hazard_apps();
    apps.insert(apps.end(), hazards.begin(), hazards.end());
    return apps;
}

class GpuApp : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuApp, NoVisibleDeviceIsOneLineAndExit77) {
    RunOptions options;
    options.env = {{"CUDA_VISIBLE_DEVICES", "-1"}};
    options.unset = {"CUDA_INJECTION64_PATH"};
    const ProcessResult run = run_process({app_path(GetParam())}, options);
    EXPECT_EQ(run.exit_code, 77) << run.out << run.err;
    const std::string head = GetParam() + ": no CUDA device: ";
    const bool one_line = run.out.rfind(head, 0) == 0 && run.out.size() > head.size() + 1 &&
                          run.out.find('\n') == run.out.size() - 1;
    EXPECT_TRUE(one_line) << "stdout: [" << run.out << "]";
}

TEST_P(GpuApp, UnknownVariantIsUsageError) {
    const ProcessResult run = run_process({app_path(GetParam()), "no-such-variant"});
    EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
    EXPECT_NE(run.out.find("usage: "), std::string::npos) << run.out;
}

// hazards.json's kernel checks (the top-level one and each of `also`) can be met at all.
TEST(HazardCases, EveryKernelCheckIsSatisfiable) {
    for (const HazardCase& c : hazard_cases()) {
        for (const KernelCheck& k : c.kernels) {
            SCOPED_TRACE(c.id + ": " + k.kernel);
            EXPECT_FALSE(k.kernel.empty());
            EXPECT_GE(k.launches, 1);
            EXPECT_LE(k.profiled_min, k.launches);
            if (k.profiled_max) {
                EXPECT_GE(*k.profiled_max, k.profiled_min);
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Apps, GpuApp, ::testing::ValuesIn(all_apps()),
                         [](const auto& param_info) { return gtest_name(param_info.param); });

} // namespace
} // namespace test_apps_no_device
} // namespace irf::test

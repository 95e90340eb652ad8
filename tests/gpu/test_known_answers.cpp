// SPDX-License-Identifier: Apache-2.0
// gpu tests: each known-answer kernel runs under libirf.so; its counters and verdicts in the
// written profile must match tests/gpu/expected.json. Skipped (never passed) without a device.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/gpu/expected_cases.hpp"
#include "tests/gpu/gpu_probe.hpp"
#include "tests/gpu/known_answer_checks.hpp"
#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
namespace test_known_answers {
namespace {

using nlohmann::json;

class KnownAnswer : public ::testing::TestWithParam<ExpectedCase> {
protected:
    TempDir m_tmp;
};

TEST_P(KnownAnswer, CountersAndVerdictsUnderIrf) {
    IRF_REQUIRE_DEVICE();
    const ExpectedCase& c = GetParam();
    const std::string libirf = libirf_path();
    ASSERT_FALSE(libirf.empty()) << "libirf.so not built: no injected-library target defined";
    ASSERT_TRUE(std::filesystem::exists(libirf)) << libirf << " does not exist";

    std::vector<std::string> argv{app_path(c.app)};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    RunOptions options;
    options.env = irf_environment(c.env, (m_tmp / "profile").string());
    options.timeout_s = 240;
    const ProcessResult run = run_process(argv, options);
    keep_run_outputs("IRF_GPU_PROFILE_OUT", c.id, (m_tmp / "profile").string(), run.exit_code,
                     run.signal, run.out, run.err);
    ASSERT_EQ(run.exit_code, 0) << "stdout:\n" << run.out << "stderr:\n" << run.err;
    EXPECT_EQ(run.out.find("FAIL"), std::string::npos) << "wrong results under irf:\n" << run.out;
    SCOPED_TRACE("stderr of the run under irf:\n" + run.err);

    const auto path = m_tmp / "profile.json";
    ASSERT_TRUE(std::filesystem::exists(path)) << "no profile written; stderr:\n" << run.err;
    const json profile = json::parse(read_file(path));
    if (c.min_cc && !cc_at_least(profile, *c.min_cc)) {
        IRF_GPU_UNMET("expected counts hold from cc " + std::to_string(c.min_cc->first) + "." +
                      std::to_string(c.min_cc->second) + ", the GPU is cc " +
                      profile.value("gpu", json::object()).value("cc", std::string("?")));
    }
    const auto kernels = matching_kernels(profile, c.kernel);
    ASSERT_EQ(kernels.size(), 1u) << "kernels named like '" << c.kernel << "'";
    const json& kernel = kernels.front();
    EXPECT_EQ(kernel.at("launches").get<int>(), c.launches) << "every launch must be intercepted";
    if (kernel.at("profiled_launches").get<int>() == 0 && counters_not_permitted(profile)) {
        IRF_GPU_UNMET("counter profiling not permitted here: " + profile.at("warnings").dump());
    }
    ASSERT_GE(kernel.at("profiled_launches").get<int>(), 1)
        << "no launch profiled; warnings: " << profile.value("warnings", json::array()).dump();
    check_counts(c, kernel);
    check_verdict(c, kernel);
}

INSTANTIATE_TEST_SUITE_P(Apps, KnownAnswer, ::testing::ValuesIn(expected_cases()),
                         [](const auto& param_info) { return gtest_name(param_info.param.id); });

class AppRuns : public ::testing::TestWithParam<std::string> {};

// Without irf: the app's own host check passes, so a counter mismatch above is irf's.
TEST_P(AppRuns, HostCheckPassesWithoutIrf) {
    IRF_REQUIRE_DEVICE();
    RunOptions options;
    options.timeout_s = 240;
    options.unset = {"CUDA_INJECTION64_PATH"};
    const ProcessResult run = run_process({app_path(GetParam())}, options);
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    EXPECT_EQ(run.out.find("FAIL"), std::string::npos) << run.out;
}

INSTANTIATE_TEST_SUITE_P(Apps, AppRuns, ::testing::ValuesIn(expected_apps()),
                         [](const auto& param_info) { return gtest_name(param_info.param); });

} // namespace
} // namespace test_known_answers
} // namespace irf::test

// SPDX-License-Identifier: Apache-2.0
// integration test (no GPU): the known answers against real H100 counters. Each case of
// tests/gpu/expected.json has the profile libirf.so wrote for it on an H100
// (tests/data/gpu/h100/irf/<id>.json, see that folder's README.md); its counters are checked as
// recorded, and its verdicts after today's model/ re-analyses them, with the same checks as the
// gpu test (known_answer_checks.hpp). So a change to expected_gen.py or to the model is checked
// against the hardware without one. docs/validation/h100-known-answers.md explains each case.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "config/ceilings_choice.hpp"
#include "config/gpu_database.hpp"
#include "model/analyze.hpp"
#include "model/profile/profile_json.hpp"
#include "tests/gpu/expected_cases.hpp"
#include "tests/gpu/known_answer_checks.hpp"

namespace irf::test {
namespace test_known_answers_recorded {
namespace {

using nlohmann::json;

/// The recorded profile of case `id` in `folder`.
std::filesystem::path recording(const std::string& folder, const std::string& id) {
    return std::filesystem::path(folder) / (id + ".json");
}

/// `profile` analysed again by model/ on the ceilings libirf would choose for its GPU (no
/// projection targets: no check reads them), written back as JSON.
json reanalysed(model::Profile profile) {
    const model::GpuInfo& g = profile.gpu;
    const config::GpuProperties gpu{g.name, g.chip, g.cc, g.sms, g.clock_hz / 1e6, g.l2_bytes};
    const config::CeilingsChoice choice =
        config::choose_ceilings("", "IRF_CEILINGS", gpu, config::gpus_dirs(""));
    if (!choice.ceilings) {
        ADD_FAILURE() << "no ceilings for the recorded GPU " << g.name;
        return model::profile_to_json(profile);
    }
    model::analyze(profile, *choice.ceilings, {});
    return model::profile_to_json(profile);
}

/// Case `c` of the recording in `folder`: counters as recorded, verdicts as re-analysed.
void check_recorded(const std::string& folder, const ExpectedCase& c) {
    const auto path = recording(folder, c.id);
    ASSERT_TRUE(std::filesystem::exists(path)) << "no recording of " << c.id << ": " << path;
    const json profile = reanalysed(model::load_profile(path.string()));
    if (c.min_cc) {
        ASSERT_TRUE(cc_at_least(profile, *c.min_cc)) << "the recording's GPU is below min_cc";
    }
    const auto kernels = matching_kernels(profile, c.kernel);
    ASSERT_EQ(kernels.size(), 1u) << "kernels named like '" << c.kernel << "'";
    const json& kernel = kernels.front();
    EXPECT_EQ(kernel.at("launches").get<int>(), c.launches) << "every launch must be intercepted";
    ASSERT_GE(kernel.at("profiled_launches").get<int>(), 1) << "no launch profiled";
    check_counts(c, kernel);
    check_verdict(c, kernel);
}

class RecordedH100 : public ::testing::TestWithParam<ExpectedCase> {};

// The first session's calls ($IRF_GPU_RECORDING, else tests/data/gpu/h100/irf).
TEST_P(RecordedH100, CountersAndVerdictsOfTheRecording) {
    check_recorded(setting("IRF_GPU_RECORDING", IRF_GPU_RECORDING), GetParam());
}

// Call 3 (tests/data/gpu/h100/call3/irf): every case from one `ctest -L gpu` run, all passed.
TEST_P(RecordedH100, CountersAndVerdictsOfCallThree) {
    check_recorded(IRF_GPU_RECORDING_CALL3, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Apps, RecordedH100, ::testing::ValuesIn(expected_cases()),
                         [](const auto& param_info) { return gtest_name(param_info.param.id); });

} // namespace
} // namespace test_known_answers_recorded
} // namespace irf::test

// SPDX-License-Identifier: Apache-2.0
// unit tests (no GPU): IRF_GPU_UNMET, used by every gpu test where a device, counter access or
// compute capability is missing, skips normally and fails under IRF_GPU_TESTS_REQUIRE=1.
// Before, the counter-refused and too-low-cc paths skipped even when a device was required.
#include <cstdlib>
#include <string>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "tests/gpu/gpu_probe.hpp"
#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
namespace test_require_mode {
namespace {

void counters_refused() {
    IRF_GPU_UNMET(std::string("counter profiling not permitted here: ERR_NVGPUCTRPERM"));
}

/// The results IRF_GPU_UNMET records into `results`, without affecting the running test.
void record_unmet(::testing::TestPartResultArray* results) {
    const ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, results);
    counters_refused();
}

class RequireMode : public ::testing::Test {
protected:
    void TearDown() override { unsetenv("IRF_GPU_TESTS_REQUIRE"); }
};

TEST_F(RequireMode, UnmetConditionFailsWhenADeviceIsRequired) {
    setenv("IRF_GPU_TESTS_REQUIRE", "1", 1);
    EXPECT_EQ(on_unmet_condition(), Unmet::fail);
    ::testing::TestPartResultArray results;
    record_unmet(&results);
    ASSERT_EQ(results.size(), 1);
    EXPECT_TRUE(results.GetTestPartResult(0).fatally_failed());
    EXPECT_NE(std::string(results.GetTestPartResult(0).message())
                  .find("IRF_GPU_TESTS_REQUIRE=1 but counter profiling not permitted"),
              std::string::npos);
}

TEST_F(RequireMode, UnmetConditionSkipsOtherwise) {
    for (const char* value : {"", "0", "yes"}) {
        setenv("IRF_GPU_TESTS_REQUIRE", value, 1);
        EXPECT_EQ(on_unmet_condition(), Unmet::skip) << value;
        ::testing::TestPartResultArray results;
        record_unmet(&results);
        ASSERT_EQ(results.size(), 1);
        EXPECT_TRUE(results.GetTestPartResult(0).skipped()) << value;
    }
}

// ctest counts a skipped test as passed; scripts/gpu-validate.sh must not.
class SkippedInLog : public TempDirTest {
protected:
    ProcessResult check(const std::string& log) {
        const std::string path = (m_tmp / "ctest.log").string();
        write_file(path, log);
        return run_process({IRF_GPU_VALIDATE_SCRIPT, "--skipped-in", path});
    }
};

TEST_F(SkippedInLog, ASkippedGpuTestFailsTheScript) {
    const ProcessResult r =
        check("1/2 Test #1: gpu.Apps/KnownAnswer.CountersAndVerdictsUnderIrf/stride ... "
              "***Skipped   0.02 sec\n2/2 Test #2: gpu.Apps/Hazard.x ...   Passed    1.00 sec\n");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.out.find("KnownAnswer.CountersAndVerdictsUnderIrf/stride"), std::string::npos);
}

TEST_F(SkippedInLog, AllPassedIsFine) {
    EXPECT_EQ(check("1/1 Test #1: gpu.Apps/Hazard.x ...   Passed    1.00 sec\n").exit_code, 0);
}

} // namespace
} // namespace test_require_mode
} // namespace irf::test

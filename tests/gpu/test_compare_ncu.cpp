// SPDX-License-Identifier: Apache-2.0
// integration tests (no GPU) of the gpu tooling: compare_ncu.py on a hand-made irf profile and
// ncu CSV, and expected.json being exactly what expected_gen.py derives.
#include <string>

#include <gtest/gtest.h>

#include "tests/gpu/expected_cases.hpp"
#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
namespace test_compare_ncu {
namespace {

const char* const k_kernel = "void (anonymous namespace)::bank_conflict<4>(float *)";

/// An irf profile with two profiled launches of bank_conflict<4>: counters are sums, so each
/// value is twice the per-launch figure (51200 loads, 204800 wavefronts a launch, the H100's:
/// docs/validation/h100-known-answers.md).
std::string irf_profile() {
    return std::string(R"({"schema": "irf.profile/v1", "kernels": [{"name": ")") + k_kernel +
           R"(", "profiled_launches": 2, "counters": {"inst_shared_ld": 102400,
           "wavefronts_shared_ld": 409600, "time_ns": 4000}}]})";
}

/// ncu rows for three launches (IDs 0..2); compare_ncu.py must use the second (ID 1), whose
/// wavefront count is `wavefronts`. Launch 0 carries a different count on purpose.
std::string ncu_csv(const std::string& wavefronts) {
    std::string csv = "==PROF== Connected to process 1\n"
                      "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
    const std::string name = "\"(anonymous namespace)::bank_conflict<4>(float *)\"";
    for (const std::string id : {"0", "1", "2"}) {
        const std::string wf = id == "1" ? wavefronts : "999,999";
        csv += "\"" + id + "\"," + name +
               ",\"smsp__inst_executed_op_shared_ld.sum\",\"inst\",\"51,200\"\n";
        csv += "\"" + id + "\"," + name +
               ",\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\",\"\",\"" + wf + "\"\n";
        csv += "\"" + id + "\"," + name + ",\"gpu__time_duration.sum\",\"ns\",\"1,000\"\n";
    }
    return csv;
}

class CompareNcu : public TempDirTest {
protected:
    ProcessResult compare(const std::string& wavefronts, bool with_ncu = true) {
        write_file(m_tmp / "irf" / "bank-ways4.json", irf_profile());
        if (with_ncu) {
            write_file(m_tmp / "ncu" / "bank-ways4.csv", ncu_csv(wavefronts));
        } else {
            write_file(m_tmp / "ncu" / "README", "no csv");
        }
        return run_process({IRF_PYTHON, std::string(IRF_SOURCE_DIR) + "/tests/gpu/compare_ncu.py",
                            "--irf", (m_tmp / "irf").string(), "--ncu", (m_tmp / "ncu").string(),
                            "--only", "^bank-ways4$"});
    }
};

TEST_F(CompareNcu, EqualCountsOfTheSecondLaunchPass) {
    const ProcessResult r = compare("204,800");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("| bank-ways4 | wavefronts_shared_ld | 204800 | 204800 | 204800 | "
                         "+0.000% | ok |"),
              std::string::npos)
        << r.out;
    // 4000 ns over 2 launches = 2000 ns against ncu's 1000 ns: a ratio, never a failure.
    EXPECT_NE(r.out.find("| time_ns | 2000 | 1000 | - | +100.000% | ratio |"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("0 problem(s)"), std::string::npos) << r.out;
}

TEST_F(CompareNcu, TwoPercentOffIsAMismatch) {
    // 208,896 / 204,800 = 1.02: irf is 1.96% below ncu, beyond the 1% tolerance.
    const ProcessResult r = compare("208,896");
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("-1.961% | MISMATCH |"), std::string::npos) << r.out;
}

TEST_F(CompareNcu, MissingNcuOutputIsAProblem) {
    const ProcessResult r = compare("", false);
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("bank-ways4: no ncu rows"), std::string::npos) << r.out;
}

// expected.json is generated: a hand edit (or a generator change not re-run) fails here.
TEST_F(CompareNcu, ExpectedJsonIsUpToDate) {
    const std::string gpu_dir = std::string(IRF_SOURCE_DIR) + "/tests/gpu";
    const auto fresh = m_tmp / "expected.json";
    const ProcessResult r =
        run_process({IRF_PYTHON, gpu_dir + "/expected_gen.py", "--out", fresh.string()});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(read_file(fresh), read_file(gpu_dir + "/expected.json"))
        << "run tests/gpu/expected_gen.py and commit expected.json";
}

} // namespace
} // namespace test_compare_ncu
} // namespace irf::test

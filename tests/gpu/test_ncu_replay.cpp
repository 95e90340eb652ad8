// SPDX-License-Identifier: Apache-2.0
// integration tests (no GPU): the H100 recording (tests/data/gpu/h100/, irf profiles and
// Nsight Compute CSVs of the same known-answer apps) replayed through compare_ncu.py, so that
// every counter irf collected on a real GPU stays equal to ncu's value within the tolerance
// and the reason of tests/gpu/ncu_tolerances_gh100.txt (docs/validation/h100-counters.md).
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
namespace test_ncu_replay {
namespace {

namespace fs = std::filesystem;

const std::string k_gpu_dir = std::string(IRF_SOURCE_DIR) + "/tests/gpu";
const std::string k_recording = std::string(IRF_TEST_DATA_DIR) + "/gpu/h100";

ProcessResult compare(const fs::path& irf_dir, const fs::path& ncu_dir) {
    return run_process({IRF_PYTHON, k_gpu_dir + "/compare_ncu.py", "--irf", irf_dir.string(),
                        "--ncu", ncu_dir.string(), "--present-only"});
}

TEST(NcuReplayH100, EveryRecordedCounterAgreesWithNcu) {
    const ProcessResult r = compare(k_recording + "/irf", k_recording + "/ncu");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("\n0 problem(s)\n"), std::string::npos) << r.out;
    // All 28 recorded cases are compared; the two demo transposes have no ncu CSV.
    EXPECT_NE(r.out.find("Not recorded (--present-only): demo-transpose_naive, "
                         "demo-transpose_padded\n"),
              std::string::npos)
        << r.out;
    // Spot checks of rows irf read on the H100: L2 sectors the L1s requested (the triad's
    // 2 x 2^25 x 4 B / 32), 32 wavefronts for each of bank-ways32's 65,536 shared loads,
    // mma-f16's tensor FLOPs (2,097,152 m16n8k16 x 4096).
    // (case | counter | irf | ncu |: the expected column is expected.json's, checked elsewhere.)
    for (const char* row : {"| stream-triad | l2_sectors_read | 8.38861e+06 | 8.38861e+06 |",
                            "| bank-ways32 | wavefronts_shared_ld | 2.09715e+06 | 2.09715e+06 |",
                            "| mma-f16 | tensor_ops_fp16 | 8.58993e+09 | 8.58993e+09 |"}) {
        EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
    }
}

// The third H100 call (tests/data/gpu/h100/call3, six cases, a later build that asks for the pipe
// mix and tensor types): every counter agrees too, including the ones the first calls lacked.
TEST(NcuReplayH100, TheThirdCallAgreesWithNcuToo) {
    const ProcessResult r = compare(k_recording + "/call3/irf", k_recording + "/call3/ncu");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("\n0 problem(s)\n"), std::string::npos) << r.out;
    for (const char* row : {"| sw-integer | inst_pipe_alu | 7.81517e+06 | 7.81517e+06 |",
                            "| sw-integer | inst_pipe_fma | 6.32218e+06 | 6.32218e+06 |",
                            "| mma-f16 | tensor_ops_fp16 | 8.58993e+09 | 8.58993e+09 |",
                            "| mma-f16 | sysmem_sectors_write | 45 | 5 |"}) {
        EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
    }
}

// The replay can fail: irf's warp instructions of one case 2% above ncu's are a mismatch.
TEST(NcuReplayH100, AMutatedCounterIsAMismatch) {
    TempDir tmp;
    const std::string id = "transpose-naive";
    fs::create_directories(tmp / "ncu");
    fs::copy_file(k_recording + "/ncu/" + id + ".csv", tmp / "ncu" / (id + ".csv"));
    std::string profile = read_file(k_recording + "/irf/" + id + ".json");
    const std::string recorded = "\"inst_warp\": 188416.0,";
    const auto at = profile.find(recorded);
    ASSERT_NE(at, std::string::npos) << "the recording changed: pick another count";
    profile.replace(at, recorded.size(), "\"inst_warp\": 192184.0,"); // x 1.02
    write_file(tmp / "irf" / (id + ".json"), profile);
    const ProcessResult r = compare(tmp / "irf", tmp / "ncu");
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("| transpose-naive | inst_warp | 192184 | 188416 |"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("| +2.000% | MISMATCH | - |"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("- transpose-naive inst_warp: irf 192184 vs ncu 188416"),
              std::string::npos)
        << r.out;
}

// The map compares what irf reads: every counter of `irf-report metrics --chip GH100 --group
// all` with the same metric (the map once named lts__t_sectors_op_read for L2 reads).
TEST(NcuReplayH100, MetricMapIsWhatIrfReads) {
    const ProcessResult r =
        run_process({IRF_PYTHON, k_gpu_dir + "/compare_ncu.py", "--check-map", IRF_REPORT_BIN});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.out, "metric map agrees with irf-report\n");
}

} // namespace
} // namespace test_ncu_replay
} // namespace irf::test

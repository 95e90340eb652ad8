// SPDX-License-Identifier: Apache-2.0
// `mpirun -np 3 irf run -- harness` with the fake backend writes three rank profiles with
// distinct names, and `irf-report merge` combines them with the right per-rank statistics.
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace test_tools_mpi {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class ToolsMpi : public irf::test::TempDirTest {
protected:
    void SetUp() override {
        if (std::string(IRF_MPIRUN).empty() || !fs::exists(IRF_MPIRUN)) {
            GTEST_SKIP() << "mpirun not found (apt-get install openmpi-bin)";
        }
    }
};

// Each rank plays its own fake script (tests/data/tools/fake_rank<N>.json); the shell step
// hands irf run's CUDA_INJECTION64_PATH to the harness, which dlopens it like the driver.
irf::test::ProcessResult run_job(const fs::path& dir) {
    const std::string scripts = IRF_TEST_DATA_DIR "/tools/fake_rank";
    irf::test::RunOptions options;
    options.timeout_s = 120;
    options.cwd = dir.string();
    return irf::test::run_process(
        {IRF_MPIRUN, "--oversubscribe", "--allow-run-as-root", "-np", "3", IRF_BIN, "run",
         "--output", (dir / "job").string(), "--targets", "none", "--summary", "none", "--",
         "/bin/sh", "-c",
         "IRF_BACKEND=fake:" + scripts +
             "${OMPI_COMM_WORLD_RANK}.json exec \"$0\" \"$CUDA_INJECTION64_PATH\"",
         IRF_HARNESS_BIN},
        options);
}

const json* kernel_named(const json& job, const std::string& prefix) {
    for (const json& k : job["kernels"]) {
        if (k["name"].get<std::string>().rfind(prefix, 0) == 0) {
            return &k;
        }
    }
    return nullptr;
}

TEST_F(ToolsMpi, ThreeRanksMergeIntoOneJob) {
    const auto job_run = run_job(m_tmp.path());
    ASSERT_EQ(job_run.exit_code, 0) << job_run.out << job_run.err;
    std::vector<std::string> files;
    for (int rank = 0; rank < 3; ++rank) {
        const fs::path file = m_tmp / ("job-r" + std::to_string(rank) + ".json");
        ASSERT_TRUE(fs::exists(file)) << file << "\n" << job_run.err;
        files.push_back(file.string());
    }
    std::vector<std::string> merge{IRF_REPORT_BIN, "merge"};
    merge.insert(merge.end(), files.begin(), files.end());
    merge.insert(merge.end(), {"-o", (m_tmp / "job.json").string()});
    const auto merged = irf::test::run_process(merge);
    ASSERT_EQ(merged.exit_code, 0) << merged.err;
    const json job = json::parse(irf::test::read_file(m_tmp / "job.json"));
    EXPECT_EQ(job["job"]["ranks"], json::array({0, 1, 2}));

    // axpy: 2 launches per rank of 1000, 2000, 6000 ns -> rank totals 2000, 4000, 12000;
    // sum 18000, min 2000, median 4000, max 12000, mean 6000, imbalance 12000 / 6000 = 2.
    const json* axpy = kernel_named(job, "axpy");
    ASSERT_NE(axpy, nullptr);
    EXPECT_EQ((*axpy)["launches"], 6);
    EXPECT_DOUBLE_EQ((*axpy)["time_ns"]["total"].get<double>(), 18000);
    const json& r = (*axpy)["ranks"];
    EXPECT_EQ(r["present"], 3);
    EXPECT_DOUBLE_EQ(r["time_ns"]["min"].get<double>(), 2000);
    EXPECT_DOUBLE_EQ(r["time_ns"]["median"].get<double>(), 4000);
    EXPECT_DOUBLE_EQ(r["time_ns"]["max"].get<double>(), 12000);
    EXPECT_DOUBLE_EQ(r["time_ns"]["mean"].get<double>(), 6000);
    EXPECT_DOUBLE_EQ(r["imbalance"].get<double>(), 2.0);
    EXPECT_EQ(r["slowest_rank"], 2);

    // halo_pack runs once on rank 1 only (3000 ns): ranks 0 and 2 count as 0 ns, so min 0,
    // median 0, max 3000, mean 1000, imbalance 3.
    const json* halo = kernel_named(job, "halo_pack");
    ASSERT_NE(halo, nullptr);
    EXPECT_EQ((*halo)["ranks"]["present"], 1);
    EXPECT_DOUBLE_EQ((*halo)["ranks"]["time_ns"]["median"].get<double>(), 0);
    EXPECT_DOUBLE_EQ((*halo)["ranks"]["time_ns"]["mean"].get<double>(), 1000);
    EXPECT_DOUBLE_EQ((*halo)["ranks"]["imbalance"].get<double>(), 3.0);
    EXPECT_EQ((*halo)["ranks"]["slowest_rank"], 1);

    // The job profile (with its additive keys) reads back like any profile: header + 2 rows.
    const auto csv = irf::test::run_process({IRF_REPORT_BIN, "csv", (m_tmp / "job.json").string()});
    ASSERT_EQ(csv.exit_code, 0) << csv.err;
    EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 3);
}

TEST_F(ToolsMpi, BadOptionIsOneLineAndExitTwo) {
    irf::test::RunOptions options;
    options.expect_irf_error = true;
    const auto r =
        irf::test::run_process({IRF_BIN, "run", "--samples", "1001", "--", "/bin/true"}, options);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "irf: error: --samples '1001': must be a whole number between 0 and 1000\n");
}

} // namespace
} // namespace test_tools_mpi

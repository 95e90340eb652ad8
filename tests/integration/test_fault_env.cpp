// SPDX-License-Identifier: Apache-2.0
// Fault matrix, environment: no GPU, no driver, a driver that refuses every call (the CUDA stub
// library): one clear line, nothing written, the application's status unchanged, no hang.
#include <chrono>
#include <csignal>

#include <gtest/gtest.h>

#include "tests/integration/fault_support.hpp"

namespace irf::test {
namespace test_fault_env {
namespace {

class FaultEnv : public TempDirTest {
protected:
    void SetUp() override {
        if (std::filesystem::exists("/dev/nvidiactl")) {
            GTEST_SKIP() << "a GPU driver is present: these tests simulate its absence";
        }
    }
    /// Runs with the CUPTI backend and `extra` settings; checks the fail-closed behaviour.
    ProcessResult expect_fail_closed(std::map<std::string, std::string> extra) {
        std::filesystem::create_directories(m_tmp / "o");
        extra["IRF_OUTPUT"] = (m_tmp / "o" / "out").string();
        const auto start = std::chrono::steady_clock::now();
        const ProcessResult r = run_fault_harness(extra, {"return:7"});
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        EXPECT_FALSE(r.timed_out);
        EXPECT_LT(seconds, 30.0) << "irf must not hang waiting for a device";
        EXPECT_EQ(r.exit_code, 7) << r.err;
        EXPECT_EQ(r.signal, 0) << r.err;
        EXPECT_EQ(irf_lines(r.err).size(), 1u) << r.err;
        EXPECT_EQ(irf_lines_with(r.err, "CUPTI").size(), 1u) << r.err;
        EXPECT_TRUE(files_in(m_tmp / "o").empty()) << "nothing measured, nothing written";
        return r;
    }
};

TEST_F(FaultEnv, NoDriverExplicitCupti) {
    expect_fail_closed({{"IRF_BACKEND", "cupti"}});
}

TEST_F(FaultEnv, NoDriverDefaultBackend) {
    expect_fail_closed({});
}

TEST_F(FaultEnv, StubDriverRefusesEveryCall) {
    // The toolkit's stub libcuda answers CUDA_ERROR_STUB_LIBRARY to everything: a driver that
    // is there but refuses, as under insufficient permissions or a broken installation.
    const std::filesystem::path stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
    if (!std::filesystem::exists(stub)) {
        GTEST_SKIP() << stub << " not installed";
    }
    std::filesystem::create_directories(m_tmp / "lib");
    std::filesystem::create_symlink(stub, m_tmp / "lib" / "libcuda.so.1");
    std::filesystem::create_symlink(stub, m_tmp / "lib" / "libcuda.so");
    // LD_DEBUG=libs shows which libcuda the dynamic loader initialized: the row proves nothing
    // unless it is the stub (not "no driver" again).
    const ProcessResult r = expect_fail_closed({{"IRF_BACKEND", "cupti"},
                                                {"LD_LIBRARY_PATH", (m_tmp / "lib").string()},
                                                {"LD_DEBUG", "libs"}});
    EXPECT_NE(r.err.find("calling init: " + (m_tmp / "lib" / "libcuda.so").string()),
              std::string::npos)
        << r.err;
    std::filesystem::remove_all(m_tmp / "lib");
}

TEST_F(FaultEnv, NoDriverWithSignalStillDiesOfTheSignal) {
    const auto start = std::chrono::steady_clock::now();
    const ProcessResult r =
        run_fault_harness({{"IRF_OUTPUT", (m_tmp / "out").string()}}, {"kill:TERM"});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.signal, SIGTERM) << r.err;
    // Positive control: irf ran and gave up on CUPTI in its one line, within the same bound as
    // the rows above, before the signal came.
    EXPECT_EQ(irf_lines_with(r.err, "CUPTI is unavailable").size(), 1u) << r.err;
    EXPECT_LT(seconds, 30.0) << "irf must not hang waiting for a device";
    EXPECT_TRUE(files_in(m_tmp.path()).empty());
}

} // namespace
} // namespace test_fault_env
} // namespace irf::test

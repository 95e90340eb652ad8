// SPDX-License-Identifier: Apache-2.0
// libirf_entry.so on a real driver (irf run --fast-intercept, docs/tools.md): does it see the
// CUDA runtime's launches? irf-entry-probe registers counting hooks and checks each of its
// launch paths was seen once. The CPU-side tests (integration.EntryPoints.*) use a fake
// libcuda; this is the check they cannot make.
#include <string>

#include <gtest/gtest.h>

#include "tests/gpu/gpu_probe.hpp"
#include "tests/support/run_process.hpp"

namespace test_entry_points_gpu {
namespace {

irf::test::ProcessResult run_probe(bool preload) {
    irf::test::RunOptions options;
    if (preload) {
        options.env["LD_PRELOAD"] = IRF_ENTRY_LIB;
        options.env["ASAN_OPTIONS"] = "verify_asan_link_order=0";
    } else {
        options.unset.push_back("LD_PRELOAD");
    }
    return irf::test::run_process({IRF_ENTRY_PROBE}, options);
}

TEST(GpuEntryPoints, TheRuntimesLaunchesAreEachSeenOnceThroughTheWrapper) {
    IRF_REQUIRE_DEVICE();
    const irf::test::ProcessResult run = run_probe(true);
    if (run.exit_code == 77) {
        IRF_GPU_UNMET(run.out);
    }
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    std::printf("%s", run.out.c_str()); // the hooked entry points, for the session's record
}

TEST(GpuEntryPoints, WithoutTheLibraryTheProbeSaysSo) {
    IRF_REQUIRE_DEVICE();
    const irf::test::ProcessResult run = run_probe(false);
    if (run.exit_code == 77) {
        IRF_GPU_UNMET(run.out);
    }
    EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
    EXPECT_NE(run.out.find("libirf_entry.so not preloaded"), std::string::npos) << run.out;
}

} // namespace
} // namespace test_entry_points_gpu

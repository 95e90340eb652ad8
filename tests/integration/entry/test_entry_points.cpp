// SPDX-License-Identifier: Apache-2.0
// libirf_entry.so without a GPU: entry_client resolves and calls a fake libcuda's launch entry
// points as the CUDA runtime does, with and without the library preloaded (docs/tools.md,
// "irf run --fast-intercept"; docs/reliability.md rows "entry points").
#include <string>

#include <gtest/gtest.h>

#include "tests/support/run_process.hpp"

namespace test_entry_points {
namespace {

irf::test::ProcessResult run_client(const std::string& mode, bool preload) {
    irf::test::RunOptions options;
    if (preload) {
        options.env["LD_PRELOAD"] = IRF_ENTRY_LIB;
        // Sanitizer builds: the preloaded library comes before the sanitizer runtime.
        options.env["ASAN_OPTIONS"] = "verify_asan_link_order=0";
    } else {
        options.unset.push_back("LD_PRELOAD");
    }
    return irf::test::run_process({IRF_ENTRY_CLIENT, mode, IRF_FAKE_LIBCUDA}, options);
}

void expect_ok(const irf::test::ProcessResult& r, const std::string& mode) {
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.out, "ok " + mode + "\n") << r.err;
}

TEST(EntryPoints, WithoutTheLibraryEveryCallReachesTheDriverUnchanged) {
    expect_ok(run_client("direct", false), "direct");
}

TEST(EntryPoints, PreloadedWithoutHooksIsAPurePassThrough) {
    // The library installed but libirf absent (or never registering): launches go through the
    // wrappers and reach the driver with the same arguments, result and errno.
    expect_ok(run_client("passthrough", true), "passthrough");
}

TEST(EntryPoints, HooksSeeEachLaunchOnceInOrderAroundOneRealCall) {
    expect_ok(run_client("hooked", true), "hooked");
}

TEST(EntryPoints, RegistrationOfAnotherVersionIsRefusedAndChangesNothing) {
    expect_ok(run_client("version", true), "version");
}

} // namespace
} // namespace test_entry_points

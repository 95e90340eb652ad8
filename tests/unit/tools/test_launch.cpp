// SPDX-License-Identifier: Apache-2.0
// `irf run` option handling: validation, the rank-aware stem and the injected environment.
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "tests/support/temp_dir.hpp"
#include "tools/irf/launch.hpp"

namespace {

using irf::launcher::RunOptions;
using irf::launcher::UsageError;

std::map<std::string, std::string> as_map(const RunOptions& o, const std::string& lib) {
    std::map<std::string, std::string> out;
    for (const auto& [name, value] : irf::launcher::build_environment(o, lib)) {
        out[name] = value;
    }
    return out;
}

RunOptions with_app() {
    RunOptions o;
    o.command = {"./app"};
    return o;
}

std::string error_of(const RunOptions& o) {
    try {
        irf::launcher::validate(o);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

TEST(Launcher, OptionsBecomeVariables) {
    RunOptions o = with_app();
    o.kernels = "gemm";
    o.exclude = "nccl";
    o.samples = 2;
    o.output = "/tmp/x";
    o.targets = "none";
    o.callstack = 0;
    o.log = "debug";
    o.summary = "file";
    const auto vars = as_map(o, "/opt/irf/lib/libirf.so");
    EXPECT_EQ(vars.at("CUDA_INJECTION64_PATH"), "/opt/irf/lib/libirf.so");
    EXPECT_EQ(vars.at("IRF_KERNELS"), "gemm");
    EXPECT_EQ(vars.at("IRF_EXCLUDE"), "nccl");
    EXPECT_EQ(vars.at("IRF_SAMPLES"), "2");
    EXPECT_EQ(vars.at("IRF_OUTPUT"), "/tmp/x");
    EXPECT_EQ(vars.at("IRF_TARGETS"), "none");
    EXPECT_EQ(vars.at("IRF_CALLSTACK"), "0");
    EXPECT_EQ(vars.at("IRF_LOG"), "debug");
    EXPECT_EQ(vars.at("IRF_SUMMARY"), "file");
    EXPECT_EQ(vars.count("IRF_CEILINGS"), 0u);
}

TEST(Launcher, UnsetOptionsLeaveTheEnvironmentAlone) {
    const auto vars = as_map(with_app(), "/l/libirf.so");
    // Only the library is always set (for CUDA and for NVTX); the stem (and its rank suffix) is
    // libirf.so's business.
    EXPECT_EQ(vars.size(), 2u);
    EXPECT_EQ(vars.at("CUDA_INJECTION64_PATH"), "/l/libirf.so");
    EXPECT_EQ(vars.at("NVTX_INJECTION64_PATH"), "/l/libirf.so");
}

TEST(Launcher, NvtxOptionsAreJoinedAndChecked) {
    RunOptions o = with_app();
    o.nvtx_include = {"train/forward/", "io@checkpoint"};
    o.nvtx_exclude = {"warmup/"};
    const auto vars = as_map(o, "/l/libirf.so");
    EXPECT_EQ(vars.at("IRF_NVTX_INCLUDE"), "train/forward/;io@checkpoint");
    EXPECT_EQ(vars.at("IRF_NVTX_EXCLUDE"), "warmup/");
    o.nvtx_include = {"a//b/"};
    EXPECT_THROW(irf::launcher::validate(o), UsageError);
    o.nvtx_include = {"a/;b/"}; // one expression per option
    EXPECT_THROW(irf::launcher::validate(o), UsageError);
}

TEST(Launcher, BadValuesAreOneLineErrors) {
    RunOptions o = with_app();
    o.kernels = "(";
    EXPECT_EQ(error_of(o), "--kernels '(': invalid RE2 regex (missing ): ()");
    o = with_app();
    o.exclude = "(?!nccl)"; // ECMAScript lookahead: RE2 has none, so it is refused up front
    EXPECT_EQ(error_of(o), "--exclude '(?!nccl)': invalid RE2 regex (invalid perl operator: (?!)");
    o = with_app();
    o.kernels = "regex:^gemm"; // ncu's prefix
    EXPECT_EQ(error_of(o), "");
    o = with_app();
    o.samples = 0;
    EXPECT_EQ(error_of(o), "--samples 0: expected an integer >= 1");
    o = with_app();
    o.log = "loud";
    EXPECT_EQ(error_of(o), "--log 'loud': expected one of error, warn, info, debug");
    o = with_app();
    o.summary = "all";
    EXPECT_NE(error_of(o).find("--summary 'all'"), std::string::npos);
    o = with_app();
    o.ceilings = "/no/such.yaml";
    EXPECT_EQ(error_of(o), "--ceilings '/no/such.yaml': no such file");
    o = with_app();
    o.lib = "/no/libirf.so";
    EXPECT_EQ(error_of(o), "--lib '/no/libirf.so': no such file");
    EXPECT_NE(error_of(RunOptions{}).find("no application given"), std::string::npos);
    EXPECT_EQ(error_of(with_app()), "");
}

TEST(Launcher, CeilingsFileIsMadeAbsolute) {
    irf::test::TempDir tmp;
    irf::test::write_file(tmp / "c.yaml", "schema: irf.ceilings/v1\n");
    RunOptions o = with_app();
    o.ceilings = (tmp / "c.yaml").string();
    EXPECT_EQ(as_map(o, "/l/libirf.so").at("IRF_CEILINGS"), (tmp / "c.yaml").string());
    o.ceilings = "h100-sxm5"; // a shipped key passes through
    EXPECT_EQ(error_of(o), "");
    EXPECT_EQ(as_map(o, "/l/libirf.so").at("IRF_CEILINGS"), "h100-sxm5");
}

TEST(Launcher, LibraryIsFoundNextToTheBinaryFirst) {
    irf::test::TempDir tmp;
    irf::test::write_file(tmp / "lib" / "libirf.so", "");
    irf::test::write_file(tmp / "build" / "libirf.so", "");
    const auto candidates = irf::launcher::library_candidates(
        (tmp / "bin").string(), "lib64", (tmp / "build" / "libirf.so").string());
    ASSERT_EQ(candidates.size(), 3u);
    EXPECT_EQ(candidates[0], (tmp / "lib64" / "libirf.so").string());
    EXPECT_EQ(irf::launcher::find_library(candidates), (tmp / "lib" / "libirf.so").string());
    EXPECT_THROW((void)irf::launcher::find_library({"/nope/libirf.so"}), UsageError);
}

} // namespace

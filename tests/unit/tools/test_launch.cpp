// SPDX-License-Identifier: Apache-2.0
// `irf run` option handling: validation, the rank-aware stem and the injected environment.
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include <unistd.h>

#include "tests/support/temp_dir.hpp"
#include "tools/irf/launch.hpp"

namespace test_launch {
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
    o.samples = "2";
    o.output = "/tmp/x";
    o.targets = "none";
    o.callstack = "0";
    o.log = "debug";
    o.summary = "file";
    o.launch_skip = "5";
    o.launch_count = "7";
    o.capture_range = "cudaProfilerApi";
    const auto vars = as_map(o, "/opt/irf/lib/libirf.so");
    EXPECT_EQ(vars.at("IRF_LAUNCH_SKIP"), "5");
    EXPECT_EQ(vars.at("IRF_LAUNCH_COUNT"), "7");
    EXPECT_EQ(vars.at("IRF_CAPTURE_RANGE"), "cudaProfilerApi");
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

TEST(Launcher, FastInterceptPreloadsTheEntryLibraryFirst) {
    // issue 55 item 5: libirf_entry.so must come before any other preload (its dlsym is the one
    // the CUDA runtime finds); the application's own preloads follow, unchanged.
    RunOptions o = with_app();
    o.fast_intercept = true;
    EXPECT_EQ(error_of(o), "");
    unsetenv("LD_PRELOAD");
    auto vars = irf::launcher::build_environment(o, "/opt/irf/lib/libirf.so",
                                                 "/opt/irf/lib/libirf_entry.so");
    std::map<std::string, std::string> env(vars.begin(), vars.end());
    EXPECT_EQ(env["IRF_FAST_INTERCEPT"], "1");
    EXPECT_EQ(env["LD_PRELOAD"], "/opt/irf/lib/libirf_entry.so");
    ASSERT_EQ(setenv("LD_PRELOAD", "/usr/lib/libjemalloc.so.2 /x/liby.so", 1), 0);
    vars = irf::launcher::build_environment(o, "/opt/irf/lib/libirf.so",
                                            "/opt/irf/lib/libirf_entry.so");
    env = {vars.begin(), vars.end()};
    EXPECT_EQ(env["LD_PRELOAD"],
              "/opt/irf/lib/libirf_entry.so:/usr/lib/libjemalloc.so.2 /x/liby.so");
    unsetenv("LD_PRELOAD");
    o.fast_intercept = false; // without the option neither variable is set
    EXPECT_EQ(as_map(o, "/opt/irf/lib/libirf.so").count("LD_PRELOAD"), 0u);
    EXPECT_EQ(as_map(o, "/opt/irf/lib/libirf.so").count("IRF_FAST_INTERCEPT"), 0u);
}

TEST(Launcher, FastInterceptFindsTheEntryLibraryBesideLibirf) {
    irf::test::TempDir tmp;
    irf::test::write_file(tmp / "lib" / "libirf.so", "");
    const std::string lib = (tmp / "lib" / "libirf.so").string();
    const std::string beside = (tmp / "lib" / "libirf_entry.so").string();
    const std::string built = (tmp / "build" / "libirf_entry.so").string();
    try {
        (void)irf::launcher::find_entry_library(lib, built);
        ADD_FAILURE() << "no libirf_entry.so anywhere, yet one was found";
    } catch (const UsageError& e) {
        EXPECT_EQ(std::string(e.what()), "--fast-intercept: libirf_entry.so not found (looked at " +
                                             beside + ", " + built +
                                             "); it is installed beside libirf.so");
    }
    irf::test::write_file(built, "");
    EXPECT_EQ(irf::launcher::find_entry_library(lib, built), built); // the build tree's
    irf::test::write_file(beside, "");
    EXPECT_EQ(irf::launcher::find_entry_library(lib, built), beside); // the installed one first
}

TEST(Launcher, BadValuesAreOneLineErrors) {
    RunOptions o = with_app();
    o.kernels = "(";
    EXPECT_EQ(error_of(o), "--kernel-name '(': invalid RE2 regex (missing ): ()");
    o = with_app();
    o.exclude = "(?!nccl)"; // ECMAScript lookahead: RE2 has none, so it is refused up front
    EXPECT_EQ(error_of(o), "--exclude '(?!nccl)': invalid RE2 regex (invalid perl operator: (?!)");
    // One option at a time: (field, value, expected line; "" = accepted).
    const struct {
        std::optional<std::string> RunOptions::*field;
        const char* value;
        const char* expected;
    } cases[] = {
        {&RunOptions::kernels, "regex:^gemm", ""}, // ncu's prefix
        {&RunOptions::samples, "0", ""},           // ncu's timing-only run (IRF_SAMPLES=0)
        {&RunOptions::samples, "1001",
         "--samples '1001': must be a whole number between 0 and 1000"},
        {&RunOptions::launch_count, "ten",
         "--launch-count 'ten': must be a whole number, 0 or more"},
        {&RunOptions::callstack, "65", "--callstack '65': must be a whole number between 0 and 64"},
        {&RunOptions::capture_range, "nvtx",
         "--capture-range 'nvtx': expected none or cudaProfilerApi"},
        {&RunOptions::output, "prof/%z", "--output 'prof/%z': unknown placeholder %z"},
        {&RunOptions::log, "loud", "--log 'loud': expected error, warn, info or debug"},
        {&RunOptions::summary, "all", "--summary 'all': expected stderr, file, both or none"},
        {&RunOptions::ceilings, "/no/such.yaml", "--ceilings '/no/such.yaml': file not readable"},
    };
    for (const auto& c : cases) {
        o = with_app();
        o.*c.field = c.value;
        EXPECT_EQ(error_of(o), c.expected) << c.value;
    }
    o = with_app();
    o.lib = "/no/libirf.so";
    EXPECT_EQ(error_of(o), "--lib '/no/libirf.so': no such file");
    EXPECT_NE(error_of(RunOptions{}).find("no application given"), std::string::npos);
    EXPECT_EQ(error_of(with_app()), "");
}

// A variable the application would inherit is checked too, named as the variable.
TEST(Launcher, InheritedVariablesAreCheckedAsTheLibraryWould) {
    ASSERT_EQ(setenv("IRF_LAUNCH_SKIP", "-1", 1), 0);
    const std::string inherited = error_of(with_app());
    RunOptions o = with_app();
    o.launch_skip = "2"; // the option overrides what the environment has
    const std::string overridden = error_of(o);
    unsetenv("IRF_LAUNCH_SKIP");
    EXPECT_EQ(inherited,
              "IRF_LAUNCH_SKIP='-1' (from the environment): must be a whole number, 0 or more");
    EXPECT_EQ(overridden, "");
}

std::string exec_error_of(const RunOptions& o) {
    try {
        (void)irf::launcher::check_before_exec(o, "/opt/irf/lib/libirf.so");
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

// issue 21: `--output prof/x` without prof/ ran the whole job before saying so.
TEST(Launcher, OutputDirectoryIsCheckedBeforeExec) {
    irf::test::TempDir tmp;
    RunOptions o = with_app();
    o.output = (tmp / "missing" / "x").string();
    EXPECT_EQ(exec_error_of(o), "--output '" + *o.output + "': directory " +
                                    (tmp / "missing").string() + " does not exist");
    o.output = (tmp / "run-%a").string();
    EXPECT_EQ(irf::launcher::check_before_exec(o, "/opt/irf/lib/libirf.so"),
              (tmp / "run-app.json").string()); // %a: the application's base name
    if (geteuid() != 0) {                       // root writes anywhere
        std::filesystem::create_directory(tmp / "ro");
        std::filesystem::permissions(tmp / "ro", std::filesystem::perms::owner_read |
                                                     std::filesystem::perms::owner_exec);
        o.output = (tmp / "ro" / "x").string();
        EXPECT_NE(exec_error_of(o).find("not writable"), std::string::npos);
        std::filesystem::permissions(tmp / "ro", std::filesystem::perms::owner_all);
    }
}

TEST(Launcher, TargetsAndCeilingsAreResolvedBeforeExec) {
    irf::test::TempDir tmp;
    RunOptions o = with_app();
    o.output = (tmp / "x").string();
    o.targets = "h100-sxm5,no-such-gpu";
    const std::string targets = exec_error_of(o);
    EXPECT_EQ(targets.rfind("--targets 'h100-sxm5,no-such-gpu': ", 0), 0u) << targets;
    EXPECT_NE(targets.find("no-such-gpu"), std::string::npos);
    EXPECT_EQ(targets.find('\n'), std::string::npos);
    o.targets = "h100-sxm5";
    o.ceilings = "a100-sxm4-80gb-typo";
    EXPECT_EQ(exec_error_of(o).rfind("--ceilings 'a100-sxm4-80gb-typo': ", 0), 0u);
    o.ceilings = "h100-sxm5";
    EXPECT_EQ(exec_error_of(o), "");
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
} // namespace test_launch

namespace test_launch {
namespace {

const char* other_tools_injection(const char* name) {
    return std::string(name) == "NVTX_INJECTION64_PATH" ? "/opt/nsys/libToolsInjection64.so"
                                                        : nullptr;
}

TEST(Launcher, ReplacingAnotherToolsInjectionIsSaidInOneLine) {
    const auto vars = irf::launcher::build_environment(with_app(), "/opt/irf/lib/libirf.so");
    const auto notes = irf::launcher::replaced_injection_notes(vars, &other_tools_injection);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0], "irf: replacing NVTX_INJECTION64_PATH=/opt/nsys/libToolsInjection64.so "
                        "(that tool sees nothing of this run)");
    const auto none = irf::launcher::replaced_injection_notes(
        vars, [](const char*) -> const char* { return nullptr; });
    EXPECT_TRUE(none.empty());
}

} // namespace
} // namespace test_launch

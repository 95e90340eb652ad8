// SPDX-License-Identifier: Apache-2.0
// `irf run` end to end with the fake backend (issue 21): every check made before the application
// runs, the "profile will go to" line, ncu's options, the cudaProfilerStart/Stop capture range
// and the summary's notes when nothing could be shown.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace test_tools_run {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class ToolsRun : public irf::test::TempDirTest {
protected:
    /// `irf run ARGS -- sh -c '... exec harness'`: the shell hands irf run's
    /// CUDA_INJECTION64_PATH to the harness, which dlopens it like the driver; the harness
    /// leaves a marker so a test can tell whether the application ran.
    irf::test::ProcessResult run(const std::vector<std::string>& args, const std::string& script,
                                 bool expect_error = false) const {
        std::vector<std::string> argv{IRF_BIN, "run"};
        argv.insert(argv.end(), args.begin(), args.end());
        argv.insert(argv.end(), {"--", "/bin/sh", "-c",
                                 "touch \"$1\"; IRF_BACKEND=fake:" + data(script) +
                                     " exec \"$0\" \"$CUDA_INJECTION64_PATH\"",
                                 IRF_HARNESS_BIN, marker().string()});
        irf::test::RunOptions options;
        options.cwd = m_tmp.path().string();
        options.expect_irf_error = expect_error;
        return irf::test::run_process(argv, options);
    }
    static std::string data(const std::string& name) {
        return std::string(IRF_TEST_DATA_DIR) + "/run/" + name;
    }
    fs::path marker() const { return m_tmp / "app-ran"; }
    json profile(const std::string& stem) const {
        return json::parse(irf::test::read_file(m_tmp / (stem + ".json")));
    }
    /// A run that must succeed, without summary or projections, written to `stem`: its profile
    /// ({} when none was written).
    json quiet_run(std::vector<std::string> args, const std::string& script,
                   const std::string& stem) const {
        args.insert(args.end(), {"-o", stem, "--summary", "none", "--targets", "none"});
        const auto r = run(args, script);
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return fs::exists(m_tmp / (stem + ".json")) ? profile(stem) : json::object();
    }
};

/// The kernel record named `name`; one with impossible values when there is none.
json kernel_named(const json& p, const std::string& name) {
    for (const json& k : p.value("kernels", json::array())) {
        if (k["name"] == name) {
            return k;
        }
    }
    ADD_FAILURE() << "no kernel " << name;
    return {{"profiled_launches", -1}, {"time_ns", {{"total", -1.0}}}};
}

bool has_warning(const json& p, const std::string& text) {
    for (const json& w : p["warnings"]) {
        if (w.get<std::string>().find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

// Bad values stop irf run with one line and exit 2 before the application starts.
TEST_F(ToolsRun, EveryCheckHappensBeforeTheApplicationRuns) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"-o", "prof/x"}, "irf: error: --output 'prof/x': directory "},
        {{"-o", "x-%z"}, "irf: error: --output 'x-%z': unknown placeholder %z\n"},
        {{"--targets", "h100-sxm5,nosuchgpu"}, "irf: error: --targets 'h100-sxm5,nosuchgpu': "},
        {{"--ceilings", "nosuchgpu"}, "irf: error: --ceilings 'nosuchgpu': "},
        {{"-k", "regex:("}, "irf: error: --kernel-name 'regex:(': invalid RE2 regex"},
        {{"--exclude", "a{2,1}"}, "irf: error: --exclude 'a{2,1}': invalid RE2 regex"},
        {{"-c", "-1"}, "irf: error: --launch-count '-1': must be a whole number, 0 or more\n"},
        {{"-s", "x"}, "irf: error: --launch-skip 'x': must be a whole number, 0 or more\n"},
        {{"-s", "99999999999999999999"},
         "irf: error: --launch-skip '99999999999999999999': too large\n"},
        {{"--samples", "1001"},
         "irf: error: --samples '1001': must be a whole number between 0 and 1000\n"},
        {{"--metrics", "bogus"}, "irf: error: --metrics 'bogus': expected default, all"},
        {{"--capture-range", "nvtx"},
         "irf: error: --capture-range 'nvtx': expected none or cudaProfilerApi\n"},
        // Issue #39 item 7: lost at exit to ENAMETOOLONG before.
        {{"-o", std::string(300, 'n')}, "irf: error: --output 'nnnn"},
    };
    for (const auto& [args, expected] : cases) {
        SCOPED_TRACE(args.front() + " " + args.back());
        const auto r = run(args, "no_launch.json", true);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_EQ(r.err.rfind(expected, 0), 0u) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_FALSE(fs::exists(marker())) << "the application ran";
    }
}

TEST_F(ToolsRun, SaysWhereTheProfileWillGo) {
    const auto r =
        run({"-o", "prof-%a", "--summary", "none", "--targets", "none"}, "capture_range.json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // %a is the application's base name: here the shell that execs the harness.
    EXPECT_EQ(r.err.rfind("irf: profile will go to " + (m_tmp / "prof-sh.json").string() + "\n", 0),
              0u)
        << r.err;
}

// ncu's names: -k with regex:, -s/--launch-skip, -c/--launch-count, -o.
TEST_F(ToolsRun, NcuOptionsReachTheLibrary) {
    const json p = quiet_run({"-k", "regex:^(step|teardown)", "-s", "1", "-c", "1"},
                             "capture_range.json", "ncu");
    EXPECT_EQ(p["config"]["IRF_KERNELS"], "regex:^(step|teardown)");
    EXPECT_EQ(p["config"]["IRF_LAUNCH_SKIP"], "1");
    EXPECT_EQ(p["config"]["IRF_LAUNCH_COUNT"], "1");
    // step() launches 3 times: the first matching launch is skipped, the second profiled, and
    // the count (1) is used up before teardown().
    EXPECT_EQ(kernel_named(p, "warmup()")["profiled_launches"], 0);
    EXPECT_EQ(kernel_named(p, "step()")["profiled_launches"], 1);
    EXPECT_EQ(kernel_named(p, "teardown()")["profiled_launches"], 0);
}

TEST_F(ToolsRun, SamplesZeroIsTimingOnly) {
    const json p = quiet_run({"--samples", "0"}, "capture_range.json", "timing");
    EXPECT_EQ(p["coverage"]["launches"], 9);
    EXPECT_EQ(p["coverage"]["profiled_launches"], 0);
    EXPECT_DOUBLE_EQ(kernel_named(p, "step()")["time_ns"]["total"].get<double>(), 6000);
}

// warmup() runs before cudaProfilerStart, step() inside, teardown() after cudaProfilerStop.
TEST_F(ToolsRun, CaptureRangeProfilesOnlyBetweenProfilerStartAndStop) {
    const json p = quiet_run({"--capture-range", "cudaProfilerApi"}, "capture_range.json", "range");
    EXPECT_EQ(p["config"]["IRF_CAPTURE_RANGE"], "cudaProfilerApi");
    EXPECT_EQ(kernel_named(p, "warmup()")["profiled_launches"], 0);
    EXPECT_GE(kernel_named(p, "step()")["profiled_launches"], 1);
    EXPECT_EQ(kernel_named(p, "teardown()")["profiled_launches"], 0);
    // Outside the range launches are still timed: 3 x 1000 ns.
    EXPECT_DOUBLE_EQ(kernel_named(p, "warmup()")["time_ns"]["total"].get<double>(), 3000);

    // Without a capture range every kernel is profiled.
    const json all = quiet_run({}, "capture_range.json", "all");
    EXPECT_GE(kernel_named(all, "warmup()")["profiled_launches"], 1);
    EXPECT_GE(kernel_named(all, "teardown()")["profiled_launches"], 1);
}

TEST_F(ToolsRun, CaptureRangeNeverOpenedIsSaid) {
    const json p = quiet_run({"--capture-range", "cudaProfilerApi"}, "no_start.json", "never");
    EXPECT_EQ(p["coverage"]["profiled_launches"], 0);
    EXPECT_TRUE(has_warning(p, "never called cudaProfilerStart")) << p["warnings"];
}

// With IRF_SUMMARY at its default the summary (on stderr) says why it is empty.
TEST_F(ToolsRun, NoLaunchIsSaid) {
    const auto r = run({"-o", "empty", "--targets", "none"}, "no_launch.json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("no kernels were launched"), std::string::npos) << r.err;
    EXPECT_TRUE(has_warning(profile("empty"), "no kernels were launched"));
}

TEST_F(ToolsRun, FilterThatMatchedNothingListsTheMostLaunched) {
    const auto r = run({"-k", "gemm", "-o", "nomatch", "--targets", "none"}, "six_kernels.json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // first() is launched 4 + 2 times in two configurations: its launches add up to 6.
    const std::string note = "no kernel matched --kernels 'gemm' (IRF_KERNELS); most launched: "
                             "first() (6 launches), second() (5 launches), third() (4 launches), "
                             "fourth() (3 launches), fifth() (2 launches)";
    EXPECT_NE(r.err.find(note), std::string::npos) << r.err;
    // Only five names are listed: the warning is exactly the note, sixth() is not in it.
    const json warnings = profile("nomatch")["warnings"];
    EXPECT_NE(std::find(warnings.begin(), warnings.end(), note), warnings.end()) << warnings;

    // A filter that matches something adds no note.
    const auto matched =
        run({"-k", "third", "-o", "match", "--targets", "none"}, "six_kernels.json");
    ASSERT_EQ(matched.exit_code, 0) << matched.err;
    EXPECT_EQ(matched.err.find("no kernel matched"), std::string::npos) << matched.err;
}

TEST_F(ToolsRun, NvtxFilterThatMatchedNoRangeIsSaid) {
    // regions.json launches under train_step/forward and train_step/backward (push/pop ranges).
    // 'train_step/forward' without the trailing '/' names a start/end range: nothing matches.
    const auto r =
        run({"--nvtx-include", "train_step/forward", "-o", "nvtx_none", "--targets", "none"},
            "../fake/regions.json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string note =
        "no launch ran inside a range matching --nvtx-include 'train_step/forward' "
        "(IRF_NVTX_INCLUDE), so no kernel was profiled; an expression without a trailing '/' "
        "names a start/end range (nvtxRangeStart): for push/pop ranges end it with '/'; ranges "
        "seen: train_step/backward, train_step/forward";
    EXPECT_NE(r.err.find(note), std::string::npos) << r.err;
    EXPECT_TRUE(has_warning(profile("nvtx_none"), "so no kernel was profiled"));

    // With the '/' it matches: kernels are profiled and nothing is said.
    const auto ok =
        run({"--nvtx-include", "train_step/forward/", "-o", "nvtx_ok", "--targets", "none"},
            "../fake/regions.json");
    ASSERT_EQ(ok.exit_code, 0) << ok.err;
    EXPECT_EQ(ok.err.find("no launch ran inside"), std::string::npos) << ok.err;
    EXPECT_GE(profile("nvtx_ok")["coverage"]["profiled_launches"].get<int>(), 1);
}

TEST_F(ToolsRun, WithoutTheSummaryAFilterThatProfiledNothingIsStillOneLine) {
    // Issue 53 item 10: IRF_SUMMARY=none printed only "profile written to ..." at exit.
    const auto r = run({"--nvtx-include", "train_step/forward", "-o", "quiet_none", "--summary",
                        "none", "--targets", "none"},
                       "../fake/regions.json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("[irf] no launch ran inside a range matching --nvtx-include "
                         "'train_step/forward' (IRF_NVTX_INCLUDE), so no kernel was profiled"),
              std::string::npos)
        << r.err;
    const auto k = run({"-k", "gemm", "-o", "quiet_k", "--summary", "none", "--targets", "none"},
                       "six_kernels.json");
    ASSERT_EQ(k.exit_code, 0) << k.err;
    EXPECT_NE(k.err.find("[irf] no kernel matched --kernels 'gemm' (IRF_KERNELS)"),
              std::string::npos)
        << k.err;
    // A run that profiled something says nothing of the kind.
    const auto ok = run({"-k", "third", "-o", "quiet_ok", "--summary", "none", "--targets", "none"},
                        "six_kernels.json");
    EXPECT_EQ(ok.err.find("no kernel matched"), std::string::npos) << ok.err;
}

} // namespace
} // namespace test_tools_run

namespace test_tools_run {
namespace {

// A copy of a shipped entry under a key nothing ships: a file, not a name.
std::string entry_copy(const fs::path& dir, const std::string& shipped, const std::string& key) {
    std::string text =
        irf::test::read_file(std::string(IRF_SOURCE_DIR) + "/config/gpus/" + shipped + ".yaml");
    const std::string from = "\n  key: " + shipped + "\n";
    text.replace(text.find(from), from.size(), "\n  key: " + key + "\n");
    irf::test::write_file(dir / (key + ".yaml"), text);
    return (dir / (key + ".yaml")).string();
}

// Issue #39 item 4: irf's options end at the application; `-c 3` after it is the app's.
TEST_F(ToolsRun, OptionsAfterTheApplicationAreTheApplications) {
    const std::vector<std::string> argv{IRF_BIN,   "run",       "-o",
                                        "p",       "--summary", "none",
                                        "/bin/sh", "-c",        "printf '%s|' \"$@\" > args.txt",
                                        "sh",      "foo",       "-c",
                                        "3",       "bar"};
    irf::test::RunOptions options;
    options.cwd = m_tmp.path().string();
    const auto r = irf::test::run_process(argv, options);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(irf::test::read_file(m_tmp / "args.txt"), "foo|-c|3|bar|");
}

// --ceilings and --targets take a shipped name or a YAML file (#21 item 4).
TEST_F(ToolsRun, CeilingsAndTargetsTakeShippedNamesAndFiles) {
    const std::string ceilings = entry_copy(m_tmp.path(), "h100-pcie", "my-h100");
    const std::string target = entry_copy(m_tmp.path(), "l4", "my-l4");
    const auto named = run({"-o", "named", "--summary", "none", "--ceilings", "h100-sxm5",
                            "--targets", "l4,a100-pcie"},
                           "six_kernels.json");
    ASSERT_EQ(named.exit_code, 0) << named.err;
    EXPECT_EQ(profile("named")["ceilings_used"]["name"], "h100-sxm5");
    EXPECT_EQ(profile("named")["config"]["IRF_TARGETS"], "l4,a100-pcie");
    const auto files =
        run({"-o", "files", "--summary", "none", "--ceilings", ceilings, "--targets", target},
            "six_kernels.json");
    ASSERT_EQ(files.exit_code, 0) << files.err;
    EXPECT_EQ(profile("files")["ceilings_used"]["name"], "my-h100");
    EXPECT_EQ(profile("files")["config"]["IRF_TARGETS"], target);
}

} // namespace
} // namespace test_tools_run

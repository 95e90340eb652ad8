// SPDX-License-Identifier: Apache-2.0
// IRF_* parsing: every variable valid and invalid, effective settings, the documented table.
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "config/env.hpp"
#include "config/text_list.hpp"
#include "tests/support/env_lookup.hpp"
#include "tests/support/golden.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::config {
namespace test_env {
namespace {

using test::env_of;

ParseResult parse(const std::string& name, const std::string& value) {
    return parse_env(env_of({{name, value}}));
}

/// The single error line for one invalid value.
std::string error_of(const std::string& name, const std::string& value) {
    const ParseResult r = parse(name, value);
    return r.errors.size() == 1 ? r.errors[0] : "(" + std::to_string(r.errors.size()) + " errors)";
}

TEST(Env, DefaultsWhenNothingIsSet) {
    const ParseResult r = parse_env(env_of({}));
    EXPECT_TRUE(r.errors.empty());
    EXPECT_FALSE(r.disabled_by_error);
    const Config& c = r.config;
    EXPECT_EQ(c.output, "irf-%a-%h-%p");
    EXPECT_EQ(c.summary, SummaryMode::both);
    EXPECT_EQ(c.kernels, "");
    EXPECT_EQ(c.exclude, k_default_exclude);
    EXPECT_EQ(c.launch_skip, 0u);
    EXPECT_FALSE(c.launch_count.has_value());
    EXPECT_EQ(c.samples, 1);
    EXPECT_EQ(c.ceilings, "");
    EXPECT_EQ(c.targets, "all");
    EXPECT_EQ(c.callstack, 8);
    EXPECT_EQ(c.log, LogLevel::warn);
    EXPECT_FALSE(c.disable);
    EXPECT_EQ(c.backend, "cupti");
}

TEST(Env, EmptyValueCountsAsUnset) {
    const ParseResult r = parse("IRF_SAMPLES", "");
    EXPECT_TRUE(r.errors.empty());
    EXPECT_EQ(r.config.samples, 1);
}

TEST(Env, ValidValues) {
    irf::test::TempDir tmp;
    irf::test::write_file(tmp / "c.yaml", "x");
    const ParseResult r = parse_env(env_of({{"IRF_OUTPUT", "prof/%a-%r"},
                                            {"IRF_SUMMARY", "stderr"},
                                            {"IRF_KERNELS", "^gemm|conv"},
                                            {"IRF_EXCLUDE", "copy"},
                                            {"IRF_LAUNCH_SKIP", "10"},
                                            {"IRF_LAUNCH_COUNT", "5"},
                                            {"IRF_SAMPLES", "4"},
                                            {"IRF_CEILINGS", (tmp / "c.yaml").string()},
                                            {"IRF_TARGETS", "h100-sxm5,b200"},
                                            {"IRF_CALLSTACK", "0"},
                                            {"IRF_LOG", "debug"},
                                            {"IRF_DISABLE", "0"},
                                            {"IRF_BACKEND", "fake:/tmp/s.json"}}));
    EXPECT_TRUE(r.errors.empty()) << r.errors[0];
    const Config& c = r.config;
    EXPECT_EQ(c.output, "prof/%a-%r");
    EXPECT_EQ(c.summary, SummaryMode::stderr_only);
    EXPECT_EQ(c.kernels, "^gemm|conv");
    EXPECT_EQ(c.exclude, "copy");
    EXPECT_EQ(c.launch_skip, 10u);
    EXPECT_EQ(c.launch_count, 5u);
    EXPECT_EQ(c.samples, 4);
    EXPECT_EQ(c.ceilings, (tmp / "c.yaml").string());
    EXPECT_EQ(c.targets, "h100-sxm5,b200");
    EXPECT_EQ(c.callstack, 0);
    EXPECT_EQ(c.log, LogLevel::debug);
    EXPECT_FALSE(c.disable);
    EXPECT_EQ(c.backend, "fake");
    EXPECT_EQ(c.backend_arg, "/tmp/s.json");
}

TEST(Env, EveryModeAndLevelName) {
    EXPECT_EQ(parse("IRF_SUMMARY", "file").config.summary, SummaryMode::file);
    EXPECT_EQ(parse("IRF_SUMMARY", "both").config.summary, SummaryMode::both);
    EXPECT_EQ(parse("IRF_SUMMARY", "none").config.summary, SummaryMode::none);
    EXPECT_EQ(parse("IRF_LOG", "error").config.log, LogLevel::error);
    EXPECT_EQ(parse("IRF_LOG", "info").config.log, LogLevel::info);
    EXPECT_EQ(parse("IRF_LOG", "warn").config.log, LogLevel::warn);
    EXPECT_TRUE(parse("IRF_DISABLE", "1").config.disable);
    EXPECT_TRUE(parse("IRF_DISABLE", "true").config.disable);
    EXPECT_FALSE(parse("IRF_DISABLE", "off").config.disable);
    EXPECT_TRUE(parse("IRF_FAST_INTERCEPT", "1").config.fast_intercept);
    EXPECT_TRUE(parse("IRF_FAST_INTERCEPT", "on").config.fast_intercept);
    EXPECT_FALSE(parse("IRF_FAST_INTERCEPT", "0").config.fast_intercept);
    EXPECT_EQ(parse("IRF_BACKEND", "cupti").config.backend, "cupti");
    EXPECT_EQ(parse("IRF_TARGETS", "none").config.targets, "none");
    EXPECT_EQ(parse("IRF_EXCLUDE", "").config.exclude, k_default_exclude);
}

TEST(Env, InvalidValuesThatAreIgnored) {
    EXPECT_EQ(error_of("IRF_FAST_INTERCEPT", "fast"),
              "[irf] IRF_FAST_INTERCEPT=fast: expected 1 or 0; ignored, using default");
    EXPECT_FALSE(parse("IRF_FAST_INTERCEPT", "fast").config.fast_intercept);
    EXPECT_EQ(error_of("IRF_OUTPUT", "out-%x"),
              "[irf] IRF_OUTPUT=out-%x: unknown placeholder %x; ignored, using default");
    EXPECT_EQ(error_of("IRF_SUMMARY", "yes"),
              "[irf] IRF_SUMMARY=yes: expected stderr, file, both or none; ignored, using default");
    EXPECT_EQ(
        error_of("IRF_LAUNCH_SKIP", "-1"),
        "[irf] IRF_LAUNCH_SKIP=-1: must be a whole number, 0 or more; ignored, using default");
    EXPECT_EQ(error_of("IRF_SAMPLES", "1001"),
              "[irf] IRF_SAMPLES=1001: must be a whole number between 0 and 1000; ignored, using "
              "default");
    EXPECT_EQ(error_of("IRF_CEILINGS", "/nonexistent/c.yaml"),
              "[irf] IRF_CEILINGS=/nonexistent/c.yaml: file not readable; ignored, using default");
    EXPECT_EQ(error_of("IRF_TARGETS", "a,,b"),
              "[irf] IRF_TARGETS=a,,b: empty item in the comma list; ignored, using default");
    EXPECT_EQ(error_of("IRF_TARGETS", "a,"),
              "[irf] IRF_TARGETS=a,: empty item in the comma list; ignored, using default");
    EXPECT_EQ(error_of("IRF_GPUS_DIR", "/nonexistent-irf-dir"),
              "[irf] IRF_GPUS_DIR=/nonexistent-irf-dir: '/nonexistent-irf-dir' is not a "
              "directory; ignored, using default");
    EXPECT_EQ(error_of("IRF_GPUS_DIR", "/tmp::/tmp"),
              "[irf] IRF_GPUS_DIR=/tmp::/tmp: '' is not a directory; ignored, using default");
    EXPECT_EQ(error_of("IRF_CALLSTACK", "65"),
              "[irf] IRF_CALLSTACK=65: must be a whole number between 0 and 64; ignored, using "
              "default");
    EXPECT_EQ(error_of("IRF_LOG", "loud"),
              "[irf] IRF_LOG=loud: expected error, warn, info or debug; ignored, using default");
    const ParseResult r = parse("IRF_SAMPLES", "2x");
    EXPECT_FALSE(r.disabled_by_error);
    EXPECT_EQ(r.config.samples, 1);
}

// The documented limits (docs/configuration.md): IRF_SAMPLES 0 to 1000 and IRF_CALLSTACK 0 to 64
// are accepted at both ends; one past the top is refused (InvalidValuesThatAreIgnored gives the
// messages).
TEST(Env, DocumentedLimitsAreAcceptedAndOnePastRefused) {
    for (const auto& [name, top] :
         std::map<std::string, int>{{"IRF_SAMPLES", 1000}, {"IRF_CALLSTACK", 64}}) {
        for (const int value : {0, top}) {
            const ParseResult r = parse(name, std::to_string(value));
            EXPECT_TRUE(r.errors.empty()) << name << "=" << value << ": " << r.errors.at(0);
            const Config& c = r.config;
            EXPECT_EQ(name == "IRF_SAMPLES" ? c.samples : c.callstack, value) << name;
        }
        const ParseResult past = parse(name, std::to_string(top + 1));
        EXPECT_EQ(past.errors.size(), 1u) << name;
        EXPECT_EQ(name == "IRF_SAMPLES" ? past.config.samples : past.config.callstack,
                  name == "IRF_SAMPLES" ? 1 : 8)
            << name << ": the default stays";
    }
}

TEST(Env, InvalidValuesThatDisable) {
    for (const auto& [name, value] : std::map<std::string, std::string>{{"IRF_KERNELS", "(gemm"},
                                                                        {"IRF_EXCLUDE", "[nccl"},
                                                                        {"IRF_LAUNCH_COUNT", "ten"},
                                                                        {"IRF_DISABLE", "maybe"},
                                                                        {"IRF_BACKEND", "fake:"}}) {
        const ParseResult r = parse(name, value);
        EXPECT_TRUE(r.disabled_by_error) << name;
        ASSERT_EQ(r.errors.size(), 1u) << name;
        EXPECT_EQ(r.errors[0].rfind("[irf] " + name + "=" + value + ": ", 0), 0u) << r.errors[0];
        EXPECT_NE(r.errors[0].find("; irf disabled"), std::string::npos) << r.errors[0];
    }
    EXPECT_NE(error_of("IRF_KERNELS", "(gemm").find("invalid RE2 regex (missing ): (gemm)"),
              std::string::npos);
}

TEST(Env, EachInvalidValueIsItsOwnLine) {
    const ParseResult r =
        parse_env(env_of({{"IRF_SAMPLES", "x"}, {"IRF_LOG", "y"}, {"IRF_CALLSTACK", "z"}}));
    EXPECT_EQ(r.errors.size(), 3u);
}

TEST(Env, EffectiveSettingsNameEveryVariable) {
    const Config c =
        parse_env(env_of({{"IRF_LAUNCH_COUNT", "3"}, {"IRF_BACKEND", "fake:s.json"}})).config;
    const std::map<std::string, std::string> e = c.effective();
    EXPECT_EQ(e.size(), option_table().size());
    EXPECT_EQ(e.at("IRF_LAUNCH_COUNT"), "3");
    EXPECT_EQ(e.at("IRF_BACKEND"), "fake:s.json");
    EXPECT_EQ(e.at("IRF_CEILINGS"), "auto");
    EXPECT_EQ(e.at("IRF_SUMMARY"), "both");
    EXPECT_EQ(Config{}.effective().at("IRF_LAUNCH_COUNT"), "unlimited");
}

// fuzz_env's seed: libstdc++ accumulated repetition counts in a long without an overflow check.
// RE2 caps a repetition at 1000 and has no back-references.
TEST(Env, HugeRegexNumbersAreRefused) {
    EXPECT_EQ(error_of("IRF_KERNELS", "a{99999}"),
              "[irf] IRF_KERNELS=a{99999}: invalid RE2 regex (invalid repetition size: {99999}); "
              "irf disabled");
    EXPECT_EQ(parse("IRF_EXCLUDE", "(x)\\1").errors.size(), 1u);
    EXPECT_EQ(parse("IRF_EXCLUDE", "((a{100}){100}){100}").errors.size(), 1u);
    EXPECT_EQ(parse("IRF_EXCLUDE", "a{2,12345}").errors.size(), 1u);
    EXPECT_TRUE(parse("IRF_KERNELS", "gemm_[0-9]{1,4}_v1234567").errors.empty());
    EXPECT_TRUE(parse("IRF_KERNELS", "\\{123456").errors.empty());
}

// The fuzz seed itself: its third line is IRF_KERNELS (option-table order), with invalid UTF-8.
TEST(Env, FuzzSeedRegexIsOneLine) {
    const std::string seed =
        irf::test::read_file(irf::test::data_path("fuzz/fuzz_env/regress-regex-backref-overflow"));
    std::string kernels = seed.substr(seed.find('\n', seed.find('\n') + 1) + 1);
    kernels = kernels.substr(0, kernels.find('\n'));
    ASSERT_NE(kernels.find("\\1111"), std::string::npos) << kernels;
    EXPECT_LE(parse("IRF_KERNELS", kernels).errors.size(), 1u);
}

TEST(Env, MetricGroups) {
    EXPECT_FALSE(parse("IRF_METRICS", "default").config.metrics_pipe_mix);
    const Config mix = parse("IRF_METRICS", "pipe_mix").config;
    EXPECT_TRUE(mix.metrics_pipe_mix);
    EXPECT_FALSE(mix.metrics_tensor_types);
    EXPECT_EQ(mix.effective().at("IRF_METRICS"), "pipe_mix");
    const Config both = parse("IRF_METRICS", "tensor_types,pipe_mix").config;
    EXPECT_TRUE(both.metrics_pipe_mix && both.metrics_tensor_types);
    EXPECT_EQ(both.effective().at("IRF_METRICS"), "all");
    EXPECT_EQ(error_of("IRF_METRICS", "pipe_mix,bogus"),
              "[irf] IRF_METRICS=pipe_mix,bogus: expected default, all, or a comma list of "
              "pipe_mix, tensor_types; ignored, using default");
    EXPECT_FALSE(parse("IRF_METRICS", "pipe_mix,bogus").config.metrics_pipe_mix);
}

TEST(Env, TensorTypesSecondSample) {
    EXPECT_TRUE(Config{}.tensor_types_auto);
    EXPECT_EQ(Config{}.effective().at("IRF_TENSOR_TYPES"), "auto");
    const Config off = parse("IRF_TENSOR_TYPES", "off").config;
    EXPECT_FALSE(off.tensor_types_auto);
    EXPECT_EQ(off.effective().at("IRF_TENSOR_TYPES"), "off");
    EXPECT_EQ(error_of("IRF_TENSOR_TYPES", "on"),
              "[irf] IRF_TENSOR_TYPES=on: expected auto or off; ignored, using default");
    EXPECT_TRUE(parse("IRF_TENSOR_TYPES", "on").config.tensor_types_auto);
}

// `irf run --ceilings h100-sxm5` sets IRF_CEILINGS to a shipped name: it was refused as "file
// not readable", so the ceilings of the detected GPU were used instead of the ones asked for.
TEST(Env, CeilingsTakeAShippedName) {
    const ParseResult r = parse("IRF_CEILINGS", "h100-sxm5");
    EXPECT_TRUE(r.errors.empty());
    EXPECT_EQ(r.config.ceilings, "h100-sxm5");
    EXPECT_EQ(r.config.effective().at("IRF_CEILINGS"), "h100-sxm5");
    EXPECT_EQ(parse("IRF_CEILINGS", "gpus/h100.yaml").errors.size(), 1u); // a path: a file
    EXPECT_EQ(parse("IRF_CEILINGS", "h100 (sxm)").errors.size(), 1u);     // no shipped key
}

TEST(Env, CaptureRange) {
    EXPECT_FALSE(Config{}.capture_profiler_api);
    EXPECT_EQ(Config{}.effective().at("IRF_CAPTURE_RANGE"), "none");
    const Config api = parse("IRF_CAPTURE_RANGE", "cudaProfilerApi").config;
    EXPECT_TRUE(api.capture_profiler_api);
    EXPECT_EQ(api.effective().at("IRF_CAPTURE_RANGE"), "cudaProfilerApi");
    EXPECT_FALSE(parse("IRF_CAPTURE_RANGE", "none").config.capture_profiler_api);
    // Profiling everything when the user asked for a range could deadlock or slow a job the
    // range was meant to protect: a bad value disables irf.
    EXPECT_EQ(error_of("IRF_CAPTURE_RANGE", "nvtx"),
              "[irf] IRF_CAPTURE_RANGE=nvtx: expected none or cudaProfilerApi; irf disabled");
    EXPECT_TRUE(parse("IRF_CAPTURE_RANGE", "nvtx").disabled_by_error);
}

TEST(Env, ReplayTakesAutoKernelOrLaunches) {
    EXPECT_EQ(Config{}.replay, ReplayMode::kernel);
    EXPECT_EQ(Config{}.effective().at("IRF_REPLAY"), "kernel");
    EXPECT_EQ(parse("IRF_REPLAY", "kernel").config.replay, ReplayMode::kernel);
    EXPECT_EQ(parse("IRF_REPLAY", "launches").config.effective().at("IRF_REPLAY"), "launches");
    EXPECT_EQ(parse("IRF_REPLAY", "auto").config.replay, ReplayMode::automatic);
    // An unknown mode is ignored with the one-line error: sampling by the default is safe.
    EXPECT_EQ(error_of("IRF_REPLAY", "user"),
              "[irf] IRF_REPLAY=user: expected auto, kernel or launches; ignored, using default");
    EXPECT_EQ(parse("IRF_REPLAY", "Kernel").config.replay, ReplayMode::kernel);
    EXPECT_FALSE(parse("IRF_REPLAY", "user").disabled_by_error);
}

TEST(Env, TimingTakesAllSampledOrSampledWithItsNumbers) {
    EXPECT_EQ(Config{}.timing, TimingMode::all);
    EXPECT_EQ(Config{}.effective().at("IRF_TIMING"), "all");
    const Config sampled = parse("IRF_TIMING", "sampled").config;
    EXPECT_EQ(sampled.timing, TimingMode::sampled);
    EXPECT_EQ(sampled.effective().at("IRF_TIMING"), "sampled:100:100");
    const Config numbers = parse("IRF_TIMING", "sampled:5:7").config;
    EXPECT_EQ(numbers.timing, TimingMode::sampled);
    EXPECT_EQ(numbers.timing_first, 5u);
    EXPECT_EQ(numbers.timing_every, 7u);
    EXPECT_EQ(parse("IRF_TIMING", "sampled:0:1").config.effective().at("IRF_TIMING"),
              "sampled:0:1");
    EXPECT_EQ(parse("IRF_TIMING", "all").config.timing, TimingMode::all);
}

TEST(Env, GraphTimingTakesNodesGraphsOrGraphsWithItsReplays) {
    EXPECT_EQ(Config{}.effective().at("IRF_GRAPH_TIMING"), "nodes");
    const Config graphs = parse("IRF_GRAPH_TIMING", "graphs").config;
    EXPECT_EQ(graphs.graph_timing, GraphTiming::graphs);
    EXPECT_EQ(graphs.effective().at("IRF_GRAPH_TIMING"), "graphs:3");
    const Config five = parse("IRF_GRAPH_TIMING", "graphs:5").config;
    EXPECT_EQ(five.graph_node_replays, 5u);
    EXPECT_EQ(error_of("IRF_GRAPH_TIMING", "graphs:0"),
              "[irf] IRF_GRAPH_TIMING=graphs:0: N must be a whole number between 1 and 1000000; "
              "ignored, using default");
    EXPECT_EQ(error_of("IRF_GRAPH_TIMING", "graph"),
              "[irf] IRF_GRAPH_TIMING=graph: expected nodes, graphs or graphs:N (N replays of "
              "each graph timed by node); ignored, using default");
    EXPECT_EQ(parse("IRF_GRAPH_TIMING", "graphs:x").config.graph_timing, GraphTiming::nodes);
}

TEST(Env, BadTimingIsOneLineAndKeepsEveryLaunchTimed) {
    EXPECT_EQ(error_of("IRF_TIMING", "some"),
              "[irf] IRF_TIMING=some: expected all, sampled or sampled:K:N (K launches timed "
              "first, then 1 in N); ignored, using default");
    EXPECT_EQ(error_of("IRF_TIMING", "sampled:10"),
              "[irf] IRF_TIMING=sampled:10: expected all, sampled or sampled:K:N (K launches "
              "timed first, then 1 in N); ignored, using default");
    EXPECT_EQ(error_of("IRF_TIMING", "sampled:10:0"),
              "[irf] IRF_TIMING=sampled:10:0: N must be a whole number between 1 and 1000000; "
              "ignored, using default");
    EXPECT_EQ(error_of("IRF_TIMING", "sampled:x:5"),
              "[irf] IRF_TIMING=sampled:x:5: K must be a whole number between 0 and "
              "1000000000; ignored, using default");
    EXPECT_EQ(error_of("IRF_TIMING", "sampled:-1:5"),
              "[irf] IRF_TIMING=sampled:-1:5: K must be a whole number between 0 and "
              "1000000000; ignored, using default");
    const ParseResult r = parse("IRF_TIMING", "sampled::5");
    EXPECT_EQ(r.config.timing, TimingMode::all);
    EXPECT_FALSE(r.disabled_by_error);
}

TEST(Env, TableCoversDesignVariablesOnce) {
    const std::vector<std::string> design = {
        "IRF_OUTPUT",       "IRF_SUMMARY",        "IRF_KERNELS",       "IRF_EXCLUDE",
        "IRF_NVTX_INCLUDE", "IRF_NVTX_EXCLUDE",   "IRF_CAPTURE_RANGE", "IRF_LAUNCH_SKIP",
        "IRF_LAUNCH_COUNT", "IRF_SAMPLES",        "IRF_REPLAY",        "IRF_TIMING",
        "IRF_GRAPH_TIMING", "IRF_FAST_INTERCEPT", "IRF_CEILINGS",      "IRF_TARGETS",
        "IRF_GPUS_DIR",     "IRF_CALLSTACK",      "IRF_LOG",           "IRF_DISABLE",
        "IRF_BACKEND",      "IRF_METRICS",        "IRF_TENSOR_TYPES"}; // IRF_TENSOR_TYPES: issue
    // 41; IRF_REPLAY, IRF_TIMING, IRF_GRAPH_TIMING, IRF_FAST_INTERCEPT: issue 55
    ASSERT_EQ(option_table().size(), design.size());
    for (std::size_t i = 0; i < design.size(); ++i) {
        EXPECT_EQ(option_table()[i].name, design[i]);
    }
}

TEST(Env, GpusDirSettingIsTheValidatedValue) {
    const auto lookup = [](const char* value) {
        return [value](const char* name) {
            return std::string(name) == "IRF_GPUS_DIR" ? value : nullptr;
        };
    };
    EXPECT_EQ(gpus_dir_setting(lookup("/tmp:/")), "/tmp:/");
    EXPECT_EQ(gpus_dir_setting(lookup("/tmp:/nonexistent-irf-dir")), "");
    EXPECT_EQ(gpus_dir_setting(lookup("")), "");
    EXPECT_EQ(gpus_dir_setting(lookup(nullptr)), "");
}

TEST(Env, DocsTableIsTheGeneratedOne) {
    const std::string docs =
        irf::test::read_file(std::string(IRF_SOURCE_DIR) + "/docs/configuration.md");
    EXPECT_NE(docs.find(options_markdown()), std::string::npos)
        << "docs/configuration.md must contain exactly:\n"
        << options_markdown();
}

TEST(TextList, SplitKeepsEmptyParts) {
    using V = std::vector<std::string>;
    EXPECT_EQ(split("pipe_mix,tensor_types", ','), (V{"pipe_mix", "tensor_types"}));
    EXPECT_EQ(split("", ','), (V{""}));
    EXPECT_EQ(split("a,,b,", ','), (V{"a", "", "b", ""}));
    EXPECT_EQ(split("/x:/y", ':'), (V{"/x", "/y"}));
}

TEST(TextList, JoinIsTheInverseOfSplit) {
    for (const std::string text : {"pipe_mix,tensor_types", "", "a,,b,", ",b"}) {
        EXPECT_EQ(join(split(text, ','), ","), text);
    }
    EXPECT_EQ(join({}, ", "), "");
    EXPECT_EQ(join({"h100-sxm5", "l40s"}, ", "), "h100-sxm5, l40s");
}

} // namespace
} // namespace test_env
} // namespace irf::config

// SPDX-License-Identifier: Apache-2.0
// The fake backend's script parser: good scripts and one-line errors naming the key.
#include <gtest/gtest.h>

#include "intercept/fake/fake_script.hpp"

namespace irf::intercept::fake {
namespace test_fake_script {
namespace {

std::string error_of(const std::string& text) {
    try {
        (void)parse_script(text);
    } catch (const ScriptError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(FakeScript, FullLaunch) {
    const Script s = parse_script(R"({"gpu": {"name": "G", "cc": "9.0", "sms": 132},
        "passes": 4, "warnings": ["w"],
        "launches": [{"kernel": "_Z1kv", "function": 7, "grid": [2, 3, 4], "block": [32, 1, 1],
                      "smem": 128, "regs": 40, "device": 1, "thread": 2, "repeat": 5,
                      "duration_ns": [1, 2], "counters": {"inst_warp": 9}, "graph": true}]})");
    EXPECT_EQ(s.gpu.sms, 132);
    EXPECT_EQ(s.passes, 4);
    EXPECT_EQ(s.warnings, std::vector<std::string>{"w"});
    ASSERT_EQ(s.launches.size(), 1u);
    const ScriptLaunch& l = s.launches[0];
    EXPECT_EQ(l.function, 7u);
    EXPECT_EQ(l.launch.grid, (std::array<std::uint32_t, 3>{2, 3, 4}));
    EXPECT_EQ(l.launch.smem_bytes, 128u);
    EXPECT_EQ(l.launch.regs, 40u);
    EXPECT_EQ(l.device, 1u);
    EXPECT_EQ(l.thread, 2);
    EXPECT_EQ(l.repeat, 5u);
    EXPECT_EQ(l.duration_ns, (std::vector<double>{1, 2}));
    EXPECT_EQ(l.counters.at("inst_warp"), 9);
    EXPECT_TRUE(l.graph);
}

TEST(FakeScript, ProfilerStartAndStop) {
    const Script s = parse_script(R"({"launches": [
        {"kernel": "a", "duration_ns": 1, "profiler": "start"},
        {"kernel": "b", "duration_ns": 1, "profiler": "stop"},
        {"kernel": "c", "duration_ns": 1}]})");
    ASSERT_EQ(s.launches.size(), 3u);
    EXPECT_EQ(s.launches[0].profiler, "start");
    EXPECT_EQ(s.launches[1].profiler, "stop");
    EXPECT_EQ(s.launches[2].profiler, "");
    EXPECT_EQ(error_of(R"({"launches": [{"kernel": "k", "duration_ns": 1, "profiler": "on"}]})"),
              "launches[0].profiler: expected \"start\" or \"stop\"");
}

TEST(FakeScript, Errors) {
    EXPECT_EQ(error_of("{"), "not valid JSON (byte 2)");
    EXPECT_EQ(error_of("[]"), "(document): expected an object");
    EXPECT_EQ(error_of("{}"), "launches: expected an array");
    EXPECT_EQ(error_of(R"({"launches": [{"duration_ns": 1}]})"),
              "launches[0].kernel: expected a non-empty string");
    EXPECT_EQ(error_of(R"({"launches": [{"kernel": "k"}]})"), "launches[0].duration_ns: missing");
    EXPECT_EQ(error_of(R"({"launches": [{"kernel": "k", "duration_ns": -1}]})"),
              "launches[0].duration_ns: expected a non-negative number");
    EXPECT_EQ(error_of(R"({"launches": [{"kernel": "k", "duration_ns": 1, "grid": [1, 1]}]})"),
              "launches[0].grid: expected an array of 3 positive integers");
    EXPECT_EQ(error_of(R"({"launches": [{"kernel": "k", "duration_ns": 1, "gird": [1]}]})"),
              "launches[0].gird: unknown key");
    EXPECT_EQ(
        error_of(R"({"launches": [{"kernel": "k", "duration_ns": 1, "counters": {"x": "1"}}]})"),
        "launches[0].counters.x: expected a non-negative number");
    EXPECT_EQ(error_of(R"({"gpu": {"sms": -4}, "launches": []})"),
              "gpu.sms: expected a non-negative integer");
}

// A CUDA graph launch: its kernel nodes in order, each with its own launch and durations; the
// launch entry keeps the keys of the cuGraphLaunch (device, thread, repeat, nvtx).
TEST(FakeScript, GraphLaunchWithKernelNodes) {
    const Script s = parse_script(R"({"launches": [
        {"graph_nodes": [{"kernel": "_Z1av", "function": 3, "grid": [4, 1, 1],
                          "block": [128, 1, 1], "smem": 64, "regs": 32, "duration_ns": [100, 300]},
                         {"kernel": "_Z1bv", "duration_ns": 1000}],
         "graph_exec": 7, "repeat": 10, "device": 1, "thread": 2, "nvtx": ["step"]},
        {"graph_nodes": [{"kernel": "_Z1cv", "duration_ns": 5}]}]})");
    ASSERT_EQ(s.launches.size(), 2u);
    const ScriptLaunch& g = s.launches[0];
    ASSERT_EQ(g.graph_nodes.size(), 2u);
    EXPECT_EQ(g.graph_nodes[0].kernel, "_Z1av");
    EXPECT_EQ(g.graph_nodes[0].function, 3u);
    EXPECT_EQ(g.graph_nodes[0].launch.grid, (std::array<std::uint32_t, 3>{4, 1, 1}));
    EXPECT_EQ(g.graph_nodes[0].launch.block, (std::array<std::uint32_t, 3>{128, 1, 1}));
    EXPECT_EQ(g.graph_nodes[0].launch.smem_bytes, 64u);
    EXPECT_EQ(g.graph_nodes[0].launch.regs, 32u);
    EXPECT_EQ(g.graph_nodes[0].duration_ns, (std::vector<double>{100, 300}));
    EXPECT_EQ(g.graph_nodes[1].kernel, "_Z1bv");
    EXPECT_EQ(g.graph_nodes[1].function, 0u); // one handle per name, given at start
    EXPECT_EQ(g.graph_nodes[1].duration_ns, (std::vector<double>{1000}));
    EXPECT_EQ(g.graph_exec, 7u);
    EXPECT_EQ(g.repeat, 10u);
    EXPECT_EQ(g.device, 1u);
    EXPECT_EQ(g.thread, 2);
    EXPECT_EQ(g.nvtx, std::vector<std::string>{"step"});
    EXPECT_FALSE(g.graph);
    EXPECT_TRUE(g.kernel.empty());
    EXPECT_EQ(s.launches[1].graph_exec, 0u); // one exec per entry, given at start
    EXPECT_EQ(s.launches[1].repeat, 1u);
}

TEST(FakeScript, GraphLaunchErrorsNameTheKey) {
    const auto launch = [](const std::string& keys) {
        return error_of(R"({"launches": [{)" + keys + "}]}");
    };
    EXPECT_EQ(launch(R"("graph_nodes": [])"),
              "launches[0].graph_nodes: expected a non-empty array of kernel nodes");
    EXPECT_EQ(launch(R"("graph_nodes": {"kernel": "a"})"),
              "launches[0].graph_nodes: expected a non-empty array of kernel nodes");
    EXPECT_EQ(launch(R"("graph_nodes": [{"kernel": "a", "duration_ns": 1}, 4])"),
              "launches[0].graph_nodes[1]: expected an object");
    EXPECT_EQ(launch(R"("graph_nodes": [{"kernel": "a"}])"),
              "launches[0].graph_nodes[0].duration_ns: missing");
    EXPECT_EQ(launch(R"("graph_nodes": [{"duration_ns": 1}])"),
              "launches[0].graph_nodes[0].kernel: expected a non-empty string");
    EXPECT_EQ(launch(R"("graph_nodes": [{"kernel": "a", "duration_ns": 1, "grid": [0, 1, 1]}])"),
              "launches[0].graph_nodes[0].grid: expected an array of 3 positive integers");
    EXPECT_EQ(launch(R"("graph_nodes": [{"kernel": "a", "duration_ns": 1, "counters": {}}])"),
              "launches[0].graph_nodes[0].counters: unknown key");
    EXPECT_EQ(launch(R"("graph_nodes": [{"kernel": "a", "duration_ns": 1}], "graph_exec": -7)"),
              "launches[0].graph_exec: expected a non-negative integer");
    EXPECT_EQ(launch(R"("graph_nodes": [{"kernel": "a", "duration_ns": 1}], "kernel": "b")"),
              "launches[0].kernel: not with graph_nodes (each node names its kernel; nodes are "
              "timed only)");
    EXPECT_EQ(launch(R"("graph_nodes": [{"kernel": "a", "duration_ns": 1}], "graph": true)"),
              "launches[0].graph: not with graph_nodes (each node names its kernel; nodes are "
              "timed only)");
    EXPECT_EQ(launch(R"("kernel": "a", "duration_ns": 1, "graph_exec": 7)"),
              "launches[0].graph_exec: only with graph_nodes");
}

} // namespace
} // namespace test_fake_script
} // namespace irf::intercept::fake

// SPDX-License-Identifier: Apache-2.0
// CUDA graph replays through the fake backend into the real collector (IRF_GRAPH_TIMING, issue
// 55 item 4): replays traced by node until a graph's nodes are learned from delivered records,
// then timed whole, their nodes counted as untimed launches and estimated.
#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "intercept/fake/fake_backend.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::intercept {
namespace test_fake_graphs {
namespace {

/// A 2-node graph replayed 10 times: _Z1av 100, 300 ns in turn, _Z1bv 1000 ns.
constexpr const char* k_graph = R"({"graph_nodes": [
    {"kernel": "_Z1av", "grid": [4, 1, 1], "block": [128, 1, 1], "duration_ns": [100, 300]},
    {"kernel": "_Z1bv", "grid": [2, 1, 1], "block": [64, 1, 1], "duration_ns": 1000}],
    "graph_exec": 7, "repeat": 10})";

class FakeGraphs : public test::TempDirTest {
protected:
    /// Plays k_graph with IRF_GRAPH_TIMING=graphs:`node_replays` (0: nodes); `activity` is the
    /// script's activity object.
    model::Profile play(std::uint32_t node_replays, const std::string& activity) {
        test::write_file(m_tmp / "script.json", std::string(R"({"activity": )") + activity +
                                                    R"(, "launches": [)" + k_graph + "]}");
        config::Config c;
        c.callstack = 0;
        c.samples = 0;
        Collector collector{c};
        FakeOptions options;
        options.graph_node_replays = node_replays;
        std::unique_ptr<Backend> backend =
            make_fake_backend((m_tmp / "script.json").string(), options);
        EXPECT_TRUE(backend->start(collector));
        collector.stop_recording();
        backend->flush();
        backend->stop();
        model::Profile p;
        collector.fill_profile(p);
        return p;
    }
};

const model::KernelRecord& kernel(const model::Profile& p, const std::string& mangled) {
    for (const model::KernelRecord& k : p.kernels) {
        if (k.mangled == mangled) {
            return k;
        }
    }
    throw std::runtime_error("no kernel " + mangled);
}

// Records delivered as they complete (early_every 1): replays 1 and 2 are traced by node, and
// replay 2's two records confirm replay 1's two nodes, so replays 3-10 are timed whole. _Z1av:
// its first launch (100) is its first, its one warm timed launch 300 ns: 8 untimed at 300 =
// 2400, total 100 + 300 + 2400 = 2800 ns, error unknown (one warm launch). _Z1bv: 10 x 1000.
TEST_F(FakeGraphs, LaterReplaysAreTimedWholeAndTheirNodesEstimated) {
    const model::Profile p = play(2, R"({"early_every": 1})");
    ASSERT_EQ(p.kernels.size(), 2u);
    const model::KernelRecord& a = kernel(p, "_Z1av");
    EXPECT_EQ(a.launches, 10u);
    EXPECT_EQ(a.estimated_launches, 8u);
    EXPECT_DOUBLE_EQ(a.time_ns.total, 2800);
    EXPECT_FALSE(a.estimate_error_ns.has_value());
    EXPECT_EQ(a.launch.grid, (std::array<std::uint32_t, 3>{4, 1, 1}));
    const model::KernelRecord& b = kernel(p, "_Z1bv");
    EXPECT_EQ(b.launches, 10u);
    EXPECT_EQ(b.estimated_launches, 8u);
    EXPECT_DOUBLE_EQ(b.time_ns.total, 10000);
    EXPECT_EQ(b.launch.block, (std::array<std::uint32_t, 3>{64, 1, 1}));
    EXPECT_EQ(p.coverage.launches, 20u);
    EXPECT_EQ(p.coverage.lost_durations, 0u);
}

// With one replay by node there is nothing to confirm it against: replays 2-10 are timed whole,
// _Z1av's 9 at its first launch's 100 ns (no other timed launch), total 1000 ns.
TEST_F(FakeGraphs, OneReplayByNodeTeachesAtOnce) {
    const model::Profile p = play(1, R"({"early_every": 1})");
    const model::KernelRecord& a = kernel(p, "_Z1av");
    EXPECT_EQ(a.launches, 10u);
    EXPECT_EQ(a.estimated_launches, 9u);
    EXPECT_DOUBLE_EQ(a.time_ns.total, 1000);
}

// As with CUPTI's buffers: records held until exit teach nothing while the replays run, so
// every replay stays traced by node and every launch is timed.
TEST_F(FakeGraphs, RecordsDeliveredAtExitKeepEveryReplayTracedByNode) {
    const model::Profile p = play(2, "{}");
    const model::KernelRecord& a = kernel(p, "_Z1av");
    EXPECT_EQ(a.launches, 10u);
    EXPECT_EQ(a.estimated_launches, 0u);
    EXPECT_DOUBLE_EQ(a.time_ns.total, 5 * 100 + 5 * 300);
}

TEST_F(FakeGraphs, NodesTimesEveryReplay) {
    const model::Profile p = play(0, R"({"early_every": 1})");
    const model::KernelRecord& a = kernel(p, "_Z1av");
    EXPECT_EQ(a.launches, 10u);
    EXPECT_EQ(a.estimated_launches, 0u);
    EXPECT_DOUBLE_EQ(a.time_ns.total, 5 * 100 + 5 * 300);
    EXPECT_DOUBLE_EQ(kernel(p, "_Z1bv").time_ns.total, 10000);
}

// A dropped graph-level record loses its replay's nodes, as a lost CUPTI record would. With
// drop_every 5 the cuGraphLaunch ids 5 and 10 are dropped, and no node record (ids 2^32 + 0..3,
// 2^32 = 1 mod 5): 2 traced + 6 estimated launches of each kernel.
TEST_F(FakeGraphs, ADroppedGraphRecordLosesItsReplay) {
    const model::Profile p = play(2, R"({"early_every": 1, "drop_every": 5})");
    const model::KernelRecord& a = kernel(p, "_Z1av");
    EXPECT_EQ(a.launches, 8u);
    EXPECT_EQ(a.estimated_launches, 6u);
    EXPECT_DOUBLE_EQ(a.time_ns.total, 100 + 300 + 6 * 300);
}

} // namespace
} // namespace test_fake_graphs
} // namespace irf::intercept

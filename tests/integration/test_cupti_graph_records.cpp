// SPDX-License-Identifier: Apache-2.0
// IRF_GRAPH_TIMING=graphs in the CUPTI backend, through its seam and into a real collector
// (issue 55 item 4): the first replays of a graph traced by node, then graph-level records
// (CUPTI told so), their nodes counted at an estimate; a new graph or one changed in place goes
// back to nodes; a refused switch and replays with no known nodes are said once.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "intercept/collector.hpp"
#include "tests/integration/cupti_fake_platform.hpp"

namespace irf::intercept::cupti::test {
namespace test_cupti_graph_records {
namespace {

using namespace std::chrono_literals;

constexpr std::uint32_t k_traced_replays = 2;

config::Config timing_only() {
    config::Config c;
    c.samples = 0;
    c.callstack = 0;
    return c;
}

CuptiOptions graphs_by_replay() {
    CuptiOptions o;
    o.graph_node_replays = k_traced_replays;
    return o;
}

/// The CUPTI backend with IRF_GRAPH_TIMING=graphs:2 on the fake platform, into a collector.
struct GraphRig {
    FakeScript script;
    Collector collector{timing_only()};
    CuptiBackend backend{graphs_by_replay()};
    GraphRig() {
        backend.set_sampling_seam_for_test(
            quiet_seam({std::make_unique<FakePlatform>(script), 2000ms, 60s, k_timing_check}));
        backend.attach_sink_for_test(collector);
    }
    /// cuGraphLaunch of graph exec `exec` (ENTER and EXIT) with correlation id `id`.
    void launch(std::uintptr_t exec, std::uint32_t id) {
        irf::test::GraphLaunchParams params{reinterpret_cast<CUgraphExec>(exec), nullptr};
        std::uint64_t scratch = 0;
        CUpti_CallbackData data{};
        data.functionName = "cuGraphLaunch";
        data.functionParams = &params;
        data.correlationData = &scratch;
        data.correlationId = id;
        for (const CUpti_ApiCallbackSite site : {CUPTI_API_ENTER, CUPTI_API_EXIT}) {
            data.callbackSite = site;
            backend.on_callback(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
                                &data);
        }
    }
    /// Node records of launch `id`: kernel a (`a_ns`) and kernel b (`b_ns`).
    void nodes(std::uint32_t id, std::uint64_t a_ns, std::uint64_t b_ns) {
        for (const auto& [name, ns] : {std::pair{"_Z1av", a_ns}, std::pair{"_Z1bv", b_ns}}) {
            KernelActivity node;
            node.correlation_id = id;
            node.graph_id = 9;
            node.name = name;
            node.start_ns = 1000;
            node.end_ns = 1000 + ns;
            backend.on_kernel_record(node);
        }
    }
    /// The graph-level record of launch `id`.
    void whole(std::uint32_t id) {
        KernelActivity graph;
        graph.correlation_id = id;
        graph.graph_id = 9;
        graph.graph_level = true;
        graph.start_ns = 1000;
        graph.end_ns = 2000;
        backend.on_kernel_record(graph);
    }
    [[nodiscard]] long journal(const std::string& entry) const {
        return std::count(script.journal.begin(), script.journal.end(), entry);
    }
    [[nodiscard]] const model::KernelRecord& kernel(const model::Profile& p,
                                                    const std::string& name) const {
        const auto it = std::find_if(p.kernels.begin(), p.kernels.end(),
                                     [&name](const auto& k) { return k.mangled == name; });
        EXPECT_NE(it, p.kernels.end()) << name;
        return *it;
    }
};

TEST(CuptiGraphRecords, TracedReplaysTeachTheNodesLaterOnesAreEstimated) {
    GraphRig rig;
    rig.launch(0x70, 1);
    rig.nodes(1, 100, 300);
    rig.launch(0x70, 2);
    rig.nodes(2, 200, 500);
    EXPECT_EQ(rig.journal("graph trace on 0"), 0);
    rig.launch(0x70, 3); // past its two traced replays: graph-level records from here
    EXPECT_EQ(rig.journal("graph trace on 0"), 1);
    rig.whole(3);
    rig.launch(0x70, 4);
    rig.whole(4);
    EXPECT_EQ(rig.journal("graph trace on 0"), 1); // switched once
    model::Profile p;
    rig.collector.fill_profile(p);
    const model::KernelRecord& a = rig.kernel(p, "_Z1av");
    EXPECT_EQ(a.launches, 4u);
    EXPECT_EQ(a.estimated_launches, 2u);
    // a: 100 (first launch, cold) and 200 timed; the two untimed at the warm mean 200.
    EXPECT_DOUBLE_EQ(a.time_ns.total, 100 + 200 + 2 * 200);
    const model::KernelRecord& b = rig.kernel(p, "_Z1bv");
    EXPECT_EQ(b.estimated_launches, 2u);
    EXPECT_DOUBLE_EQ(b.time_ns.total, 300 + 500 + 2 * 500);
}

TEST(CuptiGraphRecords, ANewGraphOrOneChangedInPlaceIsTracedByNodeAgain) {
    GraphRig rig;
    rig.launch(0x70, 1);
    rig.nodes(1, 100, 300);
    rig.launch(0x70, 2);
    rig.nodes(2, 100, 300);
    rig.launch(0x70, 3);
    EXPECT_EQ(rig.journal("graph trace on 0"), 1);
    rig.launch(0x71, 4); // another graph's first replay: nodes again
    EXPECT_EQ(rig.journal("graph trace off 0"), 1);
    // cuGraphExecUpdate on the first graph: what it runs may have changed.
    irf::test::GraphLaunchParams update{reinterpret_cast<CUgraphExec>(0x70), nullptr};
    FakeCall call(CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2, 5);
    call.data.functionParams = &update;
    call.run(rig.backend);
    rig.launch(0x70, 6); // learned anew: by node, and no switch to graph-level records
    EXPECT_EQ(rig.journal("graph trace on 0"), 1);
}

TEST(CuptiGraphRecords, ARefusedSwitchSaysSoOnceAndStaysByNode) {
    GraphRig rig;
    rig.script.refuse_graph_trace = true;
    for (std::uint32_t id = 1; id <= 4; ++id) {
        rig.launch(0x70, id);
        rig.nodes(id, 100, 300);
    }
    model::Profile p;
    rig.collector.fill_profile(p);
    EXPECT_EQ(rig.kernel(p, "_Z1av").launches, 4u);
    EXPECT_EQ(rig.kernel(p, "_Z1av").estimated_launches, 0u);
    const auto& warnings = p.warnings;
    EXPECT_EQ(std::count_if(warnings.begin(), warnings.end(),
                            [](const std::string& w) {
                                return w.find("IRF_GRAPH_TIMING=graphs: CUPTI_ERROR_NOT_SUPPORTED; "
                                              "graphs are timed node by node") != std::string::npos;
                            }),
              1);
}

TEST(CuptiGraphRecords, AReplayTimedWholeWithNoNodesKnownIsSaid) {
    GraphRig rig;
    rig.whole(77); // a graph-level record of a launch never seen
    rig.backend.flush();
    model::Profile p;
    rig.collector.fill_profile(p);
    EXPECT_TRUE(p.kernels.empty());
    EXPECT_TRUE(std::any_of(p.warnings.begin(), p.warnings.end(), [](const std::string& w) {
        return w.find("1 CUDA graph replays were timed as a whole before any of their nodes "
                      "were known") != std::string::npos;
    }));
}

} // namespace
} // namespace test_cupti_graph_records
} // namespace irf::intercept::cupti::test

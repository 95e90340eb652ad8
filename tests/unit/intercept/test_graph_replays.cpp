// SPDX-License-Identifier: Apache-2.0
// IRF_GRAPH_TIMING=graphs:N (intercept/graph_replays.hpp): the first N replays of each graph
// traced by node, later ones timed whole once the first replay's nodes have all come (issue 55
// item 4).
#include <gtest/gtest.h>

#include "intercept/graph_replays.hpp"

namespace irf::intercept {
namespace test_graph_replays {
namespace {

GraphNode node_named(const char* name) {
    GraphNode n;
    n.name = name;
    return n;
}

/// Records of replay `id`: nodes a and b.
void two_node_records(GraphReplays& g, std::uint64_t id) {
    g.on_node(id, node_named("a"));
    g.on_node(id, node_named("b"));
}

TEST(GraphReplays, TheFirstReplaysAreTracedThenTheGraphWhole) {
    GraphReplays g(2);
    EXPECT_TRUE(g.on_launch(0x70, 1));
    two_node_records(g, 1);
    EXPECT_TRUE(g.on_launch(0x70, 2));
    two_node_records(g, 2); // as many nodes as the first: its records have all come
    EXPECT_FALSE(g.on_launch(0x70, 3));
    const std::vector<GraphNode> nodes = g.nodes_of(3);
    ASSERT_EQ(nodes.size(), 2u);
    EXPECT_EQ(nodes[0].name, "a");
    EXPECT_EQ(nodes[1].name, "b");
}

TEST(GraphReplays, AGraphWhoseRecordsHaveNotComeStaysTracedByNode) {
    GraphReplays g(2);
    EXPECT_TRUE(g.on_launch(0x70, 1));
    EXPECT_TRUE(g.on_launch(0x70, 2));
    EXPECT_TRUE(g.on_launch(0x70, 3)); // no record yet (CUPTI's buffers): nothing learned
    g.on_node(1, node_named("a"));     // the first replay's records, half of them
    g.on_node(2, node_named("a"));
    g.on_node(2, node_named("b")); // the second has more: the first's are not all in
    EXPECT_TRUE(g.on_launch(0x70, 4));
    EXPECT_TRUE(g.nodes_of(4).empty());
    g.on_node(1, node_named("b"));
    EXPECT_FALSE(g.on_launch(0x70, 5));
    EXPECT_EQ(g.nodes_of(5).size(), 2u);
}

TEST(GraphReplays, EachGraphCountsItsOwnReplays) {
    GraphReplays g(1);
    EXPECT_TRUE(g.on_launch(0x70, 1));
    g.on_node(1, node_named("a"));
    EXPECT_TRUE(g.on_launch(0x71, 2)); // another graph's first replay
    EXPECT_FALSE(g.on_launch(0x70, 3));
    EXPECT_EQ(g.nodes_of(3).size(), 1u);
    EXPECT_TRUE(g.nodes_of(2).empty()); // traced: its records stand for themselves
    EXPECT_EQ(g.graphs(), 2u);
}

TEST(GraphReplays, AGraphChangedInPlaceIsLearnedAgain) {
    GraphReplays g(1);
    EXPECT_TRUE(g.on_launch(0x70, 1));
    g.on_node(1, node_named("a"));
    EXPECT_FALSE(g.on_launch(0x70, 2));
    g.forget(0x70); // cuGraphExecUpdate: its nodes may differ now
    EXPECT_TRUE(g.nodes_of(2).empty());
    EXPECT_TRUE(g.on_launch(0x70, 3));
    g.on_node(3, node_named("c"));
    EXPECT_FALSE(g.on_launch(0x70, 4));
    ASSERT_EQ(g.nodes_of(4).size(), 1u);
    EXPECT_EQ(g.nodes_of(4)[0].name, "c");
}

TEST(GraphReplays, AnUnknownLaunchHasNoNodes) {
    GraphReplays g(3);
    EXPECT_TRUE(g.nodes_of(42).empty());
    g.on_node(42, node_named("a")); // a record of a launch never seen: ignored
    EXPECT_EQ(g.graphs(), 0u);
}

} // namespace
} // namespace test_graph_replays
} // namespace irf::intercept

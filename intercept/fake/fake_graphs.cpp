// SPDX-License-Identifier: Apache-2.0
// Graph replays in the fake backend (intercept/fake/fake_graphs.hpp).
#include "intercept/fake/fake_graphs.hpp"

namespace irf::intercept::fake {

DurationRecord stamp(std::atomic<std::uint64_t>& clock, std::uint64_t correlation_id,
                     double ns) noexcept {
    const auto length = static_cast<std::uint64_t>(ns);
    const std::uint64_t start = clock.fetch_add(length + 1000);
    return {correlation_id, start, start + length};
}

FakeGraphs::FakeGraphs(std::uint32_t node_replays, std::atomic<std::uint64_t>& next_graph_id,
                       std::atomic<std::uint64_t>& clock)
    : m_replays(node_replays > 0 ? std::make_unique<GraphReplays>(node_replays) : nullptr),
      m_next_graph_id(next_graph_id), m_clock(clock) {}

std::vector<ActivityRecord> FakeGraphs::replay(const ScriptLaunch& l, std::uint64_t index,
                                               const LaunchEvent& launch) noexcept {
    std::vector<ActivityRecord> records;
    try {
        if (l.graph) {
            const double ns = l.duration_ns[index % l.duration_ns.size()];
            records.push_back({stamp(m_clock, launch.correlation_id, ns), launch});
            return records;
        }
        ActivityRecord r;
        r.event.device = l.device;
        r.event.region = launch.region;
        r.event.region_given = true;
        r.graph_launch = m_replays ? launch.correlation_id : 0;
        // Chosen at cuGraphLaunch, as the CUPTI backend switches CUPTI's graph trace there.
        if (m_replays && !m_replays->on_launch(l.graph_exec, launch.correlation_id)) {
            r.graph_level = true;
            r.duration.correlation_id = launch.correlation_id; // its duration is not used
            records.push_back(r);
            return records;
        }
        for (const ScriptNode& node : l.graph_nodes) {
            r.event.function =
                reinterpret_cast<const void*>(static_cast<std::uintptr_t>(node.function));
            r.event.mangled = node.kernel.c_str();
            r.event.launch = node.launch;
            r.event.graph = true;
            // A node's id is the backend's own, from 2^32 up (docs/cupti-notes.md, step 5).
            r.event.correlation_id = m_next_graph_id.fetch_add(1);
            const double ns = node.duration_ns[index % node.duration_ns.size()];
            r.duration = stamp(m_clock, r.event.correlation_id, ns);
            records.push_back(r);
        }
    } catch (...) {
    }
    return records;
}

void FakeGraphs::deliver(const ActivityRecord& r, LaunchSink& sink) noexcept {
    if (r.graph_level) {
        deliver_graph_level(r, sink);
        return;
    }
    if (r.event.graph) {
        if (m_replays && r.graph_launch != 0) {
            try {
                GraphNode node;
                node.function = r.event.function;
                node.name = r.event.mangled;
                node.launch = r.event.launch;
                node.device = r.event.device;
                m_replays->on_node(r.graph_launch, node);
            } catch (...) { // out of memory: not learned, so the graph stays traced by node
            }
        }
        static_cast<void>(sink.on_launch(r.event));
    }
    sink.on_duration(r.duration);
}

void FakeGraphs::deliver_graph_level(const ActivityRecord& r, LaunchSink& sink) noexcept {
    std::vector<GraphNode> nodes;
    try {
        nodes = m_replays->nodes_of(r.graph_launch);
    } catch (...) {
    }
    // Never empty here: a replay is timed whole only once its graph's nodes are learned, and
    // the fake never forgets a graph (the CUPTI backend counts such replays and says so).
    for (const GraphNode& node : nodes) {
        const LaunchEvent event =
            untimed_node_event(node, m_next_graph_id.fetch_add(1), r.event.region);
        static_cast<void>(sink.on_launch(event));
    }
}

} // namespace irf::intercept::fake

// SPDX-License-Identifier: Apache-2.0
// CUDA graph replays in the fake backend, under IRF_GRAPH_TIMING as the CUPTI backend plays them
// (intercept/cupti/graph_records.cpp): a replay traced by node gives one record per kernel node,
// which teaches GraphReplays when delivered; one timed whole gives a graph-level record, whose
// learned nodes reach the sink as untimed launches (docs/configuration.md, "Fake backend").
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "intercept/backend.hpp"
#include "intercept/fake/fake_script.hpp"
#include "intercept/graph_replays.hpp"

namespace irf::intercept::fake {

/// An activity record as CUPTI delivers it: a duration; for a graph node (event.graph) also its
/// launch, which CUPTI reports only from the record (no launch callback runs for a node).
struct ActivityRecord {
    DurationRecord duration;
    LaunchEvent event; ///< the node's launch, when event.graph
    /// The cuGraphLaunch's correlation id, for a node record or graph-level record of a graph
    /// followed by GraphReplays; 0 otherwise.
    std::uint64_t graph_launch = 0;
    /// One record for a whole replay (CUPTI's graph trace): no node records, no duration used.
    bool graph_level = false;
};

/// A record of `ns` on the fake clock, starting 1 us after the previous one ends.
[[nodiscard]] DurationRecord stamp(std::atomic<std::uint64_t>& clock, std::uint64_t correlation_id,
                                   double ns) noexcept;

/// Graph replays and their records, shared by the backend's players and delivery.
class FakeGraphs {
public:
    /// `node_replays`: IRF_GRAPH_TIMING=graphs:N's N (0: nodes, every replay traced by node);
    /// node ids come from `next_graph_id`, durations from `clock` (the backend's).
    FakeGraphs(std::uint32_t node_replays, std::atomic<std::uint64_t>& next_graph_id,
               std::atomic<std::uint64_t>& clock);

    /// Replay `index` of graph launch `l`: for `"graph": true`, the record of its one node
    /// (`launch`); for `graph_nodes`, cuGraphLaunch `launch` (its correlation id and NVTX
    /// path) gives its node records in node order, or one graph-level record. Out of memory:
    /// the records made so far (the rest are lost, as dropped records).
    [[nodiscard]] std::vector<ActivityRecord> replay(const ScriptLaunch& l, std::uint64_t index,
                                                     const LaunchEvent& launch) noexcept;
    /// One record to `sink` as the CUPTI backend's on_kernel_record hands it over.
    void deliver(const ActivityRecord& r, LaunchSink& sink) noexcept;

private:
    /// The untimed launches a graph-level record stands for.
    void deliver_graph_level(const ActivityRecord& r, LaunchSink& sink) noexcept;

    std::unique_ptr<GraphReplays> m_replays; ///< null: IRF_GRAPH_TIMING=nodes
    std::atomic<std::uint64_t>& m_next_graph_id;
    std::atomic<std::uint64_t>& m_clock;
};

} // namespace irf::intercept::fake

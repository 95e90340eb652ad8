// SPDX-License-Identifier: Apache-2.0
// CUDA graph replays timed node by node, then by graph (IRF_GRAPH_TIMING=graphs:N): which
// replays trace their nodes, and which nodes a graph-level record stands for (plain C++; both
// backends use it; docs/configuration.md, "Graph timing"; issue 55 item 4).
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "intercept/backend.hpp"
#include "model/profile/profile.hpp"

namespace irf::intercept {

/// A kernel node of a graph as its node record described it (the name copied: a record's
/// strings live only as long as its buffer).
struct GraphNode {
    const void* function = nullptr; ///< the records' kernel handle (the collector's cache key)
    std::string name;
    model::LaunchConfig launch;
    std::uint32_t device = 0;
    std::uint64_t context = 0;
    std::uint64_t stream = 0;
};

/// The launch a node of a replay timed whole stands for: no record comes for it (untimed), with
/// a backend's own `correlation_id` and the NVTX `region` of its cuGraphLaunch.
[[nodiscard]] LaunchEvent untimed_node_event(const GraphNode& node, std::uint64_t correlation_id,
                                             std::uint32_t region);

/// Per graph exec: how often it was launched, and its nodes as its first replay's node records
/// gave them. Thread-safe; bounded (graphs past the bound are traced node by node, as
/// IRF_GRAPH_TIMING=nodes would).
class GraphReplays {
public:
    /// Each graph exec's first `node_replays` (>= 1) replays are traced node by node.
    explicit GraphReplays(std::uint32_t node_replays) : m_node_replays(node_replays) {}

    /// A launch of graph exec `exec` with `correlation_id`: true when its nodes are traced.
    bool on_launch(std::uint64_t exec, std::uint64_t correlation_id) noexcept;
    /// A node record of launch `correlation_id`: kept when that launch was its graph's first.
    void on_node(std::uint64_t correlation_id, const GraphNode& node) noexcept;
    /// The nodes a graph-level record of launch `correlation_id` stands for; empty: unknown.
    [[nodiscard]] std::vector<GraphNode> nodes_of(std::uint64_t correlation_id) const;
    /// `exec` changed in place (cuGraphExecUpdate, a node's parameters) or was destroyed: its
    /// next launches are traced by node again and teach its nodes anew.
    void forget(std::uint64_t exec) noexcept;

    /// Graph execs followed now.
    [[nodiscard]] std::size_t graphs() const;

private:
    struct Exec {
        std::uint64_t launches = 0;
        std::uint64_t teacher = 0; ///< correlation id of the replay whose nodes are kept
        std::vector<GraphNode> nodes;
        /// Node records counted of the other node-traced replays, by correlation id: one with
        /// as many as the teacher says the teacher's records have all come.
        std::vector<std::pair<std::uint64_t, std::size_t>> others;
    };
    /// True when `e`'s nodes may stand for a replay.
    [[nodiscard]] bool learned(const Exec& e) const noexcept;
    /// The exec of a launch (m_mutex held); null when forgotten or never seen.
    const Exec* exec_of_locked(std::uint64_t correlation_id, std::uint64_t* exec = nullptr) const;

    std::uint32_t m_node_replays;
    mutable std::mutex m_mutex;
    std::unordered_map<std::uint64_t, Exec> m_execs;
    std::unordered_map<std::uint64_t, std::uint64_t> m_launch_exec; ///< correlation id -> exec
    std::deque<std::uint64_t> m_launch_order; ///< m_launch_exec's keys, oldest first
};

} // namespace irf::intercept

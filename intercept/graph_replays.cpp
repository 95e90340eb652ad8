// SPDX-License-Identifier: Apache-2.0
// Graph replays timed node by node, then by graph (intercept/graph_replays.hpp).
#include "intercept/graph_replays.hpp"

namespace irf::intercept {
namespace {

/// Graph execs followed at once: a process that instantiates more keeps tracing the rest by node.
constexpr std::size_t k_max_graphs = 4096;
/// Nodes kept per graph: a bigger graph stays traced by node (its list may be cut).
constexpr std::size_t k_max_nodes = 65536;
/// Graph launches remembered (their graph-level records come later, from the activity thread).
constexpr std::size_t k_max_launches = std::size_t{1} << 16;

} // namespace

LaunchEvent untimed_node_event(const GraphNode& node, std::uint64_t correlation_id,
                               std::uint32_t region) {
    LaunchEvent event;
    event.function = node.function;
    event.mangled = node.name.c_str();
    event.launch = node.launch;
    event.device = node.device;
    event.context = node.context;
    event.stream = node.stream;
    event.correlation_id = correlation_id;
    event.graph = true;
    event.untimed = true; // no node record comes: estimated from the traced replays
    event.region = region;
    event.region_given = true;
    return event;
}

bool GraphReplays::on_launch(std::uint64_t exec, std::uint64_t correlation_id) noexcept {
    try {
        const std::lock_guard<std::mutex> lock(m_mutex);
        auto it = m_execs.find(exec);
        if (it == m_execs.end()) {
            if (m_execs.size() >= k_max_graphs) {
                return true;
            }
            it = m_execs.emplace(exec, Exec{}).first;
        }
        Exec& e = it->second;
        if (++e.launches == 1) {
            e.teacher = correlation_id;
        }
        if (m_launch_order.size() >= k_max_launches) {
            m_launch_exec.erase(m_launch_order.front());
            m_launch_order.pop_front();
        }
        if (m_launch_exec.insert_or_assign(correlation_id, exec).second) {
            m_launch_order.push_back(correlation_id);
        }
        if (e.launches > 1 && e.launches <= m_node_replays) {
            e.others.emplace_back(correlation_id, 0);
        }
        // Past its node-traced replays, only a graph whose nodes were learned is timed whole:
        // records come late (buffers), so until then it is traced by node.
        return e.launches <= m_node_replays || !learned(e);
    } catch (...) {
        return true; // out of memory: traced by node, as without IRF_GRAPH_TIMING=graphs
    }
}

void GraphReplays::on_node(std::uint64_t correlation_id, const GraphNode& node) noexcept {
    try {
        const std::lock_guard<std::mutex> lock(m_mutex);
        std::uint64_t exec = 0;
        if (exec_of_locked(correlation_id, &exec) == nullptr) {
            return;
        }
        Exec& e = m_execs.at(exec);
        if (e.teacher == correlation_id) {
            if (e.nodes.size() < k_max_nodes) {
                e.nodes.push_back(node);
            }
        } else {
            for (auto& [id, count] : e.others) {
                if (id == correlation_id) {
                    ++count;
                }
            }
        }
    } catch (...) {
    }
}

std::vector<GraphNode> GraphReplays::nodes_of(std::uint64_t correlation_id) const {
    const std::lock_guard<std::mutex> lock(m_mutex);
    const Exec* e = exec_of_locked(correlation_id);
    return e != nullptr && learned(*e) ? e->nodes : std::vector<GraphNode>{};
}

bool GraphReplays::learned(const Exec& e) const noexcept {
    // With one node-traced replay there is nothing to check the teacher's records against.
    // Asked each time: counts that were equal while both replays' records were still coming in
    // need not be later.
    if (e.nodes.empty() || e.nodes.size() >= k_max_nodes) {
        return false;
    }
    return m_node_replays == 1 ||
           std::any_of(e.others.begin(), e.others.end(),
                       [&e](const auto& other) { return other.second == e.nodes.size(); });
}

void GraphReplays::forget(std::uint64_t exec) noexcept {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_execs.erase(exec);
}

std::size_t GraphReplays::graphs() const {
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_execs.size();
}

const GraphReplays::Exec* GraphReplays::exec_of_locked(std::uint64_t correlation_id,
                                                       std::uint64_t* exec) const {
    const auto launch = m_launch_exec.find(correlation_id);
    if (launch == m_launch_exec.end()) {
        return nullptr;
    }
    const auto it = m_execs.find(launch->second);
    if (it == m_execs.end()) {
        return nullptr;
    }
    if (exec != nullptr) {
        *exec = launch->second;
    }
    return &it->second;
}

} // namespace irf::intercept

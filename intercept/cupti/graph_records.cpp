// SPDX-License-Identifier: Apache-2.0
// IRF_GRAPH_TIMING=graphs (issue 55 item 4): each graph's first replays are traced node by node
// (kernel records), later ones get one graph-level record each (CUPTI_ACTIVITY_KIND_GRAPH_TRACE,
// which suppresses node records) and their nodes are counted at an estimate. CUPTI's switch is
// process-wide, so it follows the latest graph launch; a replay that got the other kind of
// record than chosen is still counted right (docs/configuration.md, "Graph timing").
#include <cstdint>

#include "intercept/cupti/cupti_backend_impl.hpp"

namespace irf::intercept::cupti {

void CuptiBackend::choose_graph_records(CUgraphExec exec, std::uint64_t correlation_id) noexcept {
    const auto key = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(exec));
    const bool by_node = m_graph_replays->on_launch(key, correlation_id);
    std::string error;
    {
        const std::lock_guard<std::mutex> lock(m_graph_trace_mutex);
        if (m_graph_trace_failed || m_graph_trace_on == !by_node) {
            return;
        }
        if (m_platform->set_graph_trace(!by_node, error)) {
            m_graph_trace_on = !by_node;
            return;
        }
        m_graph_trace_failed = true;
    }
    warn_once("graph-trace",
              "IRF_GRAPH_TIMING=graphs: " + error + "; graphs are timed node by node from now on");
}

void CuptiBackend::learn_graph_node(const KernelActivity& record) noexcept {
    if (!m_graph_replays) {
        return;
    }
    try {
        GraphNode node;
        node.function = record.name;
        node.name = record.name != nullptr ? record.name : "";
        node.launch = record.launch;
        node.device = record.device;
        node.context = record.context;
        node.stream = record.stream;
        m_graph_replays->on_node(record.correlation_id, node);
    } catch (...) { // out of memory: this graph is not learned, so it stays traced by node
    }
}

void CuptiBackend::on_graph_record(const KernelActivity& record) noexcept {
    std::vector<GraphNode> nodes;
    try {
        if (m_graph_replays) {
            nodes = m_graph_replays->nodes_of(record.correlation_id);
        }
    } catch (...) {
    }
    if (nodes.empty()) {
        ++m_unknown_graph_replays; // its kernels are not counted: said at flush
        return;
    }
    std::uint32_t region = 0;
    const bool have_region = graph_region(record.correlation_id, region);
    for (const GraphNode& node : nodes) {
        const LaunchEvent event =
            untimed_node_event(node, m_next_graph_id++, have_region ? region : 0);
        with_sink([&event](LaunchSink& sink) { static_cast<void>(sink.on_launch(event)); });
    }
}

void CuptiBackend::on_graph_exec_change(CUpti_CallbackId cbid,
                                        const CUpti_CallbackData& data) noexcept {
    if (!m_graph_replays || data.callbackSite != CUPTI_API_ENTER) {
        return;
    }
    if (const auto exec = changed_graph_exec(cbid, data.functionParams)) {
        m_graph_replays->forget(
            static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(*exec)));
    }
}

void CuptiBackend::warn_unknown_graph_replays() noexcept {
    const std::uint64_t unknown = m_unknown_graph_replays.load();
    if (unknown > 0) {
        warn_once("graph-unknown",
                  std::to_string(unknown) +
                      " CUDA graph replays were timed as a whole before any of their nodes were "
                      "known (IRF_GRAPH_TIMING=graphs): their kernels are not counted");
    }
}

} // namespace irf::intercept::cupti

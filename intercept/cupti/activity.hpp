// SPDX-License-Identifier: Apache-2.0
// Kernel activity records (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, and GRAPH_TRACE under
// IRF_GRAPH_TIMING=graphs): buffers and decoding.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <cupti_activity.h>

#include "model/profile/profile.hpp"

namespace irf::intercept::cupti {

/// The fields irf uses from one kernel record.
struct KernelActivity {
    std::uint64_t correlation_id = 0;
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
    std::uint32_t device = 0;
    std::uint32_t context = 0;
    std::uint32_t stream = 0;
    std::uint32_t graph_id = 0;   ///< 0 unless launched from a CUDA graph
    const char* name = nullptr;   ///< owned by CUPTI, shared across records
    model::LaunchConfig launch;   ///< smem_bytes: static + dynamic
    bool device_launched = false; ///< part of a device-launched graph (cupti_activity.h)
    /// A graph-level record (CUPTI_ACTIVITY_KIND_GRAPH_TRACE, IRF_GRAPH_TIMING=graphs): one
    /// replay of a graph from its first node's start to its last node's end; no name or launch.
    bool graph_level = false;
};

/// Decodes a CONCURRENT_KERNEL, KERNEL or GRAPH_TRACE record; nullopt for other kinds.
/// Timestamps are passed on as they are (zero or reversed ones are counted and dropped by the
/// sink).
[[nodiscard]] std::optional<KernelActivity>
decode_kernel_record(const CUpti_Activity* record) noexcept;

/// Receives decoded kernel records, on CUPTI's worker thread or on the flushing thread.
using KernelRecordFn = void (*)(void* user, const KernelActivity& record) noexcept;

/// Registers the buffer callbacks and enables kernel records; delivery goes to `fn(user, ...)`.
[[nodiscard]] bool activity_start(KernelRecordFn fn, void* user, std::string& error) noexcept;

/// Delivers completed buffers now (forced: also buffers with incomplete records).
void activity_flush(bool forced) noexcept;

/// Disables kernel records and detaches the receiver; no `fn` call happens after it returns.
void activity_stop() noexcept;

/// Turns graph-level records on (a graph's replays launched from now on get one record each and
/// no node records) or off; false with `error` when CUPTI refused.
[[nodiscard]] bool activity_graph_trace(bool on, std::string& error) noexcept;

/// Records CUPTI dropped because no buffer was available, so far.
[[nodiscard]] std::uint64_t activity_dropped() noexcept;

} // namespace irf::intercept::cupti

// SPDX-License-Identifier: Apache-2.0
// Decodes a driver launch callback's params struct (generated_cuda_meta.h) into plain data.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <cuda.h>
#include <cupti_callbacks.h>

#include "model/profile/profile.hpp"

namespace irf::intercept::cupti {

/// What kind of driver call a launch cbid is.
enum class LaunchKind : std::uint8_t {
    kernel,       ///< one kernel on one stream: can be profiled
    multi_device, ///< cuLaunchCooperativeKernelMultiDevice: timed only (first device decoded)
    graph,        ///< cuGraphLaunch: its kernels come from activity records, timed only
};

/// One launch as read from the params struct; `function` is an opaque key (CUfunction or a
/// CUkernel cast to CUfunction, docs/cupti-notes.md F3).
struct DecodedLaunch {
    LaunchKind kind = LaunchKind::kernel;
    CUfunction function = nullptr;
    model::LaunchConfig config; ///< smem_bytes: dynamic only; regs: 0 (not in the params)
    CUstream stream = nullptr;
    bool per_thread_stream = false;   ///< a _ptsz variant: the null stream means per-thread
    CUgraphExec graph_exec = nullptr; ///< the graph launched (LaunchKind::graph)
};

/// The driver cbids irf enables: every kernel launch API and the graph launches.
[[nodiscard]] const std::vector<CUpti_CallbackId>& launch_cbids();

/// True for cuLaunchKernel, cuLaunchKernelEx and their _ptsz variants: every runtime launch
/// goes through them, so irf cannot work without them; the other launch cbids are optional.
[[nodiscard]] bool is_required_launch_cbid(CUpti_CallbackId cbid) noexcept;

/// The launch cbids of the entry points libirf_entry.so wraps (cuLaunchKernel, cuLaunchKernelEx,
/// cuLaunchCooperativeKernel and their _ptsz twins): off while IRF_FAST_INTERCEPT's hook sees
/// those launches. Graph launches and the legacy entry points keep their callbacks.
[[nodiscard]] const std::vector<CUpti_CallbackId>& hooked_launch_cbids();

/// True for every cbid in launch_cbids() (no params needed).
[[nodiscard]] bool is_launch_cbid(CUpti_CallbackId cbid) noexcept;

/// Driver cbids that change or destroy a graph exec in place (cuGraphExecUpdate, node
/// parameters, a node enabled or disabled, cuGraphExecDestroy): what its replays run may differ
/// from what IRF_GRAPH_TIMING=graphs learned.
[[nodiscard]] const std::vector<CUpti_CallbackId>& graph_exec_change_cbids();

/// The graph exec a graph_exec_change_cbids() call names (each takes it first); nullopt for
/// another cbid or null params.
[[nodiscard]] std::optional<CUgraphExec> changed_graph_exec(CUpti_CallbackId cbid,
                                                            const void* params) noexcept;

/// The profiler start/stop callbacks (driver and runtime) IRF_CAPTURE_RANGE=cudaProfilerApi
/// watches, or none without it: an enabled runtime-domain callback costs every runtime call
/// (issue 55 item 2), and nothing else reads them.
[[nodiscard]] const std::vector<std::pair<CUpti_CallbackDomain, CUpti_CallbackId>>&
profiler_range_cbids(bool capture_range);

/// 1 for a profiler start callback of profiler_range_cbids(true), 0 for a stop, -1 otherwise.
[[nodiscard]] int profiler_range_change(CUpti_CallbackDomain domain,
                                        CUpti_CallbackId cbid) noexcept;

/// Driver cbids before which activity is flushed (context teardown).
[[nodiscard]] const std::vector<CUpti_CallbackId>& teardown_cbids();

/// A stream a driver call names: a NULL one is the calling thread's per-thread default stream
/// when the call came through a `_ptsz` entry (or CU_STREAM_PER_THREAD).
struct StreamArg {
    CUstream stream = nullptr;
    bool per_thread = false;
};

/// The stream of a cuStreamBeginCapture* or cuStreamEndCapture* call (every variant); nullopt
/// for another cbid or null params.
[[nodiscard]] std::optional<StreamArg> capture_stream(CUpti_CallbackId cbid,
                                                      const void* params) noexcept;

/// An event and a stream: where cuEventRecord* records it, or which stream cuStreamWaitEvent
/// makes wait for it.
struct EventOnStream {
    CUevent event = nullptr;
    StreamArg stream;
};

/// cuEventRecord, cuEventRecordWithFlags (and `_ptsz`); nullopt for another cbid or no params.
[[nodiscard]] std::optional<EventOnStream> event_record(CUpti_CallbackId cbid,
                                                        const void* params) noexcept;

/// cuStreamWaitEvent (and `_ptsz`); nullopt for another cbid or no params.
[[nodiscard]] std::optional<EventOnStream> stream_wait_event(CUpti_CallbackId cbid,
                                                             const void* params) noexcept;

/// Decodes `params` for `cbid`; nullopt for a cbid that is not a launch or null params.
[[nodiscard]] std::optional<DecodedLaunch> decode_launch(CUpti_CallbackId cbid,
                                                         const void* params) noexcept;

} // namespace irf::intercept::cupti

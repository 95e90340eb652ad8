// SPDX-License-Identifier: Apache-2.0
// Factory for the CUPTI backend (callbacks + range profiler + activity); no CUPTI types here.
#pragma once

#include <memory>

#include "intercept/backend.hpp"

namespace irf::intercept {

/// Options of the CUPTI backend, filled by the injection from the IRF_* environment.
struct CuptiOptions {
    bool collect_pipe_mix = false;     ///< add the optional pipe-mix metric group
    bool collect_tensor_types = false; ///< add the optional tensor-ops-by-type group
    /// False with IRF_SAMPLES=0: no sample can start, so copies, sets and host functions are
    /// not watched (their callbacks only keep them out of a sample's window).
    bool samples = true;
    /// IRF_CAPTURE_RANGE=cudaProfilerApi: the profiler start/stop callbacks, the runtime API's
    /// among them, are enabled; otherwise they stay off (each runtime call pays for them).
    bool profiler_api_callbacks = false;
    /// IRF_GRAPH_TIMING=graphs:N: each graph's first N replays traced by node, later ones by
    /// graph-level records; 0: every replay by node (IRF_GRAPH_TIMING=nodes).
    std::uint32_t graph_node_replays = 0;
    /// IRF_FAST_INTERCEPT=1 (set by `irf run --fast-intercept`): launches are seen by
    /// libirf_entry.so's hook, CUPTI's launch callbacks only while a sample needs them.
    bool fast_intercept = false;
};

/// Creates the CUPTI backend; never null. Nothing is subscribed until Backend::start().
std::unique_ptr<Backend> make_cupti_backend(const CuptiOptions& options);

} // namespace irf::intercept

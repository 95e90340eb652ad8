// SPDX-License-Identifier: Apache-2.0
// The fake backend's script: parsed and checked completely before anything is played.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/profile/profile.hpp"

namespace irf::intercept::fake {

/// A kernel node of a scripted CUDA graph (a launch with `graph_nodes`).
struct ScriptNode {
    std::string kernel;         ///< mangled (or plain) kernel name
    std::uint64_t function = 0; ///< function handle; 0 = one per distinct kernel name
    model::LaunchConfig launch;
    std::vector<double> duration_ns; ///< used in turn, one per replay
};

/// One scripted launch, played `repeat` times.
struct ScriptLaunch {
    std::string kernel;         ///< mangled (or plain) kernel name
    std::uint64_t function = 0; ///< function handle; 0 = one per distinct kernel name
    model::LaunchConfig launch;
    std::uint32_t device = 0;
    int thread = 0;                  ///< 0 = the thread calling start(); others run concurrently
    std::vector<double> duration_ns; ///< used in turn, one per repeat
    model::Counters counters;        ///< delivered for each profiled launch
    /// Delivered for a tensor-types sample (IRF_TENSOR_TYPES); empty: the tensor-types part of
    /// `counters` (tensor_ops_*, inst_tensor, time_ns).
    model::Counters tensor_counters;
    std::uint64_t repeat = 1;
    bool graph = false;
    std::vector<std::string> nvtx; ///< the thread's NVTX range stack at launch, outermost first
    /// "start" or "stop": the thread calls cudaProfilerStart/Stop just before the first repeat
    /// of this launch; "" = neither.
    std::string profiler;
    /// A later pass of a sample by launches (IRF_REPLAY) that this launch would run is refused,
    /// as CUPTI's Start can be: the sample is given up.
    bool refuse_pass = false;
    /// Ranges a sample window around this launch records: 1, or another number when the kernel
    /// launches a different number of kernels inside it than before (the sample is discarded).
    std::uint32_t ranges = 1;
    /// Non-empty: a cuGraphLaunch of graph exec `graph_exec` each repeat, whose kernel nodes run
    /// in this order (`kernel`, `duration_ns` and the sample keys unused).
    std::vector<ScriptNode> graph_nodes;
    std::uint64_t graph_exec = 0; ///< the exec's handle; 0 = one per launch entry
};

/// How durations reach the sink, modelled on CUPTI's activity buffers (docs/configuration.md,
/// "Fake backend"). All zero: every duration at flush.
struct ActivityDelivery {
    /// Records per buffer; > 0 starts a delivery thread that hands over each full buffer while
    /// launches go on (the last, partial one at flush), as CUPTI completes buffers.
    std::uint64_t buffer_records = 0;
    std::uint64_t drop_every = 0;  ///< > 0: the record of every launch whose id is a multiple
                                   ///< of it is never delivered (a dropped activity record)
    std::uint64_t early_every = 0; ///< > 0: such a launch's record is delivered by the
                                   ///< launching thread at once, before the collector drains it
};

/// A whole script.
struct Script {
    model::GpuInfo gpu;
    int passes = 1;
    std::vector<std::string> warnings; ///< sent through on_warning at start
    /// Every thread (0 included) plays on a backend thread, over and over, until stop(): start()
    /// returns at once, so the application keeps launching while it exits or is signalled.
    bool loop = false;
    /// flush() never returns, as cuptiActivityFlushAll when a fatal signal stopped a thread
    /// inside the CUDA driver (seen on an H200 under SIGTERM): the write goes on without it.
    bool flush_hangs = false;
    /// A sample by launches whose configuration has not recurred within this many launches is
    /// given up (the CUPTI backend's bound, intercept/cupti/pass_samples.hpp).
    std::uint64_t recur_bound = 4096;
    ActivityDelivery activity;
    std::vector<ScriptLaunch> launches;
};

/// A script that cannot be played; the message names the key, e.g. "launches[2].grid: ...".
class ScriptError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Parses a script document; throws ScriptError.
[[nodiscard]] Script parse_script(const std::string& text);

} // namespace irf::intercept::fake

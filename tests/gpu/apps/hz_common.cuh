// SPDX-License-Identifier: Apache-2.0
// Shared parts of the hazard apps (tests/gpu/hazards.json): the counted kernel and the checks.
// Each app runs one hazard from issue 17 item 12 and checks its own result on the host, so a
// wrong result under irf shows as "FAIL" and exit 1 whatever irf's profile says.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "ka_common.cuh"

namespace hz {

/// Adds 1 to `*counter` once per launch (thread 0 of block 0), with a system-scope atomic so the
/// counter may live in zero-copy host memory. A replayed launch would add 1 again.
__global__ void hz_increment(unsigned* counter) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        atomicAdd_system(counter, 1u);
    }
}

/// Exits with the usage code when any argument is given (the hazard apps take none), before
/// any CUDA call, so the no-device test can check it anywhere.
inline void no_arguments(int argc, const char* app) {
    if (argc > 1) {
        std::exit(ka::usage(app, "(none: this app takes no argument)"));
    }
}

/// A device counter set to 0.
inline unsigned* device_counter(const char* app) {
    unsigned* counter = nullptr;
    ka::check(cudaMalloc(&counter, sizeof(unsigned)), "cudaMalloc counter", app);
    ka::check(cudaMemset(counter, 0, sizeof(unsigned)), "cudaMemset counter", app);
    return counter;
}

/// The start of every single-device hazard app: no arguments, a device, a counter set to 0.
inline unsigned* begin(int argc, const char* app) {
    no_arguments(argc, app);
    ka::require_device(app);
    return device_counter(app);
}

/// Launches hz_increment `launches` times on the default stream, synchronizing after each when
/// `sync_each`.
inline void launch_increments(unsigned* counter, unsigned launches, bool sync_each,
                              const char* app) {
    for (unsigned i = 0; i < launches; ++i) {
        hz_increment<<<1, 32>>>(counter);
        ka::check(cudaGetLastError(), "launch", app);
        if (sync_each) {
            ka::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", app);
        }
    }
}

/// The value of a device counter (synchronizes the device first).
inline unsigned read_counter(const unsigned* counter, const char* app) {
    unsigned value = 0;
    ka::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", app);
    ka::check(cudaMemcpy(&value, counter, sizeof(value), cudaMemcpyDeviceToHost), "read counter",
              app);
    return value;
}

/// Prints "<app>: ok|FAIL: counter N, expected M" and returns the exit code.
inline int finish(const char* app, unsigned counter, unsigned expected) {
    const bool ok = counter == expected;
    std::printf("%s: %s: counter %u, expected %u\n", app, ok ? "ok" : "FAIL", counter, expected);
    return ok ? 0 : ka::k_exit_wrong;
}

/// Captures `nodes` hz_increment launches on `stream` into `*graph` and instantiates it.
inline cudaGraphExec_t capture_increments(cudaStream_t stream, unsigned* counter, unsigned nodes,
                                          cudaGraph_t* graph, const char* app) {
    ka::check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "begin capture", app);
    for (unsigned n = 0; n < nodes; ++n) {
        hz_increment<<<1, 32, 0, stream>>>(counter);
    }
    ka::check(cudaGetLastError(), "captured launch", app);
    ka::check(cudaStreamEndCapture(stream, graph), "end capture", app);
    cudaGraphExec_t exec = nullptr;
    ka::check(cudaGraphInstantiate(&exec, *graph, 0), "cudaGraphInstantiate", app);
    return exec;
}

/// Launches `exec` `replays` times on `stream`, then waits for the stream.
inline void replay_graph(cudaGraphExec_t exec, cudaStream_t stream, unsigned replays,
                         const char* app) {
    for (unsigned i = 0; i < replays; ++i) {
        ka::check(cudaGraphLaunch(exec, stream), "cudaGraphLaunch", app);
    }
    ka::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize", app);
}

/// Destroys an instantiated graph and the graph it came from.
inline void destroy_graph(cudaGraphExec_t exec, cudaGraph_t graph, const char* app) {
    ka::check(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy", app);
    ka::check(cudaGraphDestroy(graph), "cudaGraphDestroy", app);
}

} // namespace hz

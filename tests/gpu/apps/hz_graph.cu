// SPDX-License-Identifier: Apache-2.0
// Hazard app: two hz_increment kernel nodes captured into a graph, launched 5 times inside the
// NVTX range decode/step. Expected (docs/regions.md, CUDA graphs): all 10 graph kernels are
// named hz_increment, timed, never sampled, and attributed to decode/step, the thread's NVTX
// stack at cudaGraphLaunch (their records arrive later on CUPTI's activity thread).
#include <nvtx3/nvToolsExt.h>

#include "hz_common.cuh"

namespace {

constexpr const char* k_app = "irf-hz-graph";
constexpr unsigned k_nodes = 2;
constexpr unsigned k_replays = 5;

} // namespace

int main(int argc, char**) {
    unsigned* counter = hz::begin(argc, k_app);
    cudaStream_t stream = nullptr;
    ka::check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream", k_app);
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = hz::capture_increments(stream, counter, k_nodes, &graph, k_app);
    nvtxRangePushA("decode");
    nvtxRangePushA("step");
    hz::replay_graph(exec, stream, k_replays, k_app);
    nvtxRangePop();
    nvtxRangePop();
    const unsigned value = hz::read_counter(counter, k_app);
    hz::destroy_graph(exec, graph, k_app);
    return hz::finish(k_app, value, k_nodes * k_replays);
}

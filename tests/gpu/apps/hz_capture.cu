// SPDX-License-Identifier: Apache-2.0
// Hazard app: hz_increment is first seen inside a stream capture, then the graph is replayed 10
// times. Expected: the captured launch is neither sampled nor counted as executed; the 10 graph
// executions run (counter 10) and stay timed.
#include "hz_common.cuh"

namespace {

constexpr const char* k_app = "irf-hz-capture";
constexpr unsigned k_replays = 10;

} // namespace

int main(int argc, char**) {
    unsigned* counter = hz::begin(argc, k_app);
    cudaStream_t stream = nullptr;
    ka::check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream", k_app);
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = hz::capture_increments(stream, counter, 1, &graph, k_app);
    hz::replay_graph(exec, stream, k_replays, k_app);
    const unsigned value = hz::read_counter(counter, k_app);
    hz::destroy_graph(exec, graph, k_app);
    return hz::finish(k_app, value, k_replays);
}

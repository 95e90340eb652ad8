// SPDX-License-Identifier: Apache-2.0
// Hazard app (issue 58 item 5): a capture that starts while another thread's first-launch sample
// replays. Thread A launches hz_spin for the first time (~2 s; irf profiles a first launch
// provisionally, by kernel replay: one run of the kernel per pass, inside the launch call;
// docs/configuration.md, "First launches"). About 0.3 s after A's launch call began, thread B
// begins a global-mode capture on its own stream, captures two hz_increment launches, ends,
// instantiates and replays the graph 5 times. Every capture call must succeed: FAIL (exit 1)
// names each one that did not, with its error. HZ_CAPSAMPLE_SPIN_MS sets the spin (default
// 2000); hazards.json's long case makes the sample outlast irf's 10 s wait for the sample lock.
#include <atomic>
#include <string>
#include <thread>

#include "hz_spin.cuh"

namespace {

constexpr const char* k_app = "irf-hz-capsample";
constexpr auto k_capture_after = std::chrono::milliseconds(300);
constexpr unsigned k_nodes = 2;
constexpr unsigned k_replays = 5;

/// What thread B saw: whether every capture call succeeded, and how long the capture start took.
struct CaptureResult {
    bool ok = true;
    double begin_s = 0.0;
    double total_s = 0.0;
};

/// Records a failed capture call (printed at once; the app fails once both threads are done).
bool succeeded(cudaError_t err, const char* what, CaptureResult* result) {
    if (err != cudaSuccess) {
        std::printf("%s: FAIL: %s: %s\n", k_app, what, cudaGetErrorString(err));
        std::fflush(stdout);
        result->ok = false;
    }
    return err == cudaSuccess;
}

/// Instantiates `graph`, replays it k_replays times on `stream` and waits for them.
void replay(cudaGraph_t graph, cudaStream_t stream, CaptureResult* result) {
    cudaGraphExec_t exec = nullptr;
    if (!succeeded(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate", result)) {
        return;
    }
    for (unsigned i = 0; i < k_replays; ++i) {
        if (!succeeded(cudaGraphLaunch(exec, stream), "cudaGraphLaunch", result)) {
            break;
        }
    }
    succeeded(cudaStreamSynchronize(stream), "cudaStreamSynchronize", result);
    succeeded(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy", result);
}

/// Thread B: the capture, begun k_capture_after after A's launch call began.
void capture_during_sample(unsigned* counter, cudaStream_t stream,
                           const std::atomic<bool>* launching, CaptureResult* result) {
    while (!launching->load()) {
        std::this_thread::yield();
    }
    std::this_thread::sleep_for(k_capture_after);
    const auto t0 = std::chrono::steady_clock::now();
    const cudaError_t begun = cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    result->begin_s = hz::seconds_since(t0);
    if (!succeeded(begun, "cudaStreamBeginCapture (global)", result)) {
        return;
    }
    for (unsigned n = 0; n < k_nodes; ++n) {
        hz::hz_increment<<<1, 32, 0, stream>>>(counter);
        succeeded(cudaGetLastError(), "captured launch", result);
    }
    cudaGraph_t graph = nullptr;
    if (succeeded(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture", result)) {
        replay(graph, stream, result);
        succeeded(cudaGraphDestroy(graph), "cudaGraphDestroy", result);
    }
    result->total_s = hz::seconds_since(t0);
}

} // namespace

int main(int argc, char**) {
    hz::no_arguments(argc, k_app);
    const int spin_ms = static_cast<int>(hz::env_knob("HZ_CAPSAMPLE_SPIN_MS", 2000, k_app));
    unsigned* counter = hz::begin(argc, k_app);
    unsigned* spin_done = hz::device_counter(k_app);
    cudaStream_t spin_stream = nullptr;
    cudaStream_t capture_stream = nullptr;
    ka::check(cudaStreamCreateWithFlags(&spin_stream, cudaStreamNonBlocking), "stream", k_app);
    ka::check(cudaStreamCreateWithFlags(&capture_stream, cudaStreamNonBlocking), "stream", k_app);
    ka::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", k_app);
    std::atomic<bool> launching{false};
    CaptureResult result;
    std::thread capturer(capture_during_sample, counter, capture_stream, &launching, &result);
    launching.store(true);
    const double spin_call_s = hz::launch_spin(spin_ms, spin_done, spin_stream, k_app);
    capturer.join(); // no synchronising call of A's while B's global capture may be open
    ka::check(cudaStreamSynchronize(spin_stream), "spin sync", k_app);
    std::printf("%s: hz_spin %d ms, its first launch call took %.3f s; the capture began %.1f s "
                "after it, cudaStreamBeginCapture took %.3f s, capture to replays done %.3f s\n",
                k_app, spin_ms, spin_call_s, k_capture_after.count() / 1000.0, result.begin_s,
                result.total_s);
    const unsigned spins = hz::read_counter(spin_done, k_app);
    if (!result.ok || spins != 1) {
        std::printf("%s: FAIL: %s; hz_spin ran %u times, expected 1\n", k_app,
                    result.ok ? "every capture call succeeded" : "a capture call failed", spins);
        return ka::k_exit_wrong;
    }
    return hz::finish(k_app, hz::read_counter(counter, k_app), k_nodes * k_replays);
}

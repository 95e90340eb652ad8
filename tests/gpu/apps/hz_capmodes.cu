// SPDX-License-Identifier: Apache-2.0
// Hazard app (issue 58 item 3): the capture modes of real applications in one process.
//  1. global mode on a non-blocking stream (PyTorch's default);
//  2. thread-local mode on the capturing thread's per-thread default stream
//     (cudaStreamPerThread), while another thread launches on its own per-thread default stream:
//     the same handle names a different stream on each thread, and those launches run;
//  3. fork/join: an event recorded on the capturing stream, a side stream waits on it (and so
//     joins the capture), launches, and the origin waits back on the side stream.
// hz_captured is launched only inside captures: its launches in the profile are its graphs'
// replays, none sampled. hz_increment is launched only outside captures (before, beside and after
// them, on the streams that captured): every launch counted. The host checks both counters.
#include <atomic>
#include <string>
#include <thread>

#include "hz_common.cuh"

namespace {

constexpr const char* k_app = "irf-hz-capmodes";
constexpr unsigned k_replays = 5;
constexpr unsigned k_beside = 20; ///< the other thread's launches during the thread-local capture

/// Adds 1 to `*counter` once per launch; launched only inside captures.
__global__ void hz_captured(unsigned* counter) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        atomicAdd(counter, 1u);
    }
}

/// The two counters and the launches each should have seen.
struct Counts {
    unsigned* ordinary = nullptr; ///< hz_increment, outside captures
    unsigned* replayed = nullptr; ///< hz_captured, from graph replays
    unsigned ordinary_expected = 0;
    unsigned replayed_expected = 0;
};

void launch_ordinary(Counts& counts, cudaStream_t stream, unsigned launches) {
    for (unsigned i = 0; i < launches; ++i) {
        hz::hz_increment<<<1, 32, 0, stream>>>(counts.ordinary);
        ka::check(cudaGetLastError(), "ordinary launch", k_app);
    }
    counts.ordinary_expected += launches;
}

void launch_captured(unsigned* counter, cudaStream_t stream) {
    hz_captured<<<1, 32, 0, stream>>>(counter);
    ka::check(cudaGetLastError(), "captured launch", k_app);
}

/// Ends the capture on `stream`, instantiates and replays it k_replays times.
void end_and_replay(Counts& counts, cudaStream_t stream, unsigned nodes, const char* mode) {
    cudaGraph_t graph = nullptr;
    const std::string what = std::string("end capture (") + mode + ")";
    ka::check(cudaStreamEndCapture(stream, &graph), what.c_str(), k_app);
    cudaGraphExec_t exec = nullptr;
    ka::check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate", k_app);
    hz::replay_graph(exec, stream, k_replays, k_app);
    hz::destroy_graph(exec, graph, k_app);
    counts.replayed_expected += nodes * k_replays;
    std::printf("%s: %s capture: %u nodes replayed %u times\n", k_app, mode, nodes, k_replays);
}

void global_capture(Counts& counts, cudaStream_t stream) {
    ka::check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "begin capture (global)",
              k_app);
    launch_captured(counts.replayed, stream);
    launch_captured(counts.replayed, stream);
    end_and_replay(counts, stream, 2, "global");
}

/// The thread-local capture on this thread's per-thread stream while `beside` launches on its
/// own; the flags order the two threads so that every launch beside falls inside the capture.
void thread_local_capture(Counts& counts) {
    std::atomic<int> phase{0}; // 1: capture open, 2: the launches beside are done
    Counts beside_counts = counts;
    beside_counts.ordinary_expected = 0;
    std::thread beside([&]() {
        while (phase.load() != 1) {
            std::this_thread::yield();
        }
        launch_ordinary(beside_counts, cudaStreamPerThread, k_beside);
        ka::check(cudaStreamSynchronize(cudaStreamPerThread), "sync beside the capture", k_app);
        phase.store(2);
    });
    ka::check(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeThreadLocal),
              "begin capture (thread-local)", k_app);
    launch_captured(counts.replayed, cudaStreamPerThread);
    phase.store(1);
    while (phase.load() != 2) {
        std::this_thread::yield();
    }
    launch_captured(counts.replayed, cudaStreamPerThread);
    end_and_replay(counts, cudaStreamPerThread, 2, "thread-local");
    beside.join();
    counts.ordinary_expected += beside_counts.ordinary_expected;
}

/// origin -> (event) -> side; both launch; side -> (event) -> origin; one more on the origin.
void fork_join_capture(Counts& counts, cudaStream_t origin, cudaStream_t side) {
    cudaEvent_t forked = nullptr;
    cudaEvent_t joined = nullptr;
    ka::check(cudaEventCreateWithFlags(&forked, cudaEventDisableTiming), "event", k_app);
    ka::check(cudaEventCreateWithFlags(&joined, cudaEventDisableTiming), "event", k_app);
    ka::check(cudaStreamBeginCapture(origin, cudaStreamCaptureModeGlobal),
              "begin capture (fork/join)", k_app);
    launch_captured(counts.replayed, origin);
    ka::check(cudaEventRecord(forked, origin), "record fork", k_app);
    ka::check(cudaStreamWaitEvent(side, forked, 0), "side waits (fork)", k_app);
    launch_captured(counts.replayed, side);
    ka::check(cudaEventRecord(joined, side), "record join", k_app);
    ka::check(cudaStreamWaitEvent(origin, joined, 0), "origin waits (join)", k_app);
    launch_captured(counts.replayed, origin);
    end_and_replay(counts, origin, 3, "fork/join");
    ka::check(cudaEventDestroy(forked), "cudaEventDestroy", k_app);
    ka::check(cudaEventDestroy(joined), "cudaEventDestroy", k_app);
}

} // namespace

int main(int argc, char**) {
    Counts counts;
    counts.ordinary = hz::begin(argc, k_app);
    counts.replayed = hz::device_counter(k_app);
    cudaStream_t stream = nullptr;
    cudaStream_t side = nullptr;
    ka::check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream", k_app);
    ka::check(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking), "side stream", k_app);
    launch_ordinary(counts, stream, ka::k_launches); // sampled here, outside every capture
    ka::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize", k_app);
    global_capture(counts, stream);
    thread_local_capture(counts);
    fork_join_capture(counts, stream, side);
    // After the captures the streams that captured (and joined) launch as usual.
    launch_ordinary(counts, stream, 2);
    launch_ordinary(counts, side, 2);
    launch_ordinary(counts, cudaStreamPerThread, 2);
    const unsigned ordinary = hz::read_counter(counts.ordinary, k_app);
    const unsigned replayed = hz::read_counter(counts.replayed, k_app);
    std::printf("%s: hz_increment ran %u times, expected %u; hz_captured %u, expected %u\n", k_app,
                ordinary, counts.ordinary_expected, replayed, counts.replayed_expected);
    if (ordinary != counts.ordinary_expected) {
        return ka::k_exit_wrong;
    }
    return hz::finish(k_app, replayed + ordinary,
                      counts.replayed_expected + counts.ordinary_expected);
}

// SPDX-License-Identifier: Apache-2.0
// Hazard app (issue 58 item 1): irf's idle release must never make an application launch wait
// for the application's own work. hz_spin is sampled on short launches; then one ~3 s launch of
// it (not sampled: which duration cluster it falls in is known only after it ran) spins on
// stream A. After more than irf's idle-release time without a sample (2 s, idle_release.cpp)
// 2,048 hz_increment launches go to stream B, each launch call timed on the host: the release
// (checked every 1,024 launches, or on a thread of irf's own) happens among them while the spin
// runs. FAIL (exit 1) when one call waited more than 1 s, or when nothing was tested (the long
// launch was sampled, or it ended before the launches). Run with IRF_REPLAY=kernel (hazards.json):
// under the default a sample by launches would run a pass on the long launch.
// HZ_RELEASE_CONTEXTS=2: stream B belongs to a second context of the device (cuCtxCreate), current
// on this thread during the launches, while the first context's profiler is the one to release.
// HZ_RELEASE_PACE_US=N spreads the launches N us apart, over the release's teardown (its Disable
// waits for the spin), and HZ_RELEASE_MAX_CALL_MS=M fails a call over M ms instead of 1 s.
#include <thread>

#include "hz_spin.cuh"

namespace {

constexpr const char* k_app = "irf-hz-release";
constexpr int k_short_ms = 2;
constexpr int k_long_ms = 3000;
/// Longer than irf's idle-release time (2 s) and well inside the long spin.
constexpr auto k_idle = std::chrono::milliseconds(2500);
constexpr unsigned k_batch = 2048; // two release checks of every 1,024 launches
constexpr double k_waited_s = 1.0;

/// The launches of one context: its counter and the stream its batch goes to.
struct Side {
    unsigned* counter = nullptr;
    cudaStream_t stream = nullptr;
    unsigned expected = 0; ///< hz_increment launches made in this context
};

/// The longest launch call of the batch and the whole batch's time.
struct Batch {
    double longest_s = 0.0;
    unsigned longest_at = 0;
    double all_s = 0.0;
};

/// A counter and a non-blocking stream in the current context, hz_increment loaded and run
/// `ka::k_launches` times (lazy loading must not happen during the batch).
Side make_side() {
    Side side;
    side.counter = hz::device_counter(k_app);
    ka::check(cudaStreamCreateWithFlags(&side.stream, cudaStreamNonBlocking), "stream", k_app);
    for (int i = 0; i < ka::k_launches; ++i) {
        hz::hz_increment<<<1, 32, 0, side.stream>>>(side.counter);
        ka::check(cudaGetLastError(), "warm-up launch", k_app);
    }
    ka::check(cudaStreamSynchronize(side.stream), "warm-up sync", k_app);
    side.expected = ka::k_launches;
    return side;
}

/// hz_spin's short launches, which irf samples (first launch and the kernel's sample).
void sample_spin_early(unsigned* spin_done, cudaStream_t stream) {
    for (int i = 0; i < ka::k_launches; ++i) {
        hz::launch_spin(k_short_ms, spin_done, stream, k_app);
        ka::check(cudaStreamSynchronize(stream), "short spin sync", k_app);
    }
}

/// Launches hz_increment k_batch times on `stream`, timing each launch call, `pace_us` apart
/// (HZ_RELEASE_PACE_US: spread over the release's teardown, which waits for the long kernel).
Batch timed_batch(unsigned* counter, cudaStream_t stream, long pace_us) {
    Batch batch;
    const auto start = std::chrono::steady_clock::now();
    for (unsigned i = 0; i < k_batch; ++i) {
        if (pace_us > 0 && i > 0) {
            std::this_thread::sleep_for(std::chrono::microseconds(pace_us));
        }
        const auto t0 = std::chrono::steady_clock::now();
        hz::hz_increment<<<1, 32, 0, stream>>>(counter);
        const double took = hz::seconds_since(t0);
        ka::check(cudaGetLastError(), "batch launch", k_app);
        if (took > batch.longest_s) {
            batch.longest_s = took;
            batch.longest_at = i + 1;
        }
    }
    batch.all_s = hz::seconds_since(start);
    return batch;
}

using CtxCreate = CUresult (*)(CUcontext*, CUctxCreateParams*, unsigned, CUdevice);
using CtxSet = CUresult (*)(CUcontext);
using CtxGet = CUresult (*)(CUcontext*);
using CtxDestroy = CUresult (*)(CUcontext);

/// The contexts of a run: the primary one (long kernel) and, with two, the batch's own.
struct Contexts {
    CtxSet set_current = nullptr;
    CUcontext primary = nullptr;
    CUcontext second = nullptr; ///< null with one context
};

/// With `count` 2: creates the second context and its side, then makes the primary current.
Contexts open_contexts(long count, Side* second_side) {
    Contexts c;
    c.set_current = hz::driver_entry<CtxSet>("cuCtxSetCurrent", k_app);
    if (count == 2) {
        hz::check_cu(hz::driver_entry<CtxGet>("cuCtxGetCurrent", k_app)(&c.primary),
                     "cuCtxGetCurrent", k_app);
        hz::check_cu(hz::driver_entry<CtxCreate>("cuCtxCreate", k_app)(&c.second, nullptr, 0, 0),
                     "cuCtxCreate", k_app);
        *second_side = make_side(); // in the second context, current since cuCtxCreate
        hz::check_cu(c.set_current(c.primary), "cuCtxSetCurrent primary", k_app);
    }
    return c;
}

/// Makes the second context current (`second` true) or the primary one; no-op with one context.
void switch_to(const Contexts& c, bool second) {
    if (c.second != nullptr) {
        hz::check_cu(c.set_current(second ? c.second : c.primary), "cuCtxSetCurrent", k_app);
    }
}

/// What the window showed: the long launch's call, the batch, and whether the spin outlived it.
struct Window {
    double long_call_s = 0.0;
    Batch batch;
    bool still_ran = false;
};

/// The long spin on A's stream, the idle wait, then the timed batch on `target`'s stream
/// (current context: the second one when there are two).
Window run_window(const Contexts& c, const Side& first, Side* target, unsigned* spin_done,
                  long pace_us) {
    Window w;
    w.long_call_s = hz::launch_spin(k_long_ms, spin_done, first.stream, k_app);
    switch_to(c, true);
    std::this_thread::sleep_for(k_idle);
    w.batch = timed_batch(target->counter, target->stream, pace_us);
    target->expected += k_batch;
    switch_to(c, false);
    w.still_ran = cudaStreamQuery(first.stream) == cudaErrorNotReady;
    return w;
}

/// The exit code: FAIL when a launch call waited over `waited_s`, or when the window tested
/// nothing.
int verdict(const Window& w, double waited_s) {
    if (w.long_call_s > k_waited_s) {
        std::printf("%s: FAIL: the long launch was profiled (its call took %.3f s): no release "
                    "was tested\n",
                    k_app, w.long_call_s);
        return ka::k_exit_wrong;
    }
    if (w.batch.longest_s > waited_s) {
        std::printf("%s: FAIL: launch %u waited %.3f s for the long kernel\n", k_app,
                    w.batch.longest_at, w.batch.longest_s);
        return ka::k_exit_wrong;
    }
    if (!w.still_ran) {
        std::printf("%s: FAIL: the long kernel ended before the launches: no release was "
                    "tested\n",
                    k_app);
        return ka::k_exit_wrong;
    }
    return 0;
}

} // namespace

int main(int argc, char**) {
    hz::no_arguments(argc, k_app);
    const long contexts = hz::env_knob("HZ_RELEASE_CONTEXTS", 1, k_app);
    const long pace_us = hz::env_knob("HZ_RELEASE_PACE_US", 0, k_app);
    const double waited_s =
        static_cast<double>(hz::env_knob("HZ_RELEASE_MAX_CALL_MS", 1000, k_app)) / 1000.0;
    if (contexts > 2) {
        std::printf("%s: FAIL: HZ_RELEASE_CONTEXTS=%ld: 1 or 2\n", k_app, contexts);
        return ka::k_exit_usage;
    }
    ka::require_device(k_app);
    unsigned* spin_done = hz::device_counter(k_app);
    Side first = make_side();
    sample_spin_early(spin_done, first.stream);
    Side second; // the batch's side: the second context's, or stream B beside A
    const Contexts c = open_contexts(contexts, &second);
    if (contexts == 1) {
        second.counter = first.counter;
        ka::check(cudaStreamCreateWithFlags(&second.stream, cudaStreamNonBlocking), "stream B",
                  k_app);
    }
    const Window w = run_window(c, first, &second, spin_done, pace_us);
    std::printf("%s: %ld context(s); long launch call %.6f s; after %.1f s idle, %u launches on "
                "another stream in %.6f s, longest call %.6f s (launch %u); the long kernel still "
                "ran after them: %s\n",
                k_app, contexts, w.long_call_s, k_idle.count() / 1000.0, k_batch, w.batch.all_s,
                w.batch.longest_s, w.batch.longest_at, w.still_ran ? "yes" : "no");
    std::fflush(stdout);
    const unsigned spins = hz::read_counter(spin_done, k_app);
    unsigned total = hz::read_counter(first.counter, k_app);
    if (contexts == 2) {
        switch_to(c, true);
        total += hz::read_counter(second.counter, k_app);
        hz::check_cu(hz::driver_entry<CtxDestroy>("cuCtxDestroy", k_app)(c.second), "cuCtxDestroy",
                     k_app);
        switch_to(c, false);
    }
    const unsigned expected_spins = ka::k_launches + 1;
    std::printf("%s: hz_spin ran %u times, expected %u\n", k_app, spins, expected_spins);
    if (const int code = verdict(w, waited_s); code != 0) {
        return code;
    }
    if (spins != expected_spins) {
        return ka::k_exit_wrong;
    }
    return hz::finish(k_app, total, first.expected + second.expected);
}

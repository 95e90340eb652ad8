// SPDX-License-Identifier: Apache-2.0
// The seam of the sampled path: the range profiler and the few CUPTI/driver queries the launch
// path needs, behind interfaces so tests drive begin -> end -> counters without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <cuda.h>

#include "intercept/cupti/entry_points.hpp"

namespace irf::intercept::cupti {

/// Why a profiler step failed: `permission` and `unsupported` disable profiling everywhere,
/// `busy` (another client holds the counters) on that device.
enum class ProfilerFailure : std::uint8_t { none, permission, unsupported, busy, other };

/// Outcome of a profiler step.
struct ProfilerStatus {
    ProfilerFailure failure = ProfilerFailure::none;
    std::string error;
    [[nodiscard]] bool ok() const noexcept { return failure == ProfilerFailure::none; }
};

/// What the decoded counter data held: a sample is one kernel only when ranges == 1 and
/// nothing was dropped (another launch inside the window adds or drops a range).
struct RangeReport {
    std::size_t ranges = 0;
    std::size_t dropped = 0;
};

/// One sample collected one pass per launch (CUPTI user replay, IRF_REPLAY): its own
/// counter-data image, so that several samples of a context can advance in turn, and where its
/// passes stand. Owned by the caller; a profiler only fills it.
struct PassSample {
    /// The counter-data image; shared so that a profiler can keep the one CUPTI was last
    /// configured with alive after the sample is dropped.
    std::shared_ptr<std::vector<std::uint8_t>> image;
    std::size_t next_pass = 0;  ///< the pass the next launch runs
    bool complete = false;      ///< every pass was submitted (and the image decoded)
    std::uint64_t profiler = 0; ///< RangeProfiler::serial() of the profiler it runs on
};

/// Counter collection for one CUDA context (docs/cupti-notes.md F5). Not thread-safe: the backend
/// serializes every call on it under its device's sample lock.
class RangeProfiler {
public:
    RangeProfiler() noexcept;
    virtual ~RangeProfiler() = default;
    /// Unique per profiler object of the process (a new one after a teardown and setup gets a
    /// new number): a PassSample begun on one profiler cannot go on with another.
    [[nodiscard]] std::uint64_t serial() const noexcept { return m_serial; }
    /// The next start() and stop_and_evaluate() run pass `sample.next_pass` of `sample` instead
    /// of a kernel replay: stop_and_evaluate then moves next_pass on and, once every pass was
    /// submitted, sets `complete` and evaluates the sample into its values; before that it leaves
    /// the values empty and reports one range. Profilers without user replay refuse.
    virtual ProfilerStatus arm_pass(PassSample& sample) noexcept {
        static_cast<void>(sample);
        return {ProfilerFailure::unsupported, "no user replay"};
    }
    /// Support check, config image, enable, counter data, config. `availability` is the
    /// device's counter-availability image: read from the context when empty, else reused.
    virtual ProfilerStatus setup(CUcontext context, CUdevice device, const std::string& chip,
                                 const std::vector<std::string>& metrics,
                                 std::vector<std::uint8_t>& availability) noexcept = 0;
    /// Opens the range, at the launch's ENTER callback.
    virtual ProfilerStatus start() noexcept = 0;
    /// At EXIT: stop, decode, evaluate range 0 into `values` (one per metric), report ranges.
    virtual ProfilerStatus stop_and_evaluate(std::vector<double>& values,
                                             RangeReport& report) noexcept = 0;
    /// Stops if started and disables; idempotent (the profiler of a device can then be
    /// enabled on another context).
    virtual void teardown() noexcept = 0;
    /// Replay passes of the config image (0 before setup).
    [[nodiscard]] virtual int passes() const noexcept = 0;

private:
    std::uint64_t m_serial;
};

/// Process-level CUPTI/driver queries of the sampled path.
class ProfilerPlatform {
public:
    virtual ~ProfilerPlatform() = default;
    /// Once per process before the first profiler (cuptiProfilerInitialize).
    virtual ProfilerStatus initialize() noexcept = 0;
    /// The CUPTI chip name of a device ("GH100"); empty when unknown.
    virtual std::string chip(CUdevice device) noexcept = 0;
    /// A new, not yet set up, profiler.
    virtual std::unique_ptr<RangeProfiler> make_profiler() = 0;
    /// True when `stream` is being captured into a graph (its launches do not run now).
    virtual bool is_capturing(CUstream stream, bool per_thread) noexcept = 0;
    /// CUPTI's id of `stream` in `context` (cuptiGetStreamIdEx: context-unique, and the calling
    /// thread's own stream for a per-thread default stream); false when CUPTI cannot tell.
    virtual bool stream_id(CUcontext context, CUstream stream, bool per_thread,
                           std::uint32_t& id) noexcept = 0;
    /// The device ordinal of `context` (0 when CUPTI cannot tell).
    virtual std::uint32_t device_of(CUcontext context) noexcept = 0;
    /// False when `subscriber`'s launch callbacks were switched off behind irf's back.
    virtual bool subscription_alive(void* subscriber) noexcept = 0;
    /// Graph-level records on or off (IRF_GRAPH_TIMING=graphs); false when refused.
    virtual bool set_graph_trace(bool on, std::string& error) noexcept = 0;
    // IRF_FAST_INTERCEPT=1 (entry_hooks.cpp); the defaults stand for a process without
    // libirf_entry.so, so test platforms that do not model it need not override them.
    /// Hands `hooks` to libirf_entry.so (irf_entry_register_hooks); false when the library is
    /// not loaded or refused them.
    virtual bool register_entry_hooks(const IrfEntryHooks* hooks) noexcept {
        static_cast<void>(hooks);
        return false;
    }
    /// CUPTI's callbacks of the launch entry points the hook sees, on or off; false if refused.
    virtual bool set_hooked_callbacks(void* subscriber, bool on) noexcept {
        static_cast<void>(subscriber);
        static_cast<void>(on);
        return false;
    }
    /// The calling thread's current context (cuCtxGetCurrent); null when none.
    virtual CUcontext current_context() noexcept { return nullptr; }
    /// A launch handle's mangled name (cuFuncGetName); null when the driver cannot tell.
    virtual const char* function_name(CUfunction function) noexcept {
        static_cast<void>(function);
        return nullptr;
    }
};

/// The platform on the real CUPTI and driver.
std::unique_ptr<ProfilerPlatform> make_cupti_platform();

} // namespace irf::intercept::cupti

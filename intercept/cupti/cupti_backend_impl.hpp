// SPDX-License-Identifier: Apache-2.0
// The CUPTI backend's class (internal to intercept/cupti): callbacks, profilers, activity.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <cuda.h>
#include <cupti.h>

#include "config/metric_sets.hpp"
#include "intercept/cupti/activity.hpp"
#include "intercept/cupti/backend_parts.hpp"
#include "intercept/cupti/capture_set.hpp"
#include "intercept/cupti/cupti_backend.hpp"
#include "intercept/cupti/driver_api.hpp"
#include "intercept/cupti/guarded_cbids.hpp"
#include "intercept/cupti/hooked_launches.hpp"
#include "intercept/cupti/launch_params.hpp"
#include "intercept/cupti/pass_samples.hpp"
#include "intercept/cupti/profiled_ids.hpp"
#include "intercept/cupti/profiler_seam.hpp"
#include "intercept/cupti/sample_check.hpp"
#include "intercept/cupti/sample_lock.hpp"
#include "intercept/cupti/sample_sets.hpp"
#include "intercept/graph_replays.hpp"

namespace irf::intercept::cupti {

/// The Backend on CUPTI (see cupti_backend.hpp and docs/cupti-notes.md).
class CuptiBackend final : public Backend {
public:
    explicit CuptiBackend(const CuptiOptions& options)
        : m_options(options), m_platform(make_cupti_platform()) {
        if (options.graph_node_replays > 0) {
            m_graph_replays = std::make_unique<GraphReplays>(options.graph_node_replays);
        }
    }
    CuptiBackend(const CuptiBackend&) = delete;
    CuptiBackend& operator=(const CuptiBackend&) = delete;
    ~CuptiBackend() override { stop(); }

    [[nodiscard]] bool start(LaunchSink& sink) noexcept override;
    void flush() noexcept override;
    void stop() noexcept override;
    void seal() noexcept override;
    void detach_after_fork() noexcept override { m_detached = true; }
    [[nodiscard]] model::GpuInfo gpu_info() const noexcept override;
    [[nodiscard]] int passes() const noexcept override { return m_passes.load(); }
    [[nodiscard]] model::SamplePhases sample_phases() const noexcept override;
    /// Adds one sample's phases (begun, after Start, at Stop, now) and logs them at debug.
    void note_sample_phases(std::chrono::steady_clock::time_point begun,
                            std::chrono::steady_clock::time_point launched,
                            std::chrono::steady_clock::time_point stopping) noexcept;
    [[nodiscard]] std::string name() const override { return "cupti"; }

    /// Test seam: attaches `sink` without subscribing, so tests can drive on_callback and
    /// on_kernel_record directly on a machine without a GPU.
    void attach_sink_for_test(LaunchSink& sink) noexcept { attach_sink(sink); }
    /// Test seam: what start() does for IRF_FAST_INTERCEPT=1, without CUPTI.
    void start_fast_intercept_for_test() noexcept { start_fast_intercept(); }

    /// Test seam: replaces the range profiler platform and the waits (before any launch).
    void set_sampling_seam_for_test(SamplingSeam seam) noexcept {
        m_platform = std::move(seam.platform);
        m_lock_wait = seam.lock_wait;
        m_sample_budget = seam.sample_budget;
        m_timing_mask = seam.timing_check - 1;
        m_release_period = seam.release_period;
        m_busy_retry = seam.busy_retry;
        m_before_release_lock = std::move(seam.before_release_lock);
        m_idle_release = seam.idle_release;
        m_pass_sink.set_bound(seam.recur_bound);
        m_stream_destroys_seen = seam.stream_destroys_seen;
    }

    /// Entry point of every CUPTI callback (the C trampoline forwards here).
    void on_callback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) noexcept;
    /// Entry point of every decoded kernel activity record.
    void on_kernel_record(const KernelActivity& record) noexcept;
    /// Remembers the launching thread's NVTX path for the kernels of graph launch `correlation_id`.
    void remember_graph_region(std::uint64_t correlation_id) noexcept;
    /// The path remember_graph_region kept for `correlation_id`; false when none was kept.
    bool graph_region(std::uint64_t correlation_id, std::uint32_t& path) noexcept;
    // graph_records.cpp: IRF_GRAPH_TIMING=graphs (issue 55 item 4).
    /// A cuGraphLaunch of `exec`: node or graph-level records for it, and CUPTI told so.
    void choose_graph_records(CUgraphExec exec, std::uint64_t correlation_id) noexcept;
    /// A graph-level record: the replay's nodes, as learned, to the sink as untimed launches.
    void on_graph_record(const KernelActivity& record) noexcept;
    /// A node record, taught to m_graph_replays.
    void learn_graph_node(const KernelActivity& record) noexcept;
    /// A call that changes or destroys a graph exec: it is learned again.
    void on_graph_exec_change(CUpti_CallbackId cbid, const CUpti_CallbackData& data) noexcept;
    /// Says once how many graph replays were timed whole with none of their nodes known.
    void warn_unknown_graph_replays() noexcept;
    // entry_hooks.cpp: IRF_FAST_INTERCEPT=1, launches seen by libirf_entry.so's hook.
    /// The hook's `before`: reports the launch (or routes it to CUPTI's callbacks); the cookie.
    std::uint64_t on_hook_before(const IrfEntryLaunch& launch) noexcept;
    /// The hook's `after`, with the driver's result.
    void on_hook_after(const IrfEntryLaunch& launch, std::uint64_t cookie, int result) noexcept;
    /// True while CUPTI's callbacks of the hooked entry points are on.
    [[nodiscard]] bool hooked_callbacks_on() const noexcept { return m_armed.load(); }

private:
    // cupti_backend.cpp: lifecycle, resources, warnings.
    bool subscribe() noexcept;
    bool enable_callbacks() noexcept;
    void enable_guarded_callbacks() noexcept;
    void on_driver_call(CUpti_CallbackId cbid, const CUpti_CallbackData& cb) noexcept;
    void on_resource(CUpti_CallbackId cbid, const CUpti_ResourceData& data) noexcept;
    void on_fatal(const CUpti_StateData& data) noexcept;
    void on_context_destroy(CUcontext context, std::uint32_t device) noexcept;
    void warn(const std::string& message) noexcept;
    void warn_once(const std::string& key, const std::string& message) noexcept;
    void disable_profiling(const std::string& reason) noexcept;
    template <class Fn> void with_sink(Fn&& fn) noexcept;
    /// Puts the PassSink, in front of `sink`, where with_sink finds it.
    void attach_sink(LaunchSink& sink) noexcept;

    // launch_callbacks.cpp: the launch path.
    void on_launch_enter(const DecodedLaunch& decoded, const CUpti_CallbackData& data) noexcept;
    /// The sink's id for a launch at its CUPTI ENTER, and the decision the hook already took for
    /// it (`decided`); false when the hook took the launch.
    bool sink_id_at_enter(const CUpti_CallbackData& data, std::uint64_t& id,
                          std::optional<LaunchDecision>& decided) noexcept;
    void on_launch_exit(const CUpti_CallbackData& data) noexcept;
    /// The sink's view of a launch (no id yet); `symbol` null: the name kept with the function's
    /// attributes (IRF_FAST_INTERCEPT=1, where no CUPTI callback data gives one).
    LaunchEvent make_event(const DecodedLaunch& decoded, CUcontext context, const char* symbol,
                           const ContextIds& ids) noexcept;
    /// True when the launch is captured into a graph (not run now); `tracked` when by an open
    /// capture of this process.
    bool launch_captured(CUcontext context, const StreamArg& stream, bool& tracked) noexcept;
    /// Takes `slot`'s sample lock shared for a launch; the flags go to `*state` (may be null).
    void hold_shared(std::uint64_t* state, std::size_t slot) noexcept;
    /// Releases what hold_shared (or a guarded call) took, by its flags.
    void release_hold(std::uint64_t flags) noexcept;
    // guarded_calls.cpp: device writes and captures wait out a sample as long as it may last.
    void hold_write(const CUpti_CallbackData& data, std::size_t slot) noexcept;
    void hold_every_slot(const CUpti_CallbackData& data) noexcept;
    /// Takes `slot` shared by `deadline` (one line when that takes over m_lock_wait, another
    /// when it runs out: the call then goes on and the slot's window is breached).
    bool hold_patiently(std::size_t slot, std::chrono::steady_clock::time_point deadline) noexcept;
    bool ignored_inside_sample(const CUpti_CallbackData& data) noexcept;
    void on_guarded_call(GuardedCall kind, CUpti_CallbackId cbid,
                         const CUpti_CallbackData& data) noexcept;
    /// CUPTI's key of `stream` as seen from `context` and the calling thread: context id and
    /// stream id (nullopt when CUPTI cannot tell).
    std::optional<std::uint64_t> stream_key(CUcontext context, const StreamArg& stream) noexcept;
    /// Notes a capture begun or ended by the call (m_captures).
    void note_capture(CUpti_CallbackId cbid, const CUpti_CallbackData& data, bool begun) noexcept;
    /// At IRF_LOG=debug: a launch found captured, with the tracked set's and the driver's answers
    /// and its CUPTI stream key (issue 58 item 3 reads them on a GPU).
    void log_captured_launch(const CUpti_CallbackData& data, const StreamArg& stream,
                             bool tracked) noexcept;
    /// Notes an event recorded in, or a stream joined to, an open capture.
    void note_fork_or_join(GuardedCall kind, CUpti_CallbackId cbid,
                           const CUpti_CallbackData& data) noexcept;
    /// True when `stream` (of `context`, as the calling thread names it) belongs to a capture
    /// opened in this process, or joined one.
    bool in_open_capture(CUcontext context, const StreamArg& stream) noexcept;
    void decline(std::uint64_t correlation_id, const char* reason) noexcept;
    bool counters_refused(const ProfilerStatus& status, std::uint32_t device) noexcept;
    bool device_busy(std::uint32_t device) const noexcept;
    bool tensor_set_refused(std::uint32_t device) const noexcept;
    enum class Begin : std::uint8_t { sampling, declined, timed_out };
    /// A launch the sink chose: profiled, or declined; false when it goes on unprofiled.
    bool sample_chosen(const LaunchCall& call, const DecodedLaunch& decoded, std::uint32_t device,
                       LaunchDecision decision) noexcept;
    Begin begin_sample(const LaunchCall& call, const DecodedLaunch& decoded, std::uint32_t device,
                       SampleSet set) noexcept;
    void start_profiler(const LaunchCall& call, std::uint32_t device, SampleSet set) noexcept;
    void end_sample(const LaunchCall& call) noexcept;
    void deliver_sample(const LaunchCall& call, const ContextSession& session,
                        const std::vector<double>& values, const RangeReport& report) noexcept;
    // entry_hooks.cpp
    /// Registers the hooks with libirf_entry.so (IRF_FAST_INTERCEPT=1); says why when it cannot.
    void start_fast_intercept() noexcept;
    void stop_fast_intercept() noexcept;
    /// Reports a launch the hook saw to the sink and keeps it for its record: the decision.
    LaunchDecision report_hooked(const IrfEntryLaunch& launch, HookedCall& call) noexcept;
    /// CUPTI's hooked callbacks on for a launch the sink chose; false when CUPTI refused.
    bool arm() noexcept;
    /// Off again once no routed launch is in flight and no sample needs them.
    void try_disarm() noexcept;
    /// The sink's id of a kernel record under IRF_FAST_INTERCEPT=1; 0 to drop the record.
    std::uint64_t record_id(const KernelActivity& record) noexcept;
    /// A record of a launch neither path saw: reported on its own; the hook is given up.
    std::uint64_t report_unseen(const KernelActivity& record) noexcept;
    /// Says once at flush what the hook saw and what it could not match.
    void warn_fast_intercept() noexcept;
    void discard(std::uint64_t correlation_id, const char* reason) noexcept;
    // launch_caches.cpp: each launching thread's caches (no query, no lock once warmed up).
    static std::uint64_t next_instance() noexcept;
    ContextIds context_ids(CUcontext context) noexcept;
    FunctionAttributes attributes(CUfunction function, CUdevice device) noexcept;
    /// CUPTI's id of `stream`; false when CUPTI did not say.
    bool stream_id(CUcontext context, CUstream stream, bool per_thread, std::uint32_t& id) noexcept;
    /// A stream is being destroyed: every thread's cached stream ids are stale.
    void on_stream_destroy() noexcept;
    bool over_budget(CUfunction function) noexcept;
    ContextSession* session_for(CUcontext context, std::uint32_t device, SampleSet set) noexcept;
    ContextSession* install_session(CUcontext context, std::uint32_t device, SampleSet set);
    ProfilerStatus setup_session(ContextSession& session, CUcontext context, std::uint32_t device,
                                 std::vector<std::uint8_t>& availability);
    void on_module_unload() noexcept;
    void report_setup(const ProfilerStatus& status, std::uint32_t device, SampleSet set) noexcept;
    bool first_duration(std::uint64_t correlation_id) noexcept;
    void warn_lost_activity() noexcept;
    void check_timing(std::uint64_t launches) noexcept;
    /// Records came after timing stopped: tell the sink, say so once per stop.
    void resume_timing() noexcept;
    /// Disables the range profilers idle for m_idle_release, on irf's release thread only.
    void release_idle_profilers() noexcept;
    void wait_for_launches_beside(std::size_t slot) noexcept;
    /// One debug line per release: the device, its idle time, how long the teardown took.
    static void log_release(std::uint32_t device, std::int64_t idle_ns,
                            std::chrono::steady_clock::duration took) noexcept;
    /// Starts irf's release thread once (signals blocked in it); idempotent.
    void start_release_thread() noexcept;
    /// Stops and joins it (leaves it alone in a forked child, where it does not exist).
    void stop_release_thread() noexcept;
    void release_loop() noexcept;
    /// Another client holds `device`'s counters: timed only until m_busy_retry has passed.
    void note_counters_busy(const ProfilerStatus& status, std::uint32_t device) noexcept;
    /// True once a profiler of `device` was set up: a later refusal is another client's doing.
    bool counters_worked(std::uint32_t device) const noexcept;
    /// Notes that a sample ended now (the idle clock starts again).
    void note_sample_end() noexcept;

    CuptiOptions m_options;

    // Sink access: shared by every sink call (an atomic add, no lock), exclusive while start()
    // sets and stop() clears m_sink.
    SampleLock m_lifecycle;
    /// Set first in stop(): no sink call begins after it, so stop() never waits for a thread
    /// that a signal stopped inside one (its shared hold would never end).
    std::atomic<bool> m_stopping{false};
    LaunchSink* m_sink = nullptr; ///< m_pass_sink, in front of the collector, while running
    PassSink m_pass_sink;         ///< samples by launches (IRF_REPLAY)
    CUpti_SubscriberHandle m_subscriber = nullptr;
    std::atomic<bool> m_running{false};
    std::atomic<bool> m_cupti_failed{false}; ///< fatal error: no CUPTI call any more
    std::atomic<bool> m_detached{false};     ///< a forked child: callbacks do nothing

    std::unique_ptr<ProfilerPlatform> m_platform;
    std::chrono::milliseconds m_lock_wait{k_lock_wait};
    std::chrono::milliseconds m_sample_budget{k_sample_budget};

    // Sample exclusion per device: every launch, device write (copy, set, host function) and
    // capture start holds its device's lock shared from ENTER to EXIT, a profiled launch
    // exclusive from ENTER to the end of its decode, so nothing of another thread lands inside
    // the sample's window (docs/cupti-notes.md F6). A call that gave up waiting bumps its
    // slot's breach count.
    std::array<SampleLock, k_lock_slots> m_sample_locks;
    std::array<std::atomic<std::uint64_t>, k_lock_slots> m_breaches{};
    /// Per slot: an idle release tears its profiler down (lock held), and the launches that
    /// went on meanwhile without the lock and have not reached their EXIT yet.
    std::array<std::atomic<bool>, k_lock_slots> m_releasing{};
    std::array<std::atomic<int>, k_lock_slots> m_release_skips{};
    std::atomic<bool> m_profiling{true};
    std::atomic<std::uint32_t> m_open_captures{0}; ///< stream captures open in the process
    // The streams of the open captures, from the capture calls' own params: inside a launch
    // callback cuStreamIsCapturing answers "not capturing" in every capture mode (H100 and
    // H200 hazard runs, docs/validation/h200-2026-11-28.md). Matched by CUPTI stream key, not
    // by handle: NULL through a _ptsz entry names another stream on every thread.
    std::mutex m_capture_mutex;
    CaptureSet m_captures;
    /// Per device: steady-clock ns until which its counters count as held by another client.
    std::array<std::atomic<std::int64_t>, k_device_slots> m_busy_until{};
    std::atomic<std::uint64_t> m_busy_warned{0};    ///< bit per device: its busy line was said
    std::atomic<std::uint64_t> m_worked_devices{0}; ///< bit per device: a setup succeeded
    std::atomic<std::uint64_t> m_tensor_refused{0}; ///< bit per device: tensor-types setup failed

    // Guards everything below. Never held across a CUPTI or driver call: CUPTI's activity
    // thread takes it in first_duration while the driver may hold its own locks.
    mutable std::mutex m_state;
    std::map<CUcontext, ContextSession> m_sessions; ///< a null profiler: setup failed
    std::map<std::uint32_t, CUcontext> m_enabled;   ///< the one enabled profiler per device
    std::map<std::uint32_t, std::vector<std::uint8_t>> m_availability; ///< per device
    std::set<std::string> m_warned;
    model::GpuInfo m_gpu;
    bool m_have_gpu = false;
    ProfiledIds m_profiled_ids; ///< correlation ids of profiled launches

    std::shared_mutex m_attribute_lock; ///< guards the two maps below (cleared at unload)
    std::unordered_map<CUfunction, FunctionAttributes> m_attributes;
    std::unordered_set<CUfunction> m_over_budget; ///< kernels no longer sampled
    std::atomic<std::uint64_t> m_module_epoch{0};
    const std::uint64_t m_instance = next_instance(); ///< keys the threads' caches
    std::atomic<std::uint64_t> m_stream_epoch{0};     ///< stream destroys seen
    /// The stream-destroy callback is enabled, so cached stream ids can be trusted.
    std::atomic<bool> m_stream_destroys_seen{false};

    std::atomic<std::uint64_t> m_launches_seen{0};
    std::atomic<std::uint64_t> m_records_seen{0};
    std::atomic<bool> m_activity_failed{false};
    std::uint64_t m_timing_mask = k_timing_check - 1;
    std::chrono::milliseconds m_idle_release = k_idle_release;
    std::chrono::milliseconds m_release_period{k_release_period};
    std::chrono::milliseconds m_busy_retry{k_busy_retry};
    std::function<void()> m_before_release_lock; ///< SamplingSeam::before_release_lock
    // irf's own release thread (idle_release.cpp): started at the first profiler set up.
    std::mutex m_release_mutex;
    std::condition_variable m_release_wake;
    bool m_release_stop = false; ///< under m_release_mutex
    std::unique_ptr<std::thread> m_release_thread;
    int m_release_pid = 0;                         ///< the process that started it
    std::atomic<std::int64_t> m_last_sample_ns{0}; ///< steady clock at the last sample's end
    std::atomic<bool> m_profilers_held{false};     ///< some range profiler may be enabled
    std::atomic<std::uint64_t> m_records_at_check{0};
    std::atomic<bool> m_silent_once{false};    ///< the last timing check saw no record: flushed
    std::atomic<bool> m_timing_stopped{false}; ///< kernel records stopped coming

    std::atomic<int> m_passes{0};
    mutable std::mutex m_phases_mutex;
    model::SamplePhases m_phases; ///< under m_phases_mutex (sample_phases.cpp)
    std::atomic<std::uint64_t> m_context_epoch{1};
    std::atomic<std::uint64_t> m_graph_launches{0};
    // IRF_FAST_INTERCEPT=1 (entry_hooks.cpp).
    std::atomic<bool> m_fast_on{false};        ///< the hooks are registered
    std::atomic<bool> m_armed{true};           ///< the hooked cbids' callbacks are on (as at start)
    std::atomic<bool> m_armed_for_good{false}; ///< never off again (unseen launches, a refusal)
    std::atomic<bool> m_arm_refused{false};    ///< CUPTI refused to switch them on once
    std::atomic<int> m_routed{0};              ///< routed launches between `before` and `after`
    std::atomic<std::uint64_t> m_since_armed{0}; ///< callback launches since the last choice
    std::atomic<bool> m_hook_used{false};        ///< a launch came through the hook (set once)
    std::atomic<std::uint64_t> m_unseen_records{0};
    std::atomic<std::uint64_t> m_lost_records{0};
    std::mutex m_arm_mutex;                        ///< serializes arm() and try_disarm()
    std::unique_ptr<HookedLaunches> m_hooked;      ///< made by start_fast_intercept
    std::unique_ptr<GraphReplays> m_graph_replays; ///< IRF_GRAPH_TIMING=graphs; null: nodes
    std::mutex m_graph_trace_mutex;                ///< guards the two below
    bool m_graph_trace_on = false;                 ///< graph-level records enabled now
    bool m_graph_trace_failed = false;             ///< CUPTI refused a switch: nodes from then on
    std::atomic<std::uint64_t> m_unknown_graph_replays{0};
    std::atomic<std::uint64_t> m_next_graph_id{k_first_synthetic_id}; ///< beyond 32-bit ids
    std::mutex m_graph_mutex; ///< guards m_graph_regions (launching and activity threads)
    /// NVTX path of each cuGraphLaunch by its correlation id, which its kernel records share.
    std::unordered_map<std::uint64_t, std::uint32_t> m_graph_regions;
    std::deque<std::uint64_t> m_graph_order; ///< m_graph_regions' ids, oldest first
};

template <class Fn> void CuptiBackend::with_sink(Fn&& fn) noexcept {
    if (m_stopping.load(std::memory_order_acquire)) {
        return;
    }
    if (!m_lifecycle.lock_shared_for(k_stop_wait)) {
        return; // stop() holds it, and no sink call may begin after stop()
    }
    struct Leave {
        SampleLock& lock;
        ~Leave() { lock.unlock_shared(); }
    } leave{m_lifecycle};
    if (m_sink != nullptr && !m_stopping.load(std::memory_order_acquire)) {
        fn(*m_sink);
    }
}

} // namespace irf::intercept::cupti

// SPDX-License-Identifier: Apache-2.0
// The collector: intercept's LaunchSink. Decides per launch (filters, sampler) from a per-function
// cache, records every launch in per-thread logs, attributes durations and counters, and builds
// the profile's kernels and coverage at exit.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "common/repeats.hpp"
#include "config/env.hpp"
#include "intercept/backend.hpp"
#include "intercept/call_site.hpp"
#include "intercept/kernel_filter.hpp"
#include "intercept/launch_log.hpp"
#include "intercept/nvtx_filter.hpp"
#include "intercept/record_skips.hpp"
#include "intercept/sampler.hpp"
#include "intercept/stable_pool.hpp"
#include "model/profile/profile.hpp"

namespace irf::intercept {

/// Running min/total/max of durations in nanoseconds.
struct DurationAccumulator {
    std::uint64_t count = 0;
    double total = 0, min = 0, max = 0;
    double m2 = 0; ///< squared deviations from the mean, summed (Welford): their spread
    /// Adds one duration.
    void add(double ns) noexcept;
};

/// Why launches of a kernel ran without counters, one bit each (named in collector_record.cpp).
enum UnprofiledWhy : std::uint16_t {
    k_why_filtered = 1u << 0, ///< IRF_KERNELS does not match
    k_why_excluded = 1u << 1, ///< IRF_EXCLUDE matches
    k_why_graph = 1u << 2,    ///< launched as a CUDA graph node
    k_why_nvtx = 1u << 3,     ///< IRF_NVTX_INCLUDE / IRF_NVTX_EXCLUDE
    k_why_range = 1u << 4,    ///< outside the cudaProfilerStart/Stop capture range
    k_why_off = 1u << 5,      ///< the backend's counters were off
    k_why_skip = 1u << 6,     ///< IRF_LAUNCH_SKIP
    k_why_budget = 1u << 7,   ///< IRF_LAUNCH_COUNT used up
    k_why_samples0 = 1u << 8, ///< IRF_SAMPLES=0
    k_why_once = 1u << 9,     ///< a first launch under IRF_REPLAY=launches
    k_why_recur = 1u << 10,   ///< a sample by launches given up (did not recur, pass refused)
};

/// One kernel's launches under one NVTX range path.
struct RegionStats {
    std::uint64_t launches = 0;
    /// Summed durations of its timed, unprofiled launches and the own durations (counters'
    /// gpu__time_duration) of its profiled ones.
    double time_ns = 0;
    std::uint64_t measured_timed = 0; ///< profiled launches with own duration and a replay record
    double measured_replay_ns = 0;    ///< those launches' replay-pass durations
    std::uint64_t profiled = 0;       ///< samples after the kernel's first launch
    std::uint64_t cold_profiled = 0;  ///< provisional first-launch samples
    DurationAccumulator warm;         ///< its unprofiled launches after the kernel's first
    DurationAccumulator replayed;     ///< its profiled launches' replay-pass durations
    DurationAccumulator own;          ///< its profiled launches' own durations after the first
};

/// Everything known about one distinct kernel (demangled name + launch configuration).
/// Sampling state is atomic; the rest is guarded by the collector's aggregation lock.
struct KernelStats {
    std::string name;
    std::string mangled;
    model::LaunchConfig launch;
    RawStack call_stack; ///< of the first launch of this configuration
    SampleState sampling;
    std::uint64_t launches = 0;
    DurationAccumulator warm;         ///< unprofiled launches after each function's first
    DurationAccumulator own;          ///< own durations of profiled launches after the first
    DurationAccumulator cold;         ///< first launches (lazy module load inside)
    DurationAccumulator replayed;     ///< profiled launches (kernel replay): out of time stats
    DurationAccumulator passes;       ///< of them, launches that ran a pass (IRF_REPLAY)
    model::Counters counters;         ///< summed over samples after the first launch
    std::uint64_t profiled = 0;       ///< samples in `counters`
    std::uint64_t launch_samples = 0; ///< of them, gathered one pass per launch (IRF_REPLAY)
    std::uint64_t pass_launches = 0;  ///< the launches those samples' passes ran on
    std::uint64_t held_samples = 0;   ///< its samples by launches waiting (collector_replay.cpp)
    double profiled_ns = 0;           ///< activity durations of those samples
    model::Counters cold_counters;    ///< the provisional first-launch sample(s)
    std::uint64_t cold_profiled = 0;  ///< samples in `cold_counters`
    double cold_profiled_ns = 0;      ///< activity durations of those samples
    std::map<std::uint32_t, RegionStats> regions; ///< by NVTX path id (nvtx_stack.hpp)
    std::uint16_t unprofiled_why = 0;             ///< UnprofiledWhy bits over its launches
    bool collective = false;                      ///< matches IRF_EXCLUDE's default list
    std::vector<model::DurationCluster> clusters; ///< its launches' durations after the first
    int cluster_requests = 0;                     ///< extra samples asked for its clusters
    /// Tensor-types samples (IRF_TENSOR_TYPES=auto): tensor ops by type and tensor instructions.
    model::Counters tensor_counters;
    std::uint64_t tensor_profiled = 0; ///< samples in `tensor_counters`
    bool tensor_requested = false;     ///< a tensor-types sample was asked for (once per kernel)
    bool declined_listed = false;      ///< in the collector's m_declined (under m_agg_mutex)
    /// The launch path's "saturated" caches of the configurations that count here (several
    /// modules may hold one kernel): cleared when a cluster asks for a sample. Under m_mutex.
    std::vector<std::atomic<bool>*> saturated_caches;
};

/// Counts for the exit log line and the tests.
struct CollectorStats {
    std::uint64_t launches = 0;            ///< launches intercepted (drained so far)
    std::uint64_t profile_decisions = 0;   ///< launches answered "profile"
    std::uint64_t samples = 0;             ///< counter samples received
    std::uint64_t skipped = 0;             ///< launches skipped by IRF_LAUNCH_SKIP
    std::uint64_t dropped = 0;             ///< launches lost (log allocation failed)
    std::uint64_t unmatched_durations = 0; ///< durations whose launch was never seen
    std::uint64_t lost_durations = 0;      ///< launches whose duration never came (retired)
    std::uint64_t counted_only = 0;        ///< launches past the bound on waiting ones: counts only
    std::uint64_t aggregate_durations = 0; ///< their durations, matched in aggregate only
    std::uint64_t pending = 0;             ///< launches still waiting for a duration or counters
    std::uint64_t unmatched_samples = 0;   ///< samples whose launch was never seen
    std::uint64_t invalid_durations = 0;   ///< records with zero or reversed timestamps
    std::uint64_t discarded = 0;           ///< samples discarded (all reasons)
    std::uint64_t declined = 0;            ///< chosen launches the backend ran unprofiled
    std::uint64_t skipped_records = 0;     ///< records of untimed launches (IRF_TIMING) dropped
};

/// The LaunchSink that libirf.so installs. Thread-safe; no member throws into a backend.
class Collector final : public LaunchSink {
public:
    /// A launch still without its duration once the record of a launch made this many launches
    /// later (by correlation id) has come is retired as lost. CUPTI completes a buffer every
    /// ~20,000 records (intercept/cupti/activity.cpp), so 2^17 is more than six buffers behind:
    /// such a record is not coming. Counted in ids, not time, so a backlog is never "lost".
    static constexpr std::uint64_t k_lost_after = std::uint64_t{1} << 17;

    /// Launches a thread logs between two tries to drain the logs from the launch path, so that
    /// they are drained while no record comes (a power of two).
    static constexpr std::uint64_t k_drain_every = 4096;

    /// Compiles the filters (throws std::invalid_argument on an invalid one; parse_env refuses
    /// them). `lost_after`: see k_lost_after (smaller in tests); it also bounds the launches
    /// waiting for a record (`max_pending`: that bound, when not 0).
    explicit Collector(const config::Config& config, std::uint64_t lost_after = k_lost_after,
                       std::uint64_t max_pending = 0);
    ~Collector() override;
    Collector(const Collector&) = delete;
    Collector& operator=(const Collector&) = delete;

    /// Hot path: cached per-function decision, sampler, one append to this thread's log.
    LaunchDecision on_launch(const LaunchEvent& event) noexcept override;
    void on_counters(const CounterSample& sample) noexcept override;
    void on_duration(const DurationRecord& record) noexcept override;
    void on_warning(const std::string& message) noexcept override;
    void on_discarded_sample(std::uint64_t correlation_id, const char* reason) noexcept override;
    void on_sample_declined(std::uint64_t correlation_id, const char* reason) noexcept override;
    /// From now on no launch is chosen for profiling (the backend's counters are off).
    void on_profiling_off() noexcept override;
    /// A pass launch of a sample by launches: profiled, at its own duration (collector_replay.cpp).
    void on_sample_pass(std::uint64_t correlation_id, std::uint64_t sample_id) noexcept override;
    /// A sample by launches given up: counted as a discard, asked again by kernel replay.
    void on_sample_abandoned(std::uint64_t sample_id, const char* reason) noexcept override;
    /// A sample by launches that could not begin: the launch is ordinary, the sample asked again.
    void on_sample_deferred(std::uint64_t correlation_id) noexcept override;
    /// The kernels whose samples were declined without a reason (busy counters) ask again.
    void on_counters_back() noexcept override;
    /// From now on unprofiled launches are counted per kernel instead of logged.
    void on_timing_stopped() noexcept override;
    /// From now on unprofiled launches are logged for their durations again.
    void on_timing_resumed() noexcept override;
    /// Opens or closes the capture range (IRF_CAPTURE_RANGE=cudaProfilerApi); outside it
    /// launches are only timed. Without a capture range it does nothing.
    void on_profiler_range(bool started) noexcept override;

    /// Fills `profile.kernels` (sorted by total time), `coverage` (passes excepted) and appends
    /// the collector's warnings. Call after the backend's flush.
    void fill_profile(model::Profile& profile);

    /// From now on launches are answered time_only and not recorded: finalization has begun and
    /// threads still launching must not change what is being written out.
    void stop_recording() noexcept;

    /// Current counts (drains the logs first).
    [[nodiscard]] CollectorStats stats();

private:
    struct Variant;
    struct Function;
    /// A function's names, kept apart from its Function so that the launch path reads less.
    struct FunctionNames {
        std::string name;    ///< demangled
        std::string mangled; ///< as the backend gave it
    };
    struct Pending {
        KernelStats* stats = nullptr;
        bool cold = false;
        bool profiled = false;
        bool timed = false;
        bool counted = false;
        bool measured = false;     ///< its counters carried its own duration
        std::uint32_t region = 0;  ///< NVTX path id at launch
        double replay_ns = 0;      ///< its activity duration (profiled: one replay pass)
        bool tensor_types = false; ///< profiled with the tensor-types set only
        /// Ran a later pass of a sample by launches (IRF_REPLAY): once, as launched, under
        /// counters, so its activity duration is its own (collector_replay.cpp).
        bool pass = false;
    };
    /// A duration that came before its launch was drained, kept until it matches or is stale.
    struct EarlyDuration {
        DurationRecord record;
        std::uint64_t since = 0; ///< launches drained when it came
    };

    Function* find_function(const void* handle, std::uint64_t epoch) const noexcept;
    Function* add_function(const LaunchEvent& event) noexcept;
    static Variant* find_variant(Function& function,
                                 const std::array<std::uint32_t, 8>& key) noexcept;
    Variant* add_variant(Function& function, const LaunchEvent& event) noexcept;
    LaunchLog* register_thread() noexcept;
    /// Takes every logged launch into m_pending; `sweep`: retire overdue ones when it is time.
    void drain_locked(bool sweep = true);
    /// Drains from the launch path when nobody else is (never waits for the lock).
    void try_drain() noexcept;
    /// One drained launch: counted, then kept for its record unless the bound is reached.
    void admit_locked(const LaunchLogEntry& entry);
    /// Counts a launch past the bound on waiting launches (one line the first time).
    void count_only_locked();
    /// A record of no waiting launch while counted-only launches wait: summed in aggregate.
    bool aggregate_locked(const DurationRecord& record);
    /// The profile's line on launches counted only, and their share of lost durations.
    void add_bound_warnings_locked(model::Profile& profile) const;
    bool apply_duration_locked(const DurationRecord& record);
    bool apply_counters_locked(const CounterSample& sample);
    void retire_locked(std::uint64_t correlation_id, Pending& pending);
    Pending* pending_locked(std::uint64_t correlation_id);
    void unprofile_locked(std::uint64_t correlation_id);
    void note_declined_locked(std::uint64_t correlation_id);
    void resolve_discarded_locked(std::uint64_t correlation_id);
    void retire_untimed_locked(std::uint64_t correlation_id);
    bool replayed_without_timestamps_locked(const DurationRecord& record);
    /// Launches counted only, by kernel: untimed by IRF_TIMING=sampled (`estimated`), else
    /// launched after kernel timing stopped.
    std::map<const KernelStats*, std::uint64_t> counted_launches_locked(bool estimated) const;
    /// IRF_TIMING=sampled: true when this unprofiled launch of `variant` goes untimed (counted
    /// for an estimate, its record dropped on arrival).
    bool skip_timing(Variant& variant) noexcept;
    void retire_stale_locked();
    /// Keeps retired launch `id` (unprofiled, untimed) for a record that may still come.
    void remember_late_locked(std::uint64_t id, const Pending& pending);
    /// Counts `record` for a launch retired as lost; false when it is not one.
    bool apply_late_locked(const DurationRecord& record);
    /// An unprofiled launch's duration: its region's time, warm or cold accumulator, clusters,
    /// and the samples by launches waiting for its kernel's unprofiled durations.
    void add_unprofiled_duration_locked(const Pending& pending, double ns);
    /// Moves the newest-timed mark to `correlation_id` when it is a newer CUPTI id (wrap-safe).
    void note_timed_locked(std::uint64_t correlation_id);
    static bool is_synthetic_id(std::uint64_t correlation_id) noexcept;
    /// Keeps a sample by launches until its pass launches are timed; false when it cannot.
    bool hold_locked(const CounterSample& sample);
    /// A pass launch's duration came: its sample waits for one record fewer.
    void note_pass_duration_locked(std::uint64_t correlation_id);
    /// Applies held sample `sample_id` once complete: discarded when its kernel's unprofiled
    /// launches spread over more than one duration cluster (several shapes merged).
    void release_if_ready_locked(std::uint64_t sample_id);
    /// Releases the held samples of `stats` that waited for its unprofiled durations.
    void release_waiting_locked(const KernelStats& stats);
    /// Applies every held sample that has its counters (at exit: records that never came).
    void release_held_locked();
    /// Accounts a profiled launch's own duration from its counters (gpu__time_duration).
    void apply_own_time_locked(Pending& pending, double ns);
    /// Clusters an unprofiled launch's duration; asks for a sample when its cluster has none.
    void cluster_duration_locked(KernelStats& stats, double ns);
    /// Asks for a tensor-types sample of `stats` when `counters` show tensor instructions
    /// without their per-type ops (IRF_TENSOR_TYPES=auto), once per kernel.
    void request_tensor_types_locked(KernelStats& stats, const model::Counters& counters);
    /// Lets the launch path choose launches of `stats` again (a cluster sample was asked for).
    void unsaturate_locked(const KernelStats& stats);
    /// Why launches of a selected function are not profiled now (0: the sampler decides).
    std::uint16_t state_why(bool graph, std::uint32_t region) const noexcept;
    /// Applies a duration or counter sample that came before the launch `correlation_id`.
    void apply_early_locked(std::uint64_t correlation_id);
    bool stopped_and_drained_locked();

    const std::uint64_t m_id; ///< distinguishes collectors in thread-local caches
    const int m_callstack;
    KernelFilter m_filter;
    Sampler m_sampler;
    NvtxFilter m_nvtx;
    /// IRF_TENSOR_TYPES=auto without IRF_METRICS=tensor_types: tensor kernels get a second sample.
    const bool m_tensor_types_auto;
    const bool m_capture_range;                ///< IRF_CAPTURE_RANGE=cudaProfilerApi
    std::atomic<bool> m_in_range;              ///< profiling allowed now (always without a range)
    std::atomic<bool> m_range_opened{false};   ///< cudaProfilerStart was seen
    std::atomic<bool> m_counters_off{false};   ///< the backend can profile nothing any more
    std::atomic<bool> m_timing_stopped{false}; ///< no kernel record comes any more
    const std::uint64_t m_timing_first;        ///< IRF_TIMING=sampled:K:N: K
    const std::uint64_t m_timing_every;        ///< N; 0 under IRF_TIMING=all
    /// Records of untimed launches to drop (IRF_TIMING=sampled only; else null).
    std::unique_ptr<RecordSkips> m_skips;
    std::atomic<std::uint64_t> m_skipped_records{0};

    // Per-function cache: fixed buckets of lock-free lists, written under m_mutex. Functions
    // and variants lie together in pools: a launch reads its function's (stable_pool.hpp).
    std::unique_ptr<std::atomic<Function*>[]> m_buckets;
    std::mutex m_mutex; ///< slow path: new functions, variants, threads
    StablePool<Function> m_functions;
    StablePool<FunctionNames> m_function_names;
    StablePool<Variant> m_variants;
    std::map<std::tuple<std::string, std::array<std::uint32_t, 8>>, std::unique_ptr<KernelStats>>
        m_kernels;
    std::vector<std::unique_ptr<LaunchLog>> m_logs;
    std::atomic<std::uint64_t> m_profile_decisions{0};
    std::atomic<std::uint64_t> m_dropped{0};
    std::atomic<bool> m_recording{true};
    std::atomic<bool> m_late_graph_nodes{false};   ///< graph nodes logged after stop_recording
    std::atomic<std::uint64_t> m_untimed_total{0}; ///< every Variant::untimed together
    bool m_final_drain_done = false;               ///< drained once after stop_recording

    // Aggregation (durations, counters, warnings), off the application's launch path.
    std::mutex m_agg_mutex;
    std::unordered_map<std::uint64_t, Pending> m_pending;
    std::unordered_map<std::uint64_t, EarlyDuration> m_early_durations;
    std::unordered_map<std::uint64_t, CounterSample> m_early_samples;
    /// A sample by launches until its pass launches are timed (collector_replay.cpp).
    struct HeldSample {
        CounterSample sample;
        bool arrived = false;         ///< its counters came
        std::uint64_t untimed = 0;    ///< its pass launches still without a duration
        KernelStats* stats = nullptr; ///< its kernel (null: retired before it came)
        std::uint64_t warm_goal = 0;  ///< unprofiled durations of the kernel it waits for
        bool final = false;           ///< at exit: applied with what is known
    };
    std::unordered_map<std::uint64_t, HeldSample> m_held;       ///< by sample id
    std::unordered_map<std::uint64_t, std::uint64_t> m_pass_of; ///< pass launch -> sample id
    common::RepeatCounter m_warnings;                 ///< each text once, with times it came
    std::map<std::string, std::uint64_t> m_discarded; ///< reason -> samples
    std::vector<KernelStats*> m_declined;             ///< a sample declined without a reason since
    CollectorStats m_stats;
    // Memory bound: pending launches m_lost_after ids behind the newest duration, and early
    // durations older than m_lost_after drained launches, are retired (counted), swept once
    // every m_lost_after launches.
    const std::uint64_t m_lost_after;
    // Hard bound on m_pending's launches that were not profiled: past it a drained launch is
    // counted for its kernel only (m_counted_only) and a record of no waiting launch is summed
    // in aggregate (m_aggregate_*), so memory stays bounded when records never come (issue 51).
    const std::uint64_t m_max_pending;
    std::uint64_t m_counted_only = 0;
    std::uint64_t m_aggregate_timed = 0;
    double m_aggregate_ns = 0;
    std::uint64_t m_next_sweep;
    std::uint64_t m_unmatched_retired = 0; ///< early durations retired without their launch
    /// Unprofiled launches retired as lost, by correlation id, oldest first in m_late_order: a
    /// record that comes after all is still counted (collector_retire.cpp). Bounded.
    std::unordered_map<std::uint64_t, Pending> m_late;
    std::deque<std::uint64_t> m_late_order;
    std::uint64_t m_newest_timed = 0; ///< newest CUPTI id whose duration came (32-bit serial)
    bool m_have_newest_timed = false; ///< m_newest_timed is set
};

} // namespace irf::intercept

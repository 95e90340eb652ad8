// SPDX-License-Identifier: Apache-2.0
// Samples collected one pass per launch (CUPTI user replay, IRF_REPLAY; docs/cupti-notes.md,
// "One pass per launch"). A sink between the backend and the collector: a profile_launches
// launch begins a sample on its context's profiler, and each later launch of the same
// configuration, which the collector answered time_only, is turned into the sample's next pass.
// When every pass is in, the merged counters go to the collector as the first launch's; a
// sample whose configuration does not recur within a bound, or whose pass is refused, is given
// up (the collector then samples the kernel by kernel replay).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "intercept/backend.hpp"
#include "intercept/cupti/profiler_seam.hpp"

namespace irf::intercept::cupti {

/// Launches (all kernels of the process) within which a sample's configuration must recur
/// before the sample is given up: about 60 steps of a 272-launch training step, and well below
/// the collector's bound on a launch waiting for its counters (Collector::k_lost_after). It is
/// checked when a launch of a function with an open sample, or a new sample, comes (and at
/// flush), so a sample whose kernel never comes back ends at exit.
constexpr std::uint64_t k_recur_bound = std::uint64_t{1} << 14;

/// Samples by launches open at once; past it a new sample is taken by kernel replay. Each holds
/// a counter-data image (a few kilobytes to a few hundred).
constexpr std::size_t k_max_open_samples = 64;

/// A sample given up because its context's profiler was torn down and set up again meanwhile
/// (idle release, another metric set, another context): its image belongs to the old one.
inline constexpr const char* k_discard_profiler_reset = "profiler_reset";

/// The LaunchSink the CUPTI backend calls; forwards everything to the collector and steers
/// samples by launches. Thread-safe. Every LaunchSink call must be forwarded here: a new one
/// left out would be swallowed (test_cupti_passes checks each).
class PassSink final : public LaunchSink {
public:
    PassSink() noexcept;
    /// Forwards to `inner` from now on; `launches` counts the backend's launches (the bound's
    /// clock). Call before any launch.
    void attach(LaunchSink* inner, const std::atomic<std::uint64_t>* launches) noexcept;
    /// The recurrence bound in launches (k_recur_bound unless a test sets another).
    void set_bound(std::uint64_t launches) noexcept { m_bound = launches; }

    /// What start_profiler does with a launch of SampleSet::launches.
    enum class Armed : std::uint8_t {
        pass,   ///< `profiler` is armed with the sample's next pass: start it
        kernel, ///< profile it by kernel replay (no room for a sample, or no user replay)
        none,   ///< its sample is gone: decline the launch
    };
    /// Arms `profiler` for launch `correlation_id` of the calling thread (chosen by on_launch).
    Armed arm(RangeProfiler& profiler, std::uint64_t correlation_id) noexcept;
    /// Gives up every sample not in a pass now (flush: no launch will complete them).
    void close_all() noexcept;
    /// Samples open now.
    [[nodiscard]] std::size_t open_samples() const noexcept { return m_open_count.load(); }

    LaunchDecision on_launch(const LaunchEvent& event) noexcept override;
    void on_counters(const CounterSample& sample) noexcept override;
    void on_duration(const DurationRecord& record) noexcept override {
        m_inner->on_duration(record);
    }
    void on_warning(const std::string& message) noexcept override { m_inner->on_warning(message); }
    void on_profiler_range(bool started) noexcept override { m_inner->on_profiler_range(started); }
    void on_discarded_sample(std::uint64_t correlation_id, const char* reason) noexcept override;
    void on_sample_declined(std::uint64_t correlation_id, const char* reason) noexcept override;
    void on_profiling_off() noexcept override;
    void on_timing_stopped() noexcept override { m_inner->on_timing_stopped(); }
    void on_timing_resumed() noexcept override { m_inner->on_timing_resumed(); }
    void on_sample_pass(std::uint64_t correlation_id, std::uint64_t sample_id) noexcept override {
        m_inner->on_sample_pass(correlation_id, sample_id);
    }
    void on_sample_abandoned(std::uint64_t sample_id, const char* reason) noexcept override {
        m_inner->on_sample_abandoned(sample_id, reason);
    }
    void on_sample_deferred(std::uint64_t correlation_id) noexcept override {
        m_inner->on_sample_deferred(correlation_id);
    }
    void on_counters_back() noexcept override { m_inner->on_counters_back(); }

private:
    /// Context id, function and launch configuration: what one sample stands for.
    using Key = std::array<std::uint64_t, 10>;
    struct Open {
        std::uint64_t sample_id = 0; ///< correlation id of the launch that began it
        std::uint64_t launches = 1;  ///< launches its passes ran on
        std::uint64_t last = 0;      ///< the launch clock at its last pass
        bool busy = false;           ///< a thread is between choosing and ending a pass of it
        PassSample passes;
    };
    static Key key_of(const LaunchEvent& event) noexcept;
    LaunchDecision route(const LaunchEvent& event, LaunchDecision decision) noexcept;
    /// Refreshes m_functions and m_open_count after m_open changed (m_mutex held).
    void note_open_locked() noexcept;
    /// Takes out samples idle past the bound (m_mutex held); their ids go to `overdue`.
    void sweep_locked(std::vector<std::uint64_t>& overdue);
    /// The calling thread's open sample of launch `correlation_id` taken out (its pass failed);
    /// returns its sample id.
    std::uint64_t drop_current(std::uint64_t correlation_id) noexcept;
    /// Takes out every sample no thread is in a pass of; returns their sample ids.
    std::vector<std::uint64_t> take_idle() noexcept;
    std::uint64_t now() const noexcept;

    const std::uint64_t m_serial; ///< tells this sink's thread-local state from another's
    LaunchSink* m_inner = nullptr;
    const std::atomic<std::uint64_t>* m_launches = nullptr;
    std::uint64_t m_bound = k_recur_bound;
    mutable std::mutex m_mutex;
    std::map<Key, std::unique_ptr<Open>> m_open;
    std::atomic<std::size_t> m_open_count{0}; ///< m_open.size(), read without the lock
    /// A bit per function with an open sample (hashed, 1,024 bits): a time_only launch of
    /// another function passes without the lock.
    static constexpr std::size_t k_function_words = 16;
    std::array<std::atomic<std::uint64_t>, k_function_words> m_functions{};
};

} // namespace irf::intercept::cupti

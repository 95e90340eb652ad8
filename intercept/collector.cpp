// SPDX-License-Identifier: Apache-2.0
// The collector's launch path: per-function cache, sampler, per-thread log.
#include "intercept/collector.hpp"

#include <algorithm>
#include <cstring>

#include "common/demangle.hpp"
#include "common/inside_irf.hpp"
#include "common/log.hpp"
#include "intercept/nvtx_stack.hpp"

namespace irf::intercept {
namespace {

constexpr std::size_t k_bucket_bits = 14;
constexpr std::size_t k_buckets = std::size_t{1} << k_bucket_bits;

/// Frames of irf itself between the application and capture_call_stack's caller.
constexpr int k_own_frames = 2; // add_variant, on_launch

std::atomic<std::uint64_t> s_next_collector_id{1};

/// The calling thread's log for the collector `owner` (ids are never reused, so a thread that
/// outlives a collector never writes into a freed log).
struct ThreadSlot {
    std::uint64_t owner = 0;
    LaunchLog* log = nullptr;
    std::uint64_t appended = 0; ///< launches this thread logged (drain tries: k_drain_every)
};
thread_local ThreadSlot t_slot;

std::size_t bucket_of(const void* handle) noexcept {
    const auto bits = reinterpret_cast<std::uintptr_t>(handle);
    return static_cast<std::size_t>((bits * 0x9E3779B97F4A7C15ull) >> (64 - k_bucket_bits));
}

std::array<std::uint32_t, 8> config_key(const model::LaunchConfig& c) noexcept {
    return {c.grid[0],  c.grid[1],  c.grid[2],    c.block[0],
            c.block[1], c.block[2], c.smem_bytes, c.regs};
}

/// Equal keys, compared inline: std::array's == called memcmp, a tenth of a warm launch.
bool same_key(const std::array<std::uint32_t, 8>& a,
              const std::array<std::uint32_t, 8>& b) noexcept {
    std::uint32_t differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        differ |= a[i] ^ b[i];
    }
    return differ == 0;
}

} // namespace

/// One (function, launch configuration) pair, pointing at its kernel's stats. `saturated` caches
/// "this kernel needs no more samples", so the hot path skips the sampler and never touches the
/// stats' cache line.
struct Collector::Variant {
    std::atomic<bool> saturated{false};
    std::array<std::uint32_t, 8> key{};
    std::atomic<KernelStats*> stats{nullptr}; ///< published last (release): key is valid then
    Variant* next = nullptr;
    std::atomic<std::uint64_t> untimed{0};    ///< launches counted after kernel timing stopped
    std::atomic<std::uint64_t> timing_seq{0}; ///< unprofiled launches (IRF_TIMING=sampled)
    std::atomic<std::uint64_t> estimated{0};  ///< of them, untimed: in the total at an estimate
};

/// One CUfunction: its filter decision, computed once, and its configurations. The first
/// configuration is stored inline so that the usual launch reads this and no other object.
struct alignas(64) Collector::Function {
    const void* handle = nullptr;
    std::uint64_t epoch = 0; ///< module epoch: a reused handle after an unload is a new function
    bool selected = false;
    std::uint16_t refused_why = 0; ///< k_why_filtered or k_why_excluded when not selected
    bool collective = false;
    std::atomic<bool> launched{false};
    Variant first;
    std::atomic<Variant*> more{nullptr}; ///< further configurations
    Function* next = nullptr;            ///< bucket chain
    const FunctionNames* names = nullptr;
};

void DurationAccumulator::add(double ns) noexcept {
    min = count == 0 ? ns : std::min(min, ns);
    max = count == 0 ? ns : std::max(max, ns);
    const double before = count == 0 ? 0 : total / static_cast<double>(count);
    total += ns;
    ++count;
    m2 += (ns - before) * (ns - total / static_cast<double>(count));
}

Collector::Collector(const config::Config& config, std::uint64_t lost_after,
                     std::uint64_t max_pending)
    : m_id(s_next_collector_id.fetch_add(1)), m_callstack(config.callstack),
      m_filter(config.kernels, config.exclude),
      m_sampler(config.samples, config.launch_skip, config.launch_count, config.replay),
      m_nvtx(config.nvtx_include, config.nvtx_exclude),
      m_tensor_types_auto(config.tensor_types_auto && !config.metrics_tensor_types),
      m_capture_range(config.capture_profiler_api), m_in_range(!config.capture_profiler_api),
      m_timing_first(config.timing_first),
      m_timing_every(config.timing == config::TimingMode::sampled
                         ? std::max<std::uint64_t>(config.timing_every, 1)
                         : 0),
      m_skips(m_timing_every > 1 ? std::make_unique<RecordSkips>() : nullptr),
      m_buckets(new std::atomic<Function*>[k_buckets]),
      m_lost_after(std::max<std::uint64_t>(lost_after, 1)),
      m_max_pending(max_pending > 0 ? max_pending : m_lost_after), m_next_sweep(m_lost_after) {
    for (std::size_t i = 0; i < k_buckets; ++i) {
        m_buckets[i].store(nullptr, std::memory_order_relaxed);
    }
    // Two cache lines a kernel: 4,096 kernels' functions take 512 KiB together.
    static_assert(sizeof(Function) <= 128, "a Function outgrew two cache lines");
}

Collector::~Collector() = default;

Collector::Function* Collector::find_function(const void* handle,
                                              std::uint64_t epoch) const noexcept {
    for (Function* f = m_buckets[bucket_of(handle)].load(std::memory_order_acquire); f != nullptr;
         f = f->next) {
        if (f->handle == handle && f->epoch == epoch) {
            return f;
        }
    }
    return nullptr;
}

Collector::Function* Collector::add_function(const LaunchEvent& event) noexcept {
    const common::InsideIrf inside; // holds m_mutex on an application thread: see on_warning
    try {
        const std::lock_guard<std::mutex> lock(m_mutex);
        if (Function* existing = find_function(event.function, event.module_epoch)) {
            return existing;
        }
        std::string mangled = event.mangled != nullptr ? event.mangled : "";
        std::string name = common::demangle(event.mangled);
        const KernelFilter::Refusal refusal = m_filter.refusal(name); // regexes run once
        const bool collective = m_filter.collective(name);
        FunctionNames& names = m_function_names.add(); // unused if the next add throws
        names.name = std::move(name);
        names.mangled = std::move(mangled);
        Function& fn = m_functions.add();
        fn.handle = event.function;
        fn.epoch = event.module_epoch;
        fn.names = &names;
        fn.selected = refusal == KernelFilter::Refusal::none;
        fn.refused_why = refusal == KernelFilter::Refusal::not_matched ? k_why_filtered
                         : refusal == KernelFilter::Refusal::excluded  ? k_why_excluded
                                                                       : 0;
        fn.collective = collective;
        std::atomic<Function*>& bucket = m_buckets[bucket_of(event.function)];
        fn.next = bucket.load(std::memory_order_relaxed);
        bucket.store(&fn, std::memory_order_release);
        return &fn;
    } catch (...) {
        return nullptr;
    }
}

Collector::Variant* Collector::find_variant(Function& function,
                                            const std::array<std::uint32_t, 8>& key) noexcept {
    KernelStats* first = function.first.stats.load(std::memory_order_acquire);
    if (first != nullptr && same_key(function.first.key, key)) {
        return &function.first;
    }
    for (Variant* v = function.more.load(std::memory_order_acquire); v != nullptr; v = v->next) {
        if (same_key(v->key, key)) {
            return v;
        }
    }
    return nullptr;
}

__attribute__((noinline)) Collector::Variant*
Collector::add_variant(Function& function, const LaunchEvent& event) noexcept {
    try {
        const auto key = config_key(event.launch);
        // A graph node is reported from CUPTI's activity thread: its stack is not the
        // application's launch site (and unwinding there costs that thread, not the app).
        RawStack stack = event.graph ? RawStack{} : capture_call_stack(m_callstack, k_own_frames);
        const common::InsideIrf inside;
        const std::lock_guard<std::mutex> lock(m_mutex);
        if (Variant* v = find_variant(function, key)) {
            return v;
        }
        // Out of memory below leaves m_kernels as it was (the profile writer reads every entry).
        auto kernel_key = std::make_tuple(function.names->name, key);
        const auto found = m_kernels.find(kernel_key);
        std::unique_ptr<KernelStats> fresh;
        if (found == m_kernels.end()) {
            fresh = std::make_unique<KernelStats>();
            fresh->name = function.names->name;
            fresh->mangled = function.names->mangled;
            fresh->launch = event.launch;
            fresh->call_stack = std::move(stack);
            fresh->collective = function.collective;
        }
        KernelStats* stats = fresh ? fresh.get() : found->second.get();
        const bool first = function.first.stats.load(std::memory_order_relaxed) == nullptr;
        Variant& variant = first ? function.first : m_variants.add(); // a pool slot left unused
        stats->saturated_caches.push_back(&variant.saturated);        // (zero counts) on a throw
        if (fresh) {
            m_kernels.emplace(std::move(kernel_key), std::move(fresh));
        }
        variant.key = key;
        if (first) {
            function.first.stats.store(stats, std::memory_order_release);
            return &function.first;
        }
        variant.stats.store(stats, std::memory_order_relaxed);
        variant.next = function.more.load(std::memory_order_relaxed);
        function.more.store(&variant, std::memory_order_release);
        return &variant;
    } catch (...) {
        return nullptr;
    }
}

LaunchLog* Collector::register_thread() noexcept {
    const common::InsideIrf inside;
    try {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_logs.push_back(std::make_unique<LaunchLog>());
        t_slot = {m_id, m_logs.back().get()};
        return t_slot.log;
    } catch (...) {
        return nullptr;
    }
}

void Collector::stop_recording() noexcept {
    m_recording.store(false, std::memory_order_relaxed);
}

LaunchDecision Collector::on_launch(const LaunchEvent& event) noexcept {
    const bool recording = m_recording.load(std::memory_order_relaxed);
    if (!recording && !event.graph) {
        // Finalizing: the launch runs, unrecorded. A graph node is reported from its activity
        // record, which the final flush may deliver only now: it ran before, so it counts.
        return LaunchDecision::time_only;
    }
    Function* fn = find_function(event.function, event.module_epoch);
    if (fn == nullptr && (fn = add_function(event)) == nullptr) {
        m_dropped.fetch_add(1, std::memory_order_relaxed);
        return LaunchDecision::time_only;
    }
    const auto key = config_key(event.launch);
    Variant* variant = find_variant(*fn, key);
    if (variant == nullptr && (variant = add_variant(*fn, event)) == nullptr) {
        m_dropped.fetch_add(1, std::memory_order_relaxed);
        return LaunchDecision::time_only;
    }
    KernelStats* stats = variant->stats.load(std::memory_order_relaxed);
    // exchange only on the first launch: afterwards this is a plain load of a shared line.
    const bool cold = !fn->launched.load(std::memory_order_relaxed) &&
                      !fn->launched.exchange(true, std::memory_order_relaxed);
    const std::uint32_t region = event.region_given ? event.region : nvtx::current_path();
    LaunchDecision decision = LaunchDecision::time_only;
    std::uint16_t why = fn->refused_why;
    if (fn->selected && !variant->saturated.load(std::memory_order_relaxed)) {
        why = state_why(event.graph, region);
        if (why == 0) {
            SkipReason skip = SkipReason::none;
            decision = m_sampler.decide(stats->sampling, cold, skip);
            why = skip == SkipReason::launch_skip    ? k_why_skip
                  : skip == SkipReason::budget_spent ? k_why_budget
                  : skip == SkipReason::samples_off  ? k_why_samples0
                  : skip == SkipReason::first_launch ? k_why_once
                                                     : 0;
            if (decision == LaunchDecision::time_only && m_sampler.saturated(stats->sampling)) {
                variant->saturated.store(true, std::memory_order_seq_cst);
                // A sample asked for meanwhile (unsaturate_locked) must not be lost.
                if (Sampler::requested(stats->sampling)) {
                    variant->saturated.store(false, std::memory_order_relaxed);
                }
            }
        }
    }
    if (event.untimed) {
        variant->estimated.fetch_add(1, std::memory_order_relaxed); // as IRF_TIMING=sampled's
        return decision;
    }
    if (decision == LaunchDecision::time_only && m_timing_stopped.load(std::memory_order_relaxed)) {
        // No duration will come: a count, not a log entry that would wait forever.
        variant->untimed.fetch_add(1, std::memory_order_relaxed);
        m_untimed_total.fetch_add(1, std::memory_order_relaxed);
        return decision;
    }
    if (m_skips && !is_synthetic_id(event.correlation_id)) {
        // Also marks a timed or profiled launch, clearing a bit an older launch left.
        const bool skip = decision == LaunchDecision::time_only && skip_timing(*variant);
        m_skips->mark(event.correlation_id, skip);
        if (skip) {
            return decision; // counted for its kernel's estimate; its record dropped on arrival
        }
    }
    LaunchLog* log = t_slot.owner == m_id ? t_slot.log : register_thread();
    if (log == nullptr ||
        !log->append({event.correlation_id, stats, cold, decision, why, region})) {
        m_dropped.fetch_add(1, std::memory_order_relaxed);
        return LaunchDecision::time_only; // unattributable: do not spend a counter range on it
    }
    if (profiles(decision)) {
        m_profile_decisions.fetch_add(1, std::memory_order_relaxed);
    }
    if ((++t_slot.appended & (k_drain_every - 1)) == 0) {
        try_drain(); // records may not come for a long time: the log must not keep growing
    }
    if (!recording) {
        m_late_graph_nodes.store(true, std::memory_order_release); // its duration drains it
    }
    return decision;
}

std::uint16_t Collector::state_why(bool graph, std::uint32_t region) const noexcept {
    if (graph) {
        return k_why_graph;
    }
    if (!m_in_range.load(std::memory_order_relaxed)) {
        return k_why_range;
    }
    if (m_counters_off.load(std::memory_order_relaxed)) {
        return k_why_off;
    }
    return m_nvtx.allows(region) ? 0 : k_why_nvtx;
}

void Collector::on_profiler_range(bool started) noexcept {
    if (!m_capture_range) {
        return;
    }
    if (started) {
        m_range_opened.store(true, std::memory_order_relaxed);
    }
    m_in_range.store(started, std::memory_order_relaxed);
}

void Collector::on_timing_stopped() noexcept {
    m_timing_stopped.store(true, std::memory_order_relaxed);
}

void Collector::on_timing_resumed() noexcept {
    m_timing_stopped.store(false, std::memory_order_relaxed);
}

/// The first K unprofiled launches of a configuration are timed, then one in N: the (K+1)th,
/// (K+1+N)th, ... A first launch (K = 0 too) is always timed.
bool Collector::skip_timing(Variant& variant) noexcept {
    const std::uint64_t seq = variant.timing_seq.fetch_add(1, std::memory_order_relaxed);
    const bool skip = seq >= m_timing_first && (seq - m_timing_first) % m_timing_every != 0;
    if (skip) {
        variant.estimated.fetch_add(1, std::memory_order_relaxed);
    }
    return skip;
}

std::map<const KernelStats*, std::uint64_t>
Collector::counted_launches_locked(bool estimated) const {
    std::map<const KernelStats*, std::uint64_t> counts;
    const auto add = [&counts, estimated](const Variant& v) {
        const std::uint64_t n =
            (estimated ? v.estimated : v.untimed).load(std::memory_order_relaxed);
        if (n > 0) {
            counts[v.stats.load(std::memory_order_acquire)] += n;
        }
    };
    for (std::size_t i = 0; i < m_functions.size(); ++i) {
        add(m_functions[i].first);
    }
    for (std::size_t i = 0; i < m_variants.size(); ++i) {
        add(m_variants[i]);
    }
    return counts;
}

void Collector::unsaturate_locked(const KernelStats& stats) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    for (std::atomic<bool>* saturated : stats.saturated_caches) {
        saturated->store(false, std::memory_order_seq_cst);
    }
}

void Collector::on_warning(const std::string& message) noexcept {
    // Every section that takes the collector's locks on an application thread is marked: a
    // fatal signal landing there gives the profile up at once, where the finalizer would wait
    // for a lock that the stopped thread never releases (inject/lifecycle.cpp).
    const common::InsideIrf inside;
    try {
        {
            // A repeated warning is kept once with its count (the profile says "(xN)").
            const std::lock_guard<std::mutex> lock(m_agg_mutex);
            static_cast<void>(m_warnings.add(message));
        }
        // The log writes the first and counts the repeats (common/log.hpp).
        common::log_line(config::LogLevel::warn, message);
    } catch (...) {
    }
}

} // namespace irf::intercept

// SPDX-License-Identifier: Apache-2.0
// Samples collected one pass per launch (intercept/cupti/pass_samples.hpp). Each launch of a pass
// runs on its own thread from the launch's ENTER to its EXIT under the device's sample lock, so
// the thread keeps what it chose in `t_pass_choice`; other threads only look samples up, and never
// touch one that is `busy`.
#include "intercept/cupti/pass_samples.hpp"

#include <algorithm>

namespace irf::intercept::cupti {
namespace {

std::atomic<std::uint64_t> s_next_sink{1};
std::atomic<std::uint64_t> s_next_profiler{1};

enum class PassKind : std::uint8_t {
    none,
    begin,  ///< a profile_launches launch: begins a sample
    pass,   ///< a later launch of an open sample's configuration: its next pass
    kernel, ///< a profile_launches launch profiled by kernel replay instead
};

/// What the calling thread's launch was chosen for, between its ENTER and its EXIT.
struct PassChoice {
    std::uint64_t sink = 0; ///< the PassSink that chose it
    std::uint64_t id = 0;   ///< the launch's correlation id
    PassKind kind = PassKind::none;
    bool armed = false;   ///< the profiler was armed with its pass
    void* open = nullptr; ///< its PassSink::Open
    std::array<std::uint64_t, 10> key{};
};
thread_local PassChoice t_pass_choice;

/// Where `function` sits in PassSink's bit set of the functions with an open sample: 1,024 bits,
/// so that with all 64 samples open about one launch in 16 of another kernel takes the lock
/// (with 64 bits nearly all did: docs/performance.md).
struct FunctionBit {
    std::size_t word;
    std::uint64_t bit;
};
FunctionBit function_bit(std::uint64_t function) noexcept {
    const auto index = static_cast<std::size_t>((function * 0x9E3779B97F4A7C15ull) >> 54);
    return {index / 64, std::uint64_t{1} << (index % 64)};
}

/// True when the calling thread's launch `id` was chosen by the sink numbered `sink`.
bool is_chosen(std::uint64_t sink, std::uint64_t id) noexcept {
    return t_pass_choice.sink == sink && t_pass_choice.id == id &&
           t_pass_choice.kind != PassKind::none;
}

} // namespace

RangeProfiler::RangeProfiler() noexcept : m_serial(s_next_profiler.fetch_add(1)) {}

PassSink::PassSink() noexcept : m_serial(s_next_sink.fetch_add(1)) {}

void PassSink::attach(LaunchSink* inner, const std::atomic<std::uint64_t>* launches) noexcept {
    m_inner = inner;
    m_launches = launches;
}

std::uint64_t PassSink::now() const noexcept {
    return m_launches != nullptr ? m_launches->load(std::memory_order_relaxed) : 0;
}

PassSink::Key PassSink::key_of(const LaunchEvent& e) noexcept {
    const model::LaunchConfig& c = e.launch;
    return {e.context,    reinterpret_cast<std::uintptr_t>(e.function),
            c.grid[0],    c.grid[1],
            c.grid[2],    c.block[0],
            c.block[1],   c.block[2],
            c.smem_bytes, c.regs};
}

LaunchDecision PassSink::on_launch(const LaunchEvent& event) noexcept {
    const LaunchDecision d = m_inner->on_launch(event);
    // Graph nodes come from activity records (not launched now). The common case costs one
    // relaxed load: a time_only launch of a function with no open sample.
    const auto function = reinterpret_cast<std::uintptr_t>(event.function);
    const FunctionBit at = function_bit(function);
    const bool maybe_open = (m_functions[at.word].load(std::memory_order_relaxed) & at.bit) != 0;
    if (event.graph || (d == LaunchDecision::time_only && !maybe_open) ||
        d == LaunchDecision::profile ||
        (d == LaunchDecision::profile_tensor_types &&
         m_open_count.load(std::memory_order_relaxed) == 0)) {
        return d;
    }
    return route(event, d);
}

LaunchDecision PassSink::route(const LaunchEvent& event, LaunchDecision d) noexcept {
    std::vector<std::uint64_t> overdue;
    LaunchDecision out = d;
    bool deferred = false;
    try {
        const std::lock_guard<std::mutex> lock(m_mutex);
        sweep_locked(overdue);
        PassChoice c;
        c.sink = m_serial;
        c.id = event.correlation_id;
        c.key = key_of(event);
        const auto it = m_open.find(c.key);
        const bool context_busy = std::any_of(m_open.begin(), m_open.end(), [&](const auto& e) {
            return e.first[0] == event.context;
        });
        const bool open = it != m_open.end();
        if (d == LaunchDecision::profile_launches && !open) {
            c.kind = m_open.size() >= k_max_open_samples ? PassKind::kernel : PassKind::begin;
        } else if (d == LaunchDecision::profile_tensor_types && context_busy) {
            // The tensor-types set would tear down the profiler these samples run on.
            deferred = true;
            out = LaunchDecision::time_only;
        } else if (d == LaunchDecision::profile_launches || d == LaunchDecision::time_only) {
            // One sample of a configuration at a time: a second one waits (deferred), and the
            // launch runs the open one's next pass instead.
            deferred = d == LaunchDecision::profile_launches;
            out = LaunchDecision::time_only;
            if (open && !it->second->busy) {
                it->second->busy = true;
                c.kind = PassKind::pass;
                c.open = it->second.get();
                out = LaunchDecision::profile_launches;
            }
        }
        if (c.kind != PassKind::none) {
            t_pass_choice = c;
        }
    } catch (...) { // out of memory: decided as the collector did
    }
    if (deferred) {
        m_inner->on_sample_deferred(event.correlation_id);
    }
    for (const std::uint64_t id : overdue) {
        m_inner->on_sample_abandoned(id, k_discard_not_recurred);
    }
    return out;
}

void PassSink::note_open_locked() noexcept {
    std::array<std::uint64_t, k_function_words> mask{};
    for (const auto& entry : m_open) {
        const FunctionBit at = function_bit(entry.first[1]);
        mask[at.word] |= at.bit;
    }
    for (std::size_t i = 0; i < k_function_words; ++i) {
        m_functions[i].store(mask[i], std::memory_order_relaxed);
    }
    m_open_count.store(m_open.size(), std::memory_order_relaxed);
}

void PassSink::sweep_locked(std::vector<std::uint64_t>& overdue) {
    const std::uint64_t clock = now();
    for (auto it = m_open.begin(); it != m_open.end();) {
        if (!it->second->busy && clock - it->second->last > m_bound) {
            overdue.push_back(it->second->sample_id);
            it = m_open.erase(it);
        } else {
            ++it;
        }
    }
    note_open_locked();
}

PassSink::Armed PassSink::arm(RangeProfiler& profiler, std::uint64_t correlation_id) noexcept {
    PassChoice& c = t_pass_choice;
    if (!is_chosen(m_serial, correlation_id) || c.kind == PassKind::kernel) {
        return Armed::kernel;
    }
    const char* why = nullptr;
    std::uint64_t gone = 0;
    try {
        const std::lock_guard<std::mutex> lock(m_mutex);
        if (c.kind == PassKind::begin && m_open.count(c.key) != 0) {
            // Another thread's launch began a sample of this configuration after this one was
            // chosen (the device's sample lock kept them apart): this one is a kernel replay.
            c.kind = PassKind::kernel;
            return Armed::kernel;
        }
        if (c.kind == PassKind::begin) {
            auto open = std::make_unique<Open>();
            open->sample_id = correlation_id;
            open->last = now();
            open->busy = true;
            open->passes.profiler = profiler.serial();
            if (!profiler.arm_pass(open->passes).ok()) {
                c.kind = PassKind::kernel; // no user replay here: a kernel replay instead
                return Armed::kernel;
            }
            c.open = open.get();
            c.armed = true;
            m_open[c.key] = std::move(open);
            note_open_locked();
            return Armed::pass;
        }
        auto* open = static_cast<Open*>(c.open);
        const bool same = open->passes.profiler == profiler.serial();
        if (same && profiler.arm_pass(open->passes).ok()) {
            c.armed = true;
            return Armed::pass;
        }
        why = same ? k_discard_pass_refused : k_discard_profiler_reset;
        gone = open->sample_id;
        m_open.erase(c.key);
        note_open_locked();
        c.open = nullptr; // the launch is declined next: nothing left to release
    } catch (...) {
        return c.kind == PassKind::begin ? Armed::kernel : Armed::none;
    }
    m_inner->on_sample_abandoned(gone, why);
    return Armed::none;
}

std::uint64_t PassSink::drop_current(std::uint64_t correlation_id) noexcept {
    PassChoice& c = t_pass_choice;
    std::uint64_t sample_id = correlation_id;
    const std::lock_guard<std::mutex> lock(m_mutex);
    const auto it = m_open.find(c.key);
    if (it != m_open.end() && it->second.get() == c.open) {
        sample_id = it->second->sample_id;
        m_open.erase(it);
        note_open_locked();
    }
    return sample_id;
}

void PassSink::on_counters(const CounterSample& sample) noexcept {
    PassChoice& c = t_pass_choice;
    if (!is_chosen(m_serial, sample.correlation_id) || !c.armed) {
        m_inner->on_counters(sample);
        return;
    }
    const bool is_pass = c.kind == PassKind::pass;
    bool complete = false;
    std::uint64_t sample_id = 0;
    CounterSample merged;
    try {
        const std::lock_guard<std::mutex> lock(m_mutex);
        auto* open = static_cast<Open*>(c.open);
        sample_id = open->sample_id;
        open->launches += is_pass ? 1 : 0;
        complete = open->passes.complete;
        if (complete) {
            merged = sample;
            merged.correlation_id = sample_id;
            merged.by_launches = true;
            merged.launches = open->launches;
            m_open.erase(c.key);
            note_open_locked();
        } else {
            open->busy = false;
            open->last = now();
        }
    } catch (...) { // out of memory copying the counters: the sample is lost
        sample_id = drop_current(sample.correlation_id);
        complete = false;
        m_inner->on_discarded_sample(sample_id, "counters_lost");
    }
    t_pass_choice = {};
    m_inner->on_sample_pass(sample.correlation_id, sample_id); // the first launch's too
    if (complete) {
        m_inner->on_counters(merged);
    }
}

void PassSink::on_discarded_sample(std::uint64_t correlation_id, const char* reason) noexcept {
    const PassChoice c = t_pass_choice;
    if (!is_chosen(m_serial, correlation_id) || !c.armed) {
        m_inner->on_discarded_sample(correlation_id, reason);
        return;
    }
    // A pass ran but its window was spoilt (or Stop failed): the sample goes, as a kernel
    // replay's would.
    const std::uint64_t sample_id = drop_current(correlation_id);
    t_pass_choice = {};
    m_inner->on_sample_pass(correlation_id, sample_id); // it ran, unreplayed, under counters
    m_inner->on_discarded_sample(sample_id, reason);
}

void PassSink::on_sample_declined(std::uint64_t correlation_id, const char* reason) noexcept {
    const PassChoice c = t_pass_choice;
    if (!is_chosen(m_serial, correlation_id) || c.kind != PassKind::pass) {
        const bool refused = is_chosen(m_serial, correlation_id) && c.armed;
        if (refused) { // the first pass's Start was refused (user replay unavailable?)
            static_cast<void>(drop_current(correlation_id));
        }
        t_pass_choice = {};
        m_inner->on_sample_declined(correlation_id, reason);
        if (refused) { // the kernel falls back to kernel replay
            m_inner->on_sample_abandoned(correlation_id, k_discard_pass_refused);
        }
        return;
    }
    // The collector answered time_only for a pass launch: nothing to tell it about the launch.
    if (c.armed) { // Start refused the pass: the passes so far cannot be completed
        const std::uint64_t sample_id = drop_current(correlation_id);
        t_pass_choice = {};
        m_inner->on_sample_abandoned(sample_id, k_discard_pass_refused);
        return;
    }
    t_pass_choice = {};
    if (c.open != nullptr) { // declined before any pass ran (lock wait, capture): it waits on
        const std::lock_guard<std::mutex> lock(m_mutex);
        static_cast<Open*>(c.open)->busy = false;
    }
}

std::vector<std::uint64_t> PassSink::take_idle() noexcept {
    std::vector<std::uint64_t> gone;
    try {
        const std::lock_guard<std::mutex> lock(m_mutex);
        for (auto it = m_open.begin(); it != m_open.end();) {
            if (it->second->busy) {
                ++it;
                continue;
            }
            gone.push_back(it->second->sample_id);
            it = m_open.erase(it);
        }
        note_open_locked();
    } catch (...) {
    }
    return gone;
}

void PassSink::on_profiling_off() noexcept {
    m_inner->on_profiling_off();
    for (const std::uint64_t id : take_idle()) {
        m_inner->on_discarded_sample(id, "counters_lost"); // no pass can run any more
    }
}

void PassSink::close_all() noexcept {
    for (const std::uint64_t id : take_idle()) {
        m_inner->on_sample_abandoned(id, k_discard_not_recurred);
    }
}

} // namespace irf::intercept::cupti

// SPDX-License-Identifier: Apache-2.0
// Samples by launches in the fake backend (intercept/fake/fake_passes.hpp).
#include "intercept/fake/fake_passes.hpp"

#include <algorithm>

namespace irf::intercept::fake {

FakePasses::FakePasses(int passes, std::uint64_t bound) noexcept
    : m_passes(std::max(passes, 1)), m_bound(bound) {}

FakePasses::Key FakePasses::key_of(const LaunchEvent& e) noexcept {
    const model::LaunchConfig& c = e.launch;
    return {reinterpret_cast<std::uintptr_t>(e.function),
            c.grid[0],
            c.grid[1],
            c.grid[2],
            c.block[0],
            c.block[1],
            c.block[2],
            c.smem_bytes,
            c.regs};
}

PassOutcome FakePasses::begin(const LaunchEvent& event, const ScriptLaunch& launch) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    ++m_launches;
    const Key key = key_of(event);
    if (m_open.count(key) != 0) {
        PassOutcome out = next_locked(event, launch);
        out.deferred = true;
        return out;
    }
    Open& open = m_open[key];
    open.sample_id = event.correlation_id;
    return run_pass(open, launch, key);
}

PassOutcome FakePasses::next(const LaunchEvent& event, const ScriptLaunch& launch) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    ++m_launches;
    return next_locked(event, launch);
}

PassOutcome FakePasses::next_locked(const LaunchEvent& event, const ScriptLaunch& launch) {
    const Key key = key_of(event);
    const auto it = m_open.find(key);
    if (it == m_open.end()) {
        return {};
    }
    if (launch.refuse_pass) {
        // CUPTI refused Start for this pass: the passes so far cannot be completed.
        PassOutcome out;
        out.kind = PassOutcome::Kind::abandoned;
        out.sample_id = it->second.sample_id;
        m_open.erase(it);
        return out;
    }
    return run_pass(it->second, launch, key);
}

// Counter i (by name) is read in pass i % passes, from the launch that runs that pass: a kernel
// whose launches differ gives a sample mixed from them, as user replay does.
PassOutcome FakePasses::run_pass(Open& open, const ScriptLaunch& launch, const Key& key) {
    int index = 0;
    for (const auto& [name, value] : launch.counters) {
        if (index++ % m_passes == open.next_pass) {
            open.counters[name] = value;
        }
    }
    open.extra_ranges = open.extra_ranges || launch.ranges != 1;
    open.seen = m_launches;
    PassOutcome out;
    out.kind = PassOutcome::Kind::pass;
    out.sample_id = open.sample_id;
    if (++open.next_pass < m_passes) {
        return out;
    }
    if (open.extra_ranges) {
        out.discard = "extra_ranges"; // a pass window held another launch, or none
    } else {
        CounterSample sample;
        sample.correlation_id = open.sample_id;
        sample.counters = std::move(open.counters);
        sample.passes = m_passes;
        sample.by_launches = true;
        sample.launches = static_cast<std::uint64_t>(m_passes);
        out.completed = std::move(sample);
    }
    m_open.erase(key);
    return out;
}

bool FakePasses::any_open() {
    const std::lock_guard<std::mutex> lock(m_mutex);
    return !m_open.empty();
}

std::vector<std::uint64_t> FakePasses::overdue() {
    const std::lock_guard<std::mutex> lock(m_mutex);
    std::vector<std::uint64_t> out;
    for (auto it = m_open.begin(); it != m_open.end();) {
        if (m_launches > it->second.seen + m_bound) {
            out.push_back(it->second.sample_id);
            it = m_open.erase(it);
        } else {
            ++it;
        }
    }
    return out;
}

std::vector<std::uint64_t> FakePasses::close_all() {
    const std::lock_guard<std::mutex> lock(m_mutex);
    std::vector<std::uint64_t> out;
    for (const auto& [key, open] : m_open) {
        static_cast<void>(key);
        out.push_back(open.sample_id);
    }
    m_open.clear();
    return out;
}

model::Counters tensor_types_sample(const ScriptLaunch& launch) {
    if (!launch.tensor_counters.empty()) {
        return launch.tensor_counters;
    }
    model::Counters part;
    for (const auto& [name, value] : launch.counters) {
        if (name.rfind("tensor_ops_", 0) == 0 || name == "inst_tensor" || name == "time_ns") {
            part[name] = value;
        }
    }
    return part;
}

} // namespace irf::intercept::fake

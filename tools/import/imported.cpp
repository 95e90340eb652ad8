// SPDX-License-Identifier: Apache-2.0
// Choosing among foreign names and summing launches into kernels (docs/import.md, "Rules").
#include "tools/import/imported.hpp"

#include <algorithm>

#include "common/kernel_identity.hpp"

namespace irf::import {

void LaunchCounters::offer(const std::string& name, const config::ForeignMetric& metric,
                           double value) {
    auto it = m_best.find(metric.canonical);
    if (it == m_best.end() || metric.rank < it->second.metric.rank) {
        m_best[metric.canonical] = Candidate{metric, value, {name}};
        return;
    }
    Candidate& best = it->second;
    // A name seen twice (the same value in two sections of a details page) counts once; names
    // of one rank are the parts of one binding and add up.
    if (metric.rank == best.metric.rank && best.names.insert(name).second) {
        best.value += value;
    }
}

namespace {

// Requested bytes of global loads and stores from an efficiency and the sectors of the same
// launch (docs/import.md, "Requested bytes"): bytes = bytes per sector x sectors, the reverse of
// how ncu and nvprof compute the efficiency. A file's own byte counters win; the efficiency
// never reaches the profile.
void derive_requested_bytes(model::Counters& counters, std::set<std::string>& notes) {
    struct Derivation {
        const char* per_sector;
        const char* sectors;
        const char* bytes;
    };
    for (const Derivation& d :
         {Derivation{config::k_bytes_per_sector_ld, "sectors_global_ld", "bytes_global_ld"},
          Derivation{config::k_bytes_per_sector_st, "sectors_global_st", "bytes_global_st"}}) {
        const auto it = counters.find(d.per_sector);
        if (it == counters.end()) {
            continue;
        }
        const double per_sector = it->second;
        counters.erase(it);
        const auto sectors = counters.find(d.sectors);
        if (counters.count(d.bytes) > 0 || sectors == counters.end()) {
            continue;
        }
        counters[d.bytes] = per_sector * sectors->second;
        notes.insert(std::string("import: ") + d.bytes + " (requested bytes, the global wall's " +
                     "access width) = efficiency / 100 x 32 x " + d.sectors);
    }
}

} // namespace

model::Counters LaunchCounters::resolve(std::set<std::string>& notes) const {
    model::Counters out;
    for (const auto& [canonical, best] : m_best) {
        // A total stands for its split only when no part of the split was given.
        const auto& partners = best.metric.zero_partners;
        const bool split_given = std::any_of(partners.begin(), partners.end(),
                                             [&](const auto& p) { return m_best.count(p) > 0; });
        if (split_given) {
            continue;
        }
        out[canonical] = best.value;
        for (const std::string& partner : partners) {
            out[partner] = 0;
        }
        if (!best.metric.note.empty()) {
            notes.insert("import: " + best.metric.note);
        }
    }
    derive_requested_bytes(out, notes);
    return out;
}

std::string kernel_key(const std::string& name, const std::optional<model::LaunchConfig>& launch) {
    // ncu's and nvprof's spellings of one symbol join (docs/tools.md, "Which kernels are the
    // same").
    std::string key = common::canonical_kernel_name(name);
    if (!launch) {
        return key;
    }
    key += "|";
    for (const auto v : launch->grid) {
        key += std::to_string(v) + ",";
    }
    for (const auto v : launch->block) {
        key += std::to_string(v) + ",";
    }
    return key;
}

KernelTable::Accumulator& KernelTable::entry(const LaunchRead& launch) {
    const std::string key = kernel_key(launch.name, launch.launch);
    const auto [it, added] = m_index.emplace(key, m_kernels.size());
    if (added) {
        Accumulator a;
        a.kernel.name = launch.name;
        a.kernel.launch = launch.launch;
        a.kernel.line = launch.line;
        m_kernels.push_back(std::move(a));
    }
    return m_kernels[it->second];
}

namespace {

void add_time(std::optional<model::TimeStats>& stats, std::uint64_t& count, double ns) {
    if (!stats) {
        stats = model::TimeStats{0, ns, 0, ns};
    }
    stats->total += ns;
    stats->min = std::min(stats->min, ns);
    stats->max = std::max(stats->max, ns);
    ++count;
    stats->mean = stats->total / static_cast<double>(count);
}

} // namespace

void KernelTable::add_launch(LaunchRead launch) {
    Accumulator& a = entry(launch);
    ImportedKernel& k = a.kernel;
    ++k.launches;
    k.notes.insert(launch.notes.begin(), launch.notes.end());
    if (launch.duration_ns) {
        add_time(k.time_ns, a.timed, *launch.duration_ns);
    }
    if (launch.counters.empty()) {
        return;
    }
    ++k.profiled_launches;
    for (const auto& [name, value] : launch.counters) {
        k.counters[name] += value;
        ++a.counter_launches[name];
    }
    if (launch.duration_ns) {
        a.profiled_ns += *launch.duration_ns;
        ++a.profiled_timed;
    }
}

void KernelTable::add_summary(LaunchRead identity, std::uint64_t invocations,
                              const model::Counters& averages,
                              std::optional<model::TimeStats> time) {
    Accumulator& a = entry(identity);
    ImportedKernel& k = a.kernel;
    k.notes.insert(identity.notes.begin(), identity.notes.end());
    k.launches = std::max(k.launches, invocations);
    if (time) {
        k.time_ns = time;
        a.timed = invocations;
    }
    if (averages.empty()) {
        return;
    }
    // Summary averages are per launch: the sum over the profiled launches is average x count.
    k.profiled_launches = std::max(k.profiled_launches, invocations);
    for (const auto& [name, average] : averages) {
        k.counters[name] = average * static_cast<double>(invocations);
        a.counter_launches[name] = k.profiled_launches;
    }
    if (time) {
        a.profiled_ns = time->mean * static_cast<double>(invocations);
        a.profiled_timed = k.profiled_launches;
    }
}

std::vector<ImportedKernel> KernelTable::finish() {
    std::vector<ImportedKernel> out;
    for (Accumulator& a : m_kernels) {
        ImportedKernel& k = a.kernel;
        for (auto it = k.counters.begin(); it != k.counters.end();) {
            const std::uint64_t seen = a.counter_launches[it->first];
            if (seen < k.profiled_launches) {
                k.notes.insert("import: " + it->first + " left out: in " + std::to_string(seen) +
                               " of " + std::to_string(k.profiled_launches) + " profiled launches");
                it = k.counters.erase(it);
            } else {
                ++it;
            }
        }
        // Rates are averaged over the launches, as libirf does (docs/output-schema.md).
        if (const auto clock = k.counters.find("clock_hz");
            clock != k.counters.end() && k.profiled_launches > 0) {
            clock->second /= static_cast<double>(k.profiled_launches);
        }
        if (k.profiled_launches > 0 && a.profiled_timed == k.profiled_launches) {
            k.counters["time_ns"] = a.profiled_ns;
        }
        out.push_back(std::move(k));
    }
    return out;
}

} // namespace irf::import

// SPDX-License-Identifier: Apache-2.0
// irf-report merge: rank profiles of one job -> one job profile with per-rank statistics.
#include "tools/irf_report/tools_merge.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

#include "model/profile_json.hpp"
#include "model/regions.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {

namespace {

// Differences between two inputs that make a merge meaningless (different machines or models).
std::vector<std::string> differences(const model::Profile& first, const std::string& first_file,
                                     const model::Profile& other, const std::string& file) {
    std::vector<std::string> out;
    const auto gpu_id = [](const model::GpuInfo& g) { return g.name + "|" + g.chip + "|" + g.cc; };
    if (gpu_id(first.gpu) != gpu_id(other.gpu)) {
        out.push_back(file + ": GPU " + describe_gpu(other.gpu) + " differs from " +
                      describe_gpu(first.gpu) + " in " + first_file);
    }
    const std::string c1 = first.ceilings ? first.ceilings->name : "(none)";
    const std::string c2 = other.ceilings ? other.ceilings->name : "(none)";
    if (c1 != c2) {
        out.push_back(file + ": analysed with ceilings '" + c2 + "', " + first_file + " with '" +
                      c1 + "'");
    }
    if (first.version != other.version) {
        out.push_back(file + ": written by irf " + other.version + ", " + first_file + " by irf " +
                      first.version);
    }
    return out;
}

/// Refuses one run given twice (the same file twice, or a copy): same host, pid and start time
/// (rank-less profiles with a start time are compared). A rank-less profile takes its input
/// position as rank and would otherwise be counted twice.
void refuse_same_run_twice(const std::vector<model::Profile>& inputs,
                           const std::vector<std::string>& files) {
    std::map<std::string, std::string> seen;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const model::Profile& p = inputs[i];
        if (p.rank || p.start_time.empty()) { // ranked ones: a repeated rank is refused below
            continue;
        }
        const std::string run = p.host + "|" + std::to_string(p.pid) + "|" + p.start_time;
        if (const auto it = seen.find(run); it != seen.end()) {
            throw InputError(files[i] + ": the same run as " + it->second +
                             " (host, pid and start time); each profile counts once");
        }
        seen[run] = files[i];
    }
}

std::vector<int> assign_ranks(const std::vector<model::Profile>& inputs,
                              const std::vector<std::string>& files) {
    refuse_same_run_twice(inputs, files);
    std::vector<int> ranks;
    std::map<int, std::string> seen;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        // A profile written outside a parallel job has no rank: its input position stands in.
        const int rank = inputs[i].rank ? *inputs[i].rank : static_cast<int>(i);
        if (const auto it = seen.find(rank); it != seen.end()) {
            throw InputError(files[i] + ": rank " + std::to_string(rank) + " is also " +
                             it->second + " (the same rank given twice?)");
        }
        seen[rank] = files[i];
        ranks.push_back(rank);
    }
    return ranks;
}

/// Sums that would wrap (counts) or reach infinity (times, which JSON cannot hold) stop at the
/// largest value instead, and `saturated` says that it happened.
struct Saturating {
    bool saturated = false;

    void add(std::uint64_t& sum, std::uint64_t value) {
        const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
        saturated = saturated || value > max - sum;
        sum = value > max - sum ? max : sum + value;
    }

    void add(double& sum, double value) {
        const double result = sum + value;
        saturated = saturated || !std::isfinite(result);
        sum = std::isfinite(result) ? result : (result > 0 ? DBL_MAX : -DBL_MAX);
    }
};

// One kernel of the job while it is being merged.
struct Pending {
    model::KernelRecord record;
    std::vector<model::RankShare> ranks;
    std::map<int, const model::KernelRecord*> by_rank;
};

/// The statistics of `present` (the ranks that ran it), every other rank of the job at 0.
model::RankStats over_all_ranks(std::vector<model::RankShare> present,
                                const std::vector<int>& job_ranks) {
    for (const int rank : job_ranks) {
        if (std::none_of(present.begin(), present.end(),
                         [rank](const model::RankShare& r) { return r.rank == rank; })) {
            present.push_back({rank, 0, 0});
        }
    }
    return model::rank_stats(std::move(present));
}

/// Each NVTX region's per-rank statistics, from the launches and time of the region's kernels
/// in each rank's own profile.
void add_region_ranks(model::Profile& job, const std::vector<model::Profile>& inputs,
                      const std::vector<int>& ranks) {
    std::map<std::string, std::map<int, model::RankShare>> by_path;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        for (const model::KernelRecord& k : inputs[i].kernels) {
            for (const model::KernelRegion& r : k.regions) {
                model::RankShare& share = by_path[r.path][ranks[i]];
                share.rank = ranks[i];
                share.launches += r.launches;
                share.time_ns += r.time_ns;
            }
        }
    }
    for (model::RegionRecord& region : job.regions) {
        std::vector<model::RankShare> present;
        for (const auto& [rank, share] : by_path[region.path]) {
            present.push_back(share);
        }
        region.ranks = over_all_ranks(std::move(present), ranks);
    }
}

/// "0-3, 5, 7-8": sorted ranks with runs written as ranges.
std::string rank_ranges(std::vector<int> ranks) {
    std::sort(ranks.begin(), ranks.end());
    std::string out;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) {
            ++j;
        }
        out += (out.empty() ? "" : ", ") + std::to_string(ranks[i]) +
               (j > i ? "-" + std::to_string(ranks[j]) : "");
        i = j + 1;
    }
    return out;
}

/// The ranks' warnings, each distinct text once ("ranks 0-3: ..." rather than one per rank), in
/// the order first seen; a text of a single rank reads "rank N: ...".
std::vector<std::string> fold_rank_warnings(const std::vector<model::Profile>& inputs,
                                            const std::vector<int>& ranks) {
    std::vector<std::pair<std::string, std::vector<int>>> folded;
    std::unordered_map<std::string, std::size_t> index; // text -> position in folded
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        for (const std::string& w : inputs[i].warnings) {
            const auto [at, added] = index.emplace(w, folded.size());
            if (added) {
                folded.push_back({w, {ranks[i]}});
            } else if (folded[at->second].second.back() != ranks[i]) { // inputs come rank by rank
                folded[at->second].second.push_back(ranks[i]);
            }
        }
    }
    std::vector<std::string> out;
    for (const auto& [text, where] : folded) {
        out.push_back((where.size() == 1 ? "rank " : "ranks ") + rank_ranges(where) + ": " + text);
    }
    return out;
}

// Sums a rank's launches, time and profiled launches per NVTX path into the job's kernel.
void add_regions(std::vector<model::KernelRegion>& into,
                 const std::vector<model::KernelRegion>& from) {
    for (const model::KernelRegion& r : from) {
        const auto same =
            std::find_if(into.begin(), into.end(),
                         [&r](const model::KernelRegion& x) { return x.path == r.path; });
        if (same == into.end()) {
            into.push_back(r);
        } else {
            same->launches += r.launches;
            same->time_ns += r.time_ns;
            same->profiled_launches += r.profiled_launches;
        }
    }
}

void add_kernel(Pending& p, const model::KernelRecord& k, int rank, Saturating& sums) {
    model::KernelRecord& r = p.record;
    if (p.by_rank.empty()) {
        r = k;
        r.regions.clear();
        r.launches = r.profiled_launches = 0;
        r.time_ns = {};
        r.time_ns.min = k.time_ns.min;
    }
    sums.add(r.launches, k.launches);
    sums.add(r.profiled_launches, k.profiled_launches);
    sums.add(r.time_ns.total, k.time_ns.total);
    add_regions(r.regions, k.regions);
    r.time_ns.min = std::min(r.time_ns.min, k.time_ns.min);
    r.time_ns.max = std::max(r.time_ns.max, k.time_ns.max);
    p.ranks.push_back({rank, k.launches, k.time_ns.total});
    p.by_rank[rank] = &k;
}

} // namespace

model::Profile merge_profiles(const std::vector<model::Profile>& inputs,
                              const std::vector<std::string>& files, bool allow_mixed) {
    model::JobInfo info;
    info.files = files;
    info.ranks = assign_ranks(inputs, files);
    model::Profile job = inputs.front();
    job.kernels.clear();
    job.warnings.clear();
    job.rank.reset();
    job.coverage = {};
    for (std::size_t i = 1; i < inputs.size(); ++i) {
        for (const std::string& d : differences(inputs[0], files[0], inputs[i], files[i])) {
            if (!allow_mixed) {
                throw InputError(d + " (use --allow-mixed to merge anyway)");
            }
            job.warnings.push_back("merge: " + d);
        }
    }
    std::map<std::string, Pending> pending;
    std::vector<std::string> order;
    Saturating sums;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const model::Profile& p = inputs[i];
        job.start_time = std::min(job.start_time, p.start_time);
        job.end_time = std::max(job.end_time, p.end_time);
        sums.add(job.coverage.launches, p.coverage.launches);
        sums.add(job.coverage.profiled_launches, p.coverage.profiled_launches);
        sums.add(job.coverage.lost_durations, p.coverage.lost_durations);
        job.coverage.passes = std::max(job.coverage.passes, p.coverage.passes);
        for (const model::KernelRecord& k : p.kernels) {
            const std::string key = launch_key(k);
            if (pending.find(key) == pending.end()) {
                order.push_back(key);
            }
            add_kernel(pending[key], k, info.ranks[i], sums);
        }
    }
    for (std::string& w : fold_rank_warnings(inputs, info.ranks)) {
        job.warnings.push_back(std::move(w));
    }
    if (sums.saturated) {
        job.warnings.push_back("merge: launch counts or times too large to sum; capped at the "
                               "largest value (2^64-1 launches, 1.8e308 ns)");
    }
    for (const std::string& key : order) {
        Pending& p = pending[key];
        model::KernelRecord record = p.record;
        record.ranks = over_all_ranks(p.ranks, info.ranks);
        // All ranks at 0 ns can name a rank that never ran it: then the lowest that did.
        const auto named = p.by_rank.find(record.ranks->time_ns.max_rank);
        const model::KernelRecord& slowest =
            *(named != p.by_rank.end() ? named : p.by_rank.begin())->second;
        // The slowest rank decides the job's time, so its counters stand for the job.
        record.counters = slowest.counters;
        record.analysis = slowest.analysis;
        record.notes = slowest.notes;
        record.time_ns.mean =
            record.launches > 0 ? record.time_ns.total / static_cast<double>(record.launches) : 0;
        job.kernels.push_back(std::move(record));
    }
    job.coverage.kernels = job.kernels.size();
    // Regions across ranks: the slowest rank's counters (which stand for the job) are shared out
    // by each path's part of the profiled launches of all ranks.
    model::roll_up_regions(job);
    add_region_ranks(job, inputs, info.ranks);
    std::set<std::string> hosts;
    for (const model::Profile& p : inputs) {
        hosts.insert(p.host);
    }
    info.hosts.assign(hosts.begin(), hosts.end());
    job.job = std::move(info);
    return job;
}

} // namespace irf::report

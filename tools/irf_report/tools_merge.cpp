// SPDX-License-Identifier: Apache-2.0
// irf-report merge: rank profiles of one job -> one job profile with per-rank statistics.
#include "tools/irf_report/tools_merge.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "model/profile_json.hpp"
#include "model/regions.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {

RankStats rank_stats(std::vector<RankTime> ranks) {
    RankStats s;
    if (ranks.empty()) {
        return s;
    }
    std::sort(ranks.begin(), ranks.end(),
              [](const RankTime& a, const RankTime& b) { return a.rank < b.rank; });
    std::vector<double> times;
    long double sum = 0; // the sum of finite doubles stays finite in long double
    for (const RankTime& r : ranks) {
        times.push_back(r.time_ns);
        sum += r.time_ns;
        s.ranks_present += r.launches > 0 ? 1 : 0;
        // Strictly greater: on a tie the lowest rank is named.
        if (r.time_ns > s.max || (&r == &ranks.front())) {
            s.max = r.time_ns;
            s.slowest_rank = r.rank;
        }
    }
    std::sort(times.begin(), times.end());
    const std::size_t n = times.size();
    s.min = times.front();
    s.median = n % 2 == 1 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
    s.mean = static_cast<double>(sum / static_cast<long double>(n));
    if (s.mean > 0) {
        s.imbalance = s.max / s.mean;
    }
    s.per_rank = std::move(ranks);
    return s;
}

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
    std::vector<RankTime> ranks;
    std::map<int, const model::KernelRecord*> by_rank;
};

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

MergedJob merge_profiles(const std::vector<model::Profile>& inputs,
                         const std::vector<std::string>& files, bool allow_mixed) {
    MergedJob merged;
    merged.files = files;
    merged.ranks = assign_ranks(inputs, files);
    model::Profile& job = merged.job;
    job = inputs.front();
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
        const int rank = merged.ranks[i];
        job.start_time = std::min(job.start_time, p.start_time);
        job.end_time = std::max(job.end_time, p.end_time);
        sums.add(job.coverage.launches, p.coverage.launches);
        sums.add(job.coverage.profiled_launches, p.coverage.profiled_launches);
        job.coverage.passes = std::max(job.coverage.passes, p.coverage.passes);
        for (const std::string& w : p.warnings) {
            job.warnings.push_back("rank " + std::to_string(rank) + ": " + w);
        }
        for (const model::KernelRecord& k : p.kernels) {
            const std::string key = launch_key(k);
            if (pending.find(key) == pending.end()) {
                order.push_back(key);
            }
            add_kernel(pending[key], k, rank, sums);
        }
    }
    if (sums.saturated) {
        job.warnings.push_back("merge: launch counts or times too large to sum; capped at the "
                               "largest value (2^64-1 launches, 1.8e308 ns)");
    }
    for (const std::string& key : order) {
        Pending& p = pending[key];
        std::vector<RankTime> all = p.ranks;
        for (const int rank : merged.ranks) {
            if (p.by_rank.count(rank) == 0) {
                all.push_back({rank, 0, 0});
            }
        }
        RankStats stats = rank_stats(std::move(all));
        model::KernelRecord record = p.record;
        const model::KernelRecord& slowest = *p.by_rank.at(stats.slowest_rank);
        // The slowest rank decides the job's time, so its counters stand for the job.
        record.counters = slowest.counters;
        record.analysis = slowest.analysis;
        record.notes = slowest.notes;
        record.time_ns.mean =
            record.launches > 0 ? record.time_ns.total / static_cast<double>(record.launches) : 0;
        job.kernels.push_back(std::move(record));
        merged.stats.push_back(std::move(stats));
    }
    job.coverage.kernels = job.kernels.size();
    // Regions across ranks: the slowest rank's counters (which stand for the job) are shared out
    // by each path's part of the profiled launches of all ranks.
    model::roll_up_regions(job);
    std::set<std::string> hosts;
    for (const model::Profile& p : inputs) {
        hosts.insert(p.host);
    }
    merged.hosts.assign(hosts.begin(), hosts.end());
    return merged;
}

nlohmann::json merged_to_json(const MergedJob& merged) {
    nlohmann::json out = model::profile_to_json(merged.job);
    nlohmann::json job{{"ranks", merged.ranks}, {"files", merged.files}, {"hosts", merged.hosts}};
    for (std::size_t i = 0; i < merged.stats.size(); ++i) {
        const RankStats& s = merged.stats[i];
        nlohmann::json per_rank = nlohmann::json::array();
        for (const RankTime& r : s.per_rank) {
            per_rank.push_back(
                {{"rank", r.rank}, {"launches", r.launches}, {"time_ns", r.time_ns}});
        }
        out["kernels"][i]["ranks"] = {
            {"present", s.ranks_present},
            {"of", s.per_rank.size()},
            {"time_ns", {{"min", s.min}, {"median", s.median}, {"max", s.max}, {"mean", s.mean}}},
            {"imbalance", s.imbalance ? nlohmann::json(*s.imbalance) : nlohmann::json(nullptr)},
            {"slowest_rank", s.slowest_rank},
            {"per_rank", per_rank}};
    }
    out["job"] = job;
    return out;
}

} // namespace irf::report

// SPDX-License-Identifier: Apache-2.0
// irf-report merge: rank profiles of one job -> one job profile with per-rank statistics.
#include "tools/irf_report/merge_profiles.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "model/roofline/regions.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/reanalysis.hpp"
#include "tools/irf_report/same_gpu.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {

namespace {

// Differences between two inputs that make a merge meaningless (different machines or models).
std::vector<std::string> differences(const model::Profile& first, const std::string& first_file,
                                     const model::Profile& other, const std::string& file) {
    std::vector<std::string> out;
    if (gpu_relation(first.gpu, other.gpu, shipped_dirs()) == GpuRelation::different) {
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

// Adds the error of `k`'s estimated launches (IRF_TIMING=sampled) to the job's kernel `into`:
// the ranks' estimates are independent, so their standard errors add in quadrature
// (docs/configuration.md, "Sampled timing"); one unknown error makes the sum's unknown. A
// measured total adds none.
void add_estimate_error(model::KernelRecord& into, const model::KernelRecord& k) {
    if (k.estimated_launches == 0) {
        return;
    }
    if (into.estimate_error_ns && k.estimate_error_ns) {
        into.estimate_error_ns = std::hypot(*into.estimate_error_ns, *k.estimate_error_ns);
    } else {
        into.estimate_error_ns.reset();
    }
}

// The ranks that ran a kernel: one share for a rank profile, the non-zero per-rank entries of a
// merged one (the ranks at zero are implied by the job's rank list).
std::vector<model::RankShare> shares_of(const model::KernelRecord& k, int rank, bool merged) {
    if (!merged || !k.ranks) {
        return {{rank, k.launches, k.time_ns.total}};
    }
    std::vector<model::RankShare> out;
    for (const model::RankShare& s : k.ranks->per_rank) {
        if (s.launches > 0 || s.time_ns > 0) {
            out.push_back(s);
        }
    }
    return out;
}

// The slowest of `shares`: the largest time, the lowest rank on a tie (model::rank_stats' rule).
bool slower(const model::RankShare& a, double time_ns, int rank) {
    return a.time_ns > time_ns || (a.time_ns == time_ns && a.rank < rank);
}

} // namespace

void JobMerge::Saturating::add(std::uint64_t& sum, std::uint64_t value) {
    const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
    saturated = saturated || value > max - sum;
    sum = value > max - sum ? max : sum + value;
}

void JobMerge::Saturating::add(double& sum, double value) {
    const double result = sum + value;
    saturated = saturated || !std::isfinite(result);
    sum = std::isfinite(result) ? result : (result > 0 ? DBL_MAX : -DBL_MAX);
}

/// The ranks of `input`: its own rank, a merged profile's list, or, for a profile written outside
/// a parallel job, its input position. A rank seen before, or one run given twice (the same
/// file twice, or a copy: same host, pid and start time), is refused.
std::vector<int> JobMerge::input_ranks(const model::Profile& input, const std::string& file) {
    std::vector<int> ranks;
    if (input.job) {
        ranks = input.job->ranks;
    } else if (input.rank) {
        ranks = {*input.rank};
    } else {
        ranks = {static_cast<int>(m_inputs)};
        if (!input.start_time.empty()) {
            const std::string run =
                input.host + "|" + std::to_string(input.pid) + "|" + input.start_time;
            if (const auto it = m_runs.find(run); it != m_runs.end()) {
                throw InputError(file + ": the same run as " + it->second +
                                 " (host, pid and start time); each profile counts once");
            }
            m_runs[run] = file;
        }
    }
    for (const int rank : ranks) {
        if (const auto it = m_rank_files.find(rank); it != m_rank_files.end()) {
            throw InputError(file + ": rank " + std::to_string(rank) + " is also " + it->second +
                             " (the same rank given twice?)");
        }
        m_rank_files[rank] = file;
    }
    return ranks;
}

void JobMerge::check_same_machine(const model::Profile& input, const std::string& file) {
    for (const std::string& d : differences(m_job, m_first_file, input, file)) {
        if (!m_allow_mixed) {
            throw InputError(d + " (use --allow-mixed to merge anyway)");
        }
        m_merge_warnings.push_back("merge: " + d);
    }
}

void JobMerge::add_header(const model::Profile& p) {
    m_job.start_time = std::min(m_job.start_time, p.start_time);
    m_job.end_time = std::max(m_job.end_time, p.end_time);
    m_sums.add(m_job.coverage.launches, p.coverage.launches);
    m_sums.add(m_job.coverage.profiled_launches, p.coverage.profiled_launches);
    m_sums.add(m_job.coverage.lost_durations, p.coverage.lost_durations);
    model::SamplePhases& phases = m_job.coverage.sample_phases; // the job's samples together
    m_sums.add(phases.samples, p.coverage.sample_phases.samples);
    m_sums.add(phases.setup_ms, p.coverage.sample_phases.setup_ms);
    m_sums.add(phases.launch_ms, p.coverage.sample_phases.launch_ms);
    m_sums.add(phases.decode_ms, p.coverage.sample_phases.decode_ms);
    m_job.coverage.passes = std::max(m_job.coverage.passes, p.coverage.passes);
}

void JobMerge::add_kernel(const model::KernelRecord& k, const std::vector<int>& ranks, bool merged,
                          std::size_t lean_position) {
    const auto [at, added] = m_index.emplace(launch_key(k), m_kernels.size());
    if (added) {
        Pending p;
        p.record = k;
        p.record.regions.clear();
        p.record.ranks.reset();
        p.record.launches = p.record.profiled_launches = 0;
        p.record.launch_samples = p.record.pass_launches = 0;
        p.record.time_ns = {};
        p.record.time_ns.min = k.time_ns.min;
        p.record.imputed_launches = p.record.estimated_launches = 0;
        p.record.estimate_error_ns = 0.0; // nothing estimated yet: an error of exactly 0
        m_kernels.push_back(std::move(p));
    }
    Pending& p = m_kernels[at->second];
    model::KernelRecord& r = p.record;
    m_sums.add(r.launches, k.launches);
    m_sums.add(r.profiled_launches, k.profiled_launches);
    m_sums.add(r.launch_samples, k.launch_samples); // replay's modes, summed like the samples
    m_sums.add(r.pass_launches, k.pass_launches);
    m_sums.add(r.time_ns.total, k.time_ns.total);
    m_sums.add(r.imputed_launches, k.imputed_launches);
    // A total with an estimated part is an estimate (a rank measured, another estimated).
    m_sums.add(r.estimated_launches, k.estimated_launches);
    add_estimate_error(r, k);
    add_regions(r.regions, k.regions);
    r.time_ns.min = std::min(r.time_ns.min, k.time_ns.min);
    r.time_ns.max = std::max(r.time_ns.max, k.time_ns.max);
    std::vector<model::RankShare> shares = shares_of(k, ranks.front(), merged);
    if (shares.empty()) { // a merged kernel at 0 launches and 0 ns on every rank
        shares.push_back({ranks.front(), 0, 0});
    }
    // The slowest rank decides the job's time, so its counters stand for the job; all ranks at
    // 0 ns name the lowest rank that ran it.
    const auto slowest = std::min_element(shares.begin(), shares.end(),
                                          [](const model::RankShare& a, const model::RankShare& b) {
                                              return slower(a, b.time_ns, b.rank);
                                          });
    if (added || slower(*slowest, p.slowest_ns, p.slowest_rank)) {
        p.slowest_ns = slowest->time_ns;
        p.slowest_rank = slowest->rank;
        r.counters = k.counters;
        r.analysis = k.analysis;
        r.notes = k.notes;
        p.deferred_input = lean_position == npos ? npos : m_inputs - 1;
        p.deferred_kernel = lean_position;
    }
    p.shares.insert(p.shares.end(), shares.begin(), shares.end());
}

/// Each NVTX region's launches and time per rank: from the kernels' regions of a rank profile,
/// from the regions' own per-rank statistics of a merged one.
void JobMerge::add_region_shares(const model::Profile& input, int rank) {
    if (input.job) {
        const std::vector<model::RankShare> no_shares;
        for (const model::RegionRecord& region : input.regions) {
            for (const model::RankShare& s : region.ranks ? region.ranks->per_rank : no_shares) {
                if (s.launches > 0 || s.time_ns > 0) {
                    m_region_shares[region.path][s.rank] = s;
                }
            }
        }
        return;
    }
    for (const model::KernelRecord& k : input.kernels) {
        for (const model::KernelRegion& r : k.regions) {
            model::RankShare& share = m_region_shares[r.path][rank];
            share.rank = rank;
            share.launches += r.launches;
            share.time_ns += r.time_ns;
        }
    }
}

void JobMerge::add(const model::Profile& input, const std::string& file) {
    add_input(input, file, false);
}

void JobMerge::add_lean(const model::Profile& input, const std::string& file) {
    add_input(input, file, true);
}

void JobMerge::add_input(const model::Profile& input, const std::string& file, bool lean) {
    const std::vector<int> ranks = input_ranks(input, file);
    if (m_inputs == 0) {
        m_job = input;
        m_job.kernels.clear();
        m_job.regions.clear();
        m_job.warnings.clear();
        m_job.rank.reset();
        m_job.job.reset();
        m_job.coverage = {};
        m_first_file = file;
    } else {
        check_same_machine(input, file);
    }
    ++m_inputs;
    m_input_files.push_back(file);
    add_header(input);
    const bool merged = input.job.has_value();
    for (const std::string& w : input.warnings) {
        if (merged && w.rfind("merge: ", 0) == 0) {
            if (std::find(m_merge_warnings.begin(), m_merge_warnings.end(), w) ==
                m_merge_warnings.end()) {
                m_merge_warnings.push_back(w);
            }
        } else if (!merged || !m_warnings.add_folded(w)) {
            m_warnings.add(w, ranks.front());
        }
    }
    for (std::size_t i = 0; i < input.kernels.size(); ++i) {
        add_kernel(input.kernels[i], ranks, merged, lean ? i : npos);
    }
    add_region_shares(input, ranks.front());
    m_info.ranks.insert(m_info.ranks.end(), ranks.begin(), ranks.end());
    if (merged) {
        m_info.files.insert(m_info.files.end(), input.job->files.begin(), input.job->files.end());
        m_hosts.insert(input.job->hosts.begin(), input.job->hosts.end());
    } else {
        m_info.files.push_back(file);
        m_hosts.insert(input.host);
    }
}

/// The statistics of `present` (the ranks that ran it), every other rank of the job at 0.
model::RankStats JobMerge::over_all_ranks(std::vector<model::RankShare> present) const {
    std::vector<int> ran;
    for (const model::RankShare& s : present) {
        ran.push_back(s.rank);
    }
    std::sort(ran.begin(), ran.end());
    for (const int rank : m_info.ranks) {
        if (!std::binary_search(ran.begin(), ran.end(), rank)) {
            present.push_back({rank, 0, 0});
        }
    }
    return model::rank_stats(std::move(present));
}

std::vector<JobMerge::Deferred> JobMerge::deferred() const {
    // (input, position in its file, job kernel), sorted so that each file's positions ascend:
    // a job's kernels are in first-seen order, not in any one file's.
    std::vector<std::array<std::size_t, 3>> wanted;
    for (std::size_t i = 0; i < m_kernels.size(); ++i) {
        if (m_kernels[i].deferred_input != npos) {
            wanted.push_back({m_kernels[i].deferred_input, m_kernels[i].deferred_kernel, i});
        }
    }
    std::sort(wanted.begin(), wanted.end());
    std::vector<Deferred> out;
    for (std::size_t i = 0; i < wanted.size(); ++i) {
        if (i == 0 || wanted[i][0] != wanted[i - 1][0]) {
            out.push_back({m_input_files[wanted[i][0]], {}, {}});
        }
        out.back().positions.push_back(wanted[i][1]);
        out.back().pending.push_back(wanted[i][2]);
    }
    return out;
}

void JobMerge::complete(const Deferred& request, const std::vector<model::KernelRecord>& kernels) {
    for (std::size_t i = 0; i < request.pending.size(); ++i) {
        Pending& p = m_kernels[request.pending[i]];
        if (i >= kernels.size() || launch_key(kernels[i]) != launch_key(p.record)) {
            throw InputError(request.file + ": kernels[" + std::to_string(request.positions[i]) +
                             "] is not the kernel read before (the file changed while merging)");
        }
        p.record.counters = kernels[i].counters;
        p.record.analysis = kernels[i].analysis;
        p.deferred_input = npos;
    }
}

model::Profile JobMerge::finish() {
    for (const Pending& p : m_kernels) {
        if (p.deferred_input != npos) {
            throw std::logic_error("JobMerge::finish: counters of " + p.record.name +
                                   " not read (complete() every deferred() request first)");
        }
    }
    model::Profile job = std::move(m_job);
    job.warnings = std::move(m_merge_warnings);
    for (std::string& w : m_warnings.folded()) {
        job.warnings.push_back(std::move(w));
    }
    if (m_sums.saturated) {
        job.warnings.push_back("merge: launch counts or times too large to sum; capped at the "
                               "largest value (2^64-1 launches, 1.8e308 ns)");
    }
    for (Pending& p : m_kernels) {
        model::KernelRecord record = std::move(p.record);
        record.ranks = over_all_ranks(std::move(p.shares));
        if (record.estimated_launches == 0) {
            record.estimate_error_ns.reset(); // measured on every rank: no estimate to qualify
        }
        record.time_ns.mean =
            record.launches > 0 ? record.time_ns.total / static_cast<double>(record.launches) : 0;
        job.kernels.push_back(std::move(record));
    }
    m_kernels.clear();
    job.coverage.kernels = job.kernels.size();
    // Regions across ranks: the slowest rank's counters (which stand for the job) are shared out
    // by each path's part of the profiled launches of all ranks.
    model::roll_up_regions(job);
    for (model::RegionRecord& region : job.regions) {
        std::vector<model::RankShare> present;
        for (const auto& [rank, share] : m_region_shares[region.path]) {
            present.push_back(share);
        }
        region.ranks = over_all_ranks(std::move(present));
    }
    m_info.hosts.assign(m_hosts.begin(), m_hosts.end());
    job.job = std::move(m_info);
    return job;
}

model::Profile merge_profiles(const std::vector<model::Profile>& inputs,
                              const std::vector<std::string>& files, bool allow_mixed) {
    JobMerge merge(allow_mixed);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        merge.add(inputs[i], files[i]);
    }
    return merge.finish();
}

} // namespace irf::report

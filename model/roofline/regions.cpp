// SPDX-License-Identifier: Apache-2.0
// Region rollup. Counters are per kernel (summed over its profiled launches), so a region's part
// of them is the kernel's counters times the fraction of its profiled launches that ran under the
// region; ratios are then taken of the sums, never averaged (docs/regions.md).
#include "model/roofline/regions.hpp"

#include <algorithm>
#include <map>

#include "model/roofline/counters.hpp"
#include "model/roofline/instruction_roofline.hpp"

namespace irf::model {
namespace {

/// Adds `fraction` x `value` to `sum`; a level any profiled kernel lacks stays absent.
void add_level(std::optional<double>& sum, bool& missing, std::optional<double> value,
               double fraction) {
    if (!value) {
        missing = true;
        return;
    }
    sum = sum.value_or(0) + fraction * *value;
}

struct Sums {
    RegionAnalysis a;
    bool any_analysis = false;
    bool missing_l1 = false, missing_l2 = false, missing_hbm = false;
};

void add_part(Sums& s, const KernelRecord& k, const KernelRegion& part) {
    const bool decided = k.analysis && k.analysis->irm && !k.analysis->irm->bound.empty();
    s.a.bound_shares[decided ? k.analysis->irm->bound : "undecided"] += part.time_ns;
    s.any_analysis = s.any_analysis || k.analysis.has_value();
    if (part.profiled_launches == 0 || k.profiled_launches == 0) {
        return;
    }
    const double f =
        static_cast<double>(part.profiled_launches) / static_cast<double>(k.profiled_launches);
    s.a.profiled_launches += part.profiled_launches;
    s.a.profiled_time_ns += f * counter(k.counters, "time_ns").value_or(0);
    s.a.inst_warp += f * counter(k.counters, "inst_warp").value_or(0);
    add_level(s.a.transactions.l1, s.missing_l1, l1_transactions(k.counters), f);
    add_level(s.a.transactions.l2, s.missing_l2, l2_transactions(k.counters), f);
    add_level(s.a.transactions.hbm, s.missing_hbm, hbm_transactions(k.counters), f);
    if (k.analysis && k.analysis->flops) {
        const FlopsResult& fl = *k.analysis->flops;
        s.a.fp64 += f * fl.fp64;
        s.a.fp32 += f * fl.fp32;
        s.a.fp16 += f * fl.fp16;
        s.a.tensor += f * fl.tensor;
    }
}

/// Ratios of the sums at one level.
void level_ratios(const std::optional<double>& txn, bool missing, double inst, double flops,
                  std::optional<double>& ii, std::optional<double>& ai) {
    if (missing || !txn) {
        return;
    }
    ii = safe_ratio(inst, *txn);
    ai = safe_ratio(flops, 32.0 * *txn);
}

RegionAnalysis finish(Sums& s, double time_ns) {
    RegionAnalysis& a = s.a;
    for (auto& [bound, share] : a.bound_shares) {
        (void)bound;
        share = time_ns > 0 ? share / time_ns : 0;
    }
    if (s.missing_l1) {
        a.transactions.l1.reset();
    }
    if (s.missing_l2) {
        a.transactions.l2.reset();
    }
    if (s.missing_hbm) {
        a.transactions.hbm.reset();
    }
    const double flops = a.fp64 + a.fp32 + a.fp16 + a.tensor;
    a.gips_warp = safe_ratio(a.inst_warp, a.profiled_time_ns);
    a.gflops = safe_ratio(flops, a.profiled_time_ns);
    level_ratios(a.transactions.l1, s.missing_l1, a.inst_warp, flops, a.ii.l1, a.ai.l1);
    level_ratios(a.transactions.l2, s.missing_l2, a.inst_warp, flops, a.ii.l2, a.ai.l2);
    level_ratios(a.transactions.hbm, s.missing_hbm, a.inst_warp, flops, a.ii.hbm, a.ai.hbm);
    return a;
}

} // namespace

RegionRecord roll_up_region(const std::string& path, const std::vector<RegionPart>& parts) {
    RegionRecord r;
    r.path = path;
    Sums sums;
    for (const auto& [kernel, part] : parts) {
        r.time_ns += part.time_ns;
        r.launches += part.launches;
        ++r.kernels;
        add_part(sums, *kernel, part);
    }
    if (sums.any_analysis) {
        r.analysis = finish(sums, r.time_ns);
    }
    return r;
}

void roll_up_regions(Profile& profile) {
    std::map<std::string, std::vector<RegionPart>> by_path;
    for (const KernelRecord& k : profile.kernels) {
        for (const KernelRegion& part : k.regions) {
            by_path[part.path].emplace_back(&k, part);
        }
    }
    // Per-rank statistics come from the ranks' own profiles (irf-report merge), not from the
    // kernels: kept across a re-analysis.
    std::map<std::string, RankStats> ranks;
    for (RegionRecord& r : profile.regions) {
        if (r.ranks) {
            ranks.emplace(r.path, std::move(*r.ranks));
        }
    }
    profile.regions.clear();
    for (const auto& [path, parts] : by_path) {
        profile.regions.push_back(roll_up_region(path, parts));
        if (const auto it = ranks.find(path); it != ranks.end()) {
            profile.regions.back().ranks = it->second;
        }
    }
    std::stable_sort(
        profile.regions.begin(), profile.regions.end(),
        [](const RegionRecord& a, const RegionRecord& b) { return a.time_ns > b.time_ns; });
}

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// irf-report csv --regions: one row per NVTX region with its rolled-up analysis.
#include <algorithm>
#include <set>

#include "tools/irf_report/csv_kernels.hpp"

namespace irf::report {
namespace {

std::string bound_cell(const model::RegionRecord& r, const std::string& bound) {
    if (!r.analysis) {
        return "";
    }
    const auto found = r.analysis->bound_shares.find(bound);
    return csv_number(found == r.analysis->bound_shares.end() ? 0.0 : found->second);
}

template <typename F> std::string region_analysed(const model::RegionRecord& r, F f) {
    return r.analysis ? csv_number(f(*r.analysis)) : "";
}

} // namespace

std::string regions_csv(const model::Profile& profile) {
    std::set<std::string> bounds; // one share column per bound present in the profile
    for (const model::RegionRecord& r : profile.regions) {
        if (r.analysis) {
            for (const auto& [bound, share] : r.analysis->bound_shares) {
                (void)share;
                bounds.insert(bound);
            }
        }
    }
    std::string out = "path,time_ns,launches,kernels,profiled_launches,gips_warp,gflops,ii_l1,"
                      "ii_l2,ii_hbm";
    for (const std::string& b : bounds) {
        out += "," + csv_field("share_" + b);
    }
    const bool job = std::any_of(profile.regions.begin(), profile.regions.end(),
                                 [](const model::RegionRecord& r) { return r.ranks.has_value(); });
    if (job) { // a merged job profile (irf-report merge)
        out += ",rank_time_max_ns,slowest_rank,rank_imbalance";
    }
    out += k_csv_line_end;
    for (const model::RegionRecord& r : profile.regions) {
        out += csv_field(r.path) + "," + csv_number(r.time_ns) + "," + std::to_string(r.launches) +
               "," + std::to_string(r.kernels) + "," +
               (r.analysis ? std::to_string(r.analysis->profiled_launches) : "") + "," +
               region_analysed(r, [](const auto& a) { return a.gips_warp; }) + "," +
               region_analysed(r, [](const auto& a) { return a.gflops; }) + "," +
               region_analysed(r, [](const auto& a) { return a.ii.l1; }) + "," +
               region_analysed(r, [](const auto& a) { return a.ii.l2; }) + "," +
               region_analysed(r, [](const auto& a) { return a.ii.hbm; });
        for (const std::string& b : bounds) {
            out += "," + bound_cell(r, b);
        }
        if (job) {
            out += r.ranks ? "," + csv_number(r.ranks->time_ns.max) + "," +
                                 std::to_string(r.ranks->time_ns.max_rank) + "," +
                                 csv_number(r.ranks->imbalance)
                           : ",,,";
        }
        out += k_csv_line_end;
    }
    return out;
}

} // namespace irf::report

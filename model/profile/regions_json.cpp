// SPDX-License-Identifier: Apache-2.0
// JSON of NVTX regions (keys: docs/output-schema.md, docs/regions.md).
#include "model/profile/regions_json.hpp"

#include "model/profile/analysis_json.hpp"

namespace irf::model {

using nlohmann::json;

namespace {

json analysis_json(const RegionAnalysis& a) {
    json shares = json::object();
    for (const auto& [bound, share] : a.bound_shares) {
        shares[bound] = finite_or_null(share);
    }
    return json{{"bound_shares", shares},
                {"profiled_launches", a.profiled_launches},
                {"profiled_time_ns", finite_or_null(a.profiled_time_ns)},
                {"inst_warp", finite_or_null(a.inst_warp)},
                {"transactions", per_level(a.transactions)},
                {"flops",
                 {{"fp64", finite_or_null(a.fp64)},
                  {"fp32", finite_or_null(a.fp32)},
                  {"fp16", finite_or_null(a.fp16)},
                  {"tensor", finite_or_null(a.tensor)}}},
                {"gips_warp", opt(a.gips_warp)},
                {"gflops", opt(a.gflops)},
                {"ii", per_level(a.ii)},
                {"ai", per_level(a.ai)}};
}

RegionAnalysis analysis_from(const JsonNode& n) {
    n.expect_object();
    RegionAnalysis a;
    a.bound_shares = n.num_map("bound_shares");
    a.profiled_launches = n.count("profiled_launches");
    a.profiled_time_ns = n.num("profiled_time_ns");
    a.inst_warp = n.num("inst_warp");
    if (n.has("transactions")) {
        a.transactions = per_level_from(n.at("transactions"));
    }
    if (n.has("flops")) {
        const JsonNode f = n.at("flops");
        f.expect_object();
        a.fp64 = f.num("fp64");
        a.fp32 = f.num("fp32");
        a.fp16 = f.num("fp16");
        a.tensor = f.num("tensor");
    }
    a.gips_warp = n.opt_num("gips_warp");
    a.gflops = n.opt_num("gflops");
    if (n.has("ii")) {
        a.ii = per_level_from(n.at("ii"));
    }
    if (n.has("ai")) {
        a.ai = per_level_from(n.at("ai"));
    }
    return a;
}

} // namespace

json kernel_regions_to_json(const std::vector<KernelRegion>& regions) {
    json out = json::array();
    for (const KernelRegion& r : regions) {
        out.push_back({{"path", r.path},
                       {"launches", r.launches},
                       {"time_ns", finite_or_null(r.time_ns)},
                       {"profiled_launches", r.profiled_launches}});
    }
    return out;
}

std::vector<KernelRegion> kernel_regions_from_json(const JsonNode& node) {
    node.expect_array();
    std::vector<KernelRegion> out;
    for (std::size_t i = 0; i < node.value().size(); ++i) {
        const JsonNode r = node.at(i);
        r.expect_object();
        out.push_back({r.at("path").as_str(), r.count("launches"), r.num("time_ns"),
                       r.count("profiled_launches")});
    }
    return out;
}

json regions_to_json(const std::vector<RegionRecord>& regions) {
    json out = json::array();
    for (const RegionRecord& r : regions) {
        json entry{{"path", r.path},
                   {"time_ns", finite_or_null(r.time_ns)},
                   {"launches", r.launches},
                   {"kernels", r.kernels}};
        entry["analysis"] = r.analysis ? analysis_json(*r.analysis) : json(nullptr);
        if (r.ranks) {
            entry["ranks"] = rank_stats_to_json(*r.ranks);
        }
        out.push_back(std::move(entry));
    }
    return out;
}

std::vector<RegionRecord> regions_from_json(const JsonNode& node) {
    node.expect_array();
    std::vector<RegionRecord> out;
    for (std::size_t i = 0; i < node.value().size(); ++i) {
        const JsonNode r = node.at(i);
        r.expect_object();
        RegionRecord rec{r.at("path").as_str(), r.num("time_ns"), r.count("launches"),
                         r.count("kernels"),    std::nullopt,     std::nullopt};
        if (r.has("analysis") && !r.at("analysis").value().is_null()) {
            rec.analysis = analysis_from(r.at("analysis"));
        }
        if (r.has("ranks")) {
            rec.ranks = rank_stats_from_json(r.at("ranks"));
        }
        out.push_back(std::move(rec));
    }
    return out;
}

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// JSON form of the analysis records (keys: docs/output-schema.md).
#include "model/analysis_json.hpp"

#include <cmath>

namespace irf::model {

using nlohmann::json;

json finite_or_null(double value) {
    return std::isfinite(value) ? json(value) : json(nullptr);
}

json opt(const std::optional<double>& v) {
    return v ? finite_or_null(*v) : json(nullptr);
}

json per_level(const PerLevel& p) {
    return json{{"l1", opt(p.l1)}, {"l2", opt(p.l2)}, {"hbm", opt(p.hbm)}};
}

PerLevel per_level_from(const JsonNode& n) {
    n.expect_object();
    return PerLevel{n.opt_num("l1"), n.opt_num("l2"), n.opt_num("hbm")};
}

namespace {

json number_map(const std::map<std::string, double>& m) {
    json out = json::object();
    for (const auto& [k, v] : m) {
        if (std::isfinite(v)) {
            out[k] = v;
        }
    }
    return out;
}

std::map<std::string, double> number_map_from(const JsonNode& n) {
    n.expect_object();
    std::map<std::string, double> out;
    for (auto it = n.value().begin(); it != n.value().end(); ++it) {
        if (!it->is_null()) {
            out[it.key()] = n.at(it.key()).as_num();
        }
    }
    return out;
}

json irm_json(const IrmResult& r) {
    return json{{"gips_warp", finite_or_null(r.gips_warp)},
                {"gips_thread", finite_or_null(r.gips_thread)},
                {"ii", per_level(r.ii)},
                {"roofline_gips", per_level(r.roofline_gips)},
                {"bound", r.bound.empty() ? json(nullptr) : json(r.bound)},
                {"roofline_pct", r.bound.empty() ? json(nullptr) : finite_or_null(r.roofline_pct)}};
}

IrmResult irm_from(const JsonNode& n) {
    IrmResult r;
    r.gips_warp = n.num("gips_warp");
    r.gips_thread = n.num("gips_thread");
    if (n.has("ii")) {
        r.ii = per_level_from(n.at("ii"));
    }
    if (n.has("roofline_gips")) {
        r.roofline_gips = per_level_from(n.at("roofline_gips"));
    }
    r.bound = n.str("bound");
    r.roofline_pct = n.num("roofline_pct");
    return r;
}

json flops_json(const FlopsResult& f) {
    json out{{"fp64", finite_or_null(f.fp64)},
             {"fp32", finite_or_null(f.fp32)},
             {"fp16", finite_or_null(f.fp16)},
             {"tensor", finite_or_null(f.tensor)},
             {"gflops", finite_or_null(f.gflops)},
             {"ai", per_level(f.ai)},
             {"fma_mix_ceiling_gflops", opt(f.fma_mix_ceiling_gflops)},
             {"hmma_gips_ceiling", opt(f.hmma_gips_ceiling)}};
    if (!f.precision.empty()) {
        out["precision"] = f.precision;
    }
    return out;
}

FlopsResult flops_from(const JsonNode& n) {
    FlopsResult f;
    f.fp64 = n.num("fp64");
    f.fp32 = n.num("fp32");
    f.fp16 = n.num("fp16");
    f.tensor = n.num("tensor");
    f.gflops = n.num("gflops");
    if (n.has("ai")) {
        f.ai = per_level_from(n.at("ai"));
    }
    f.fma_mix_ceiling_gflops = n.opt_num("fma_mix_ceiling_gflops");
    f.hmma_gips_ceiling = n.opt_num("hmma_gips_ceiling");
    f.precision = n.str("precision");
    return f;
}

json projection_json(const Projection& p) {
    return json{{"target", p.target},
                {"basis", p.basis},
                {"time_ns",
                 {{"low", finite_or_null(p.time_low_ns)},
                  {"point", finite_or_null(p.time_point_ns)},
                  {"high", finite_or_null(p.time_high_ns)}}},
                {"speedup_point", finite_or_null(p.speedup_point)},
                {"confidence", p.confidence},
                {"notes", p.notes}};
}

Projection projection_from(const JsonNode& n) {
    Projection p;
    n.expect_object();
    p.target = n.str("target");
    p.basis = n.str("basis");
    if (n.has("time_ns")) {
        const JsonNode t = n.at("time_ns");
        p.time_low_ns = t.num("low");
        p.time_point_ns = t.num("point");
        p.time_high_ns = t.num("high");
    }
    p.speedup_point = n.num("speedup_point");
    p.confidence = n.str("confidence");
    if (n.has("notes")) {
        p.notes = n.at("notes").as_strings();
    }
    return p;
}

json walls_json(const Walls& w) {
    json out{{"global", nullptr}, {"shared", nullptr}};
    if (w.global) {
        out["global"] = {{"intensity", finite_or_null(w.global->intensity)},
                         {"pattern", w.global->pattern}};
    }
    if (w.shared) {
        out["shared"] = {{"intensity", finite_or_null(w.shared->intensity)},
                         {"conflict_ways", finite_or_null(w.shared->conflict_ways)}};
    }
    return out;
}

Walls walls_from(const JsonNode& n) {
    Walls w;
    if (n.has("global")) {
        const JsonNode g = n.at("global");
        w.global = GlobalWall{g.num("intensity"), g.str("pattern")};
    }
    if (n.has("shared")) {
        const JsonNode s = n.at("shared");
        w.shared = SharedWall{s.num("intensity"), s.num("conflict_ways", 1)};
    }
    return w;
}

} // namespace

json analysis_to_json(const KernelAnalysis& a) {
    json out;
    out["irm"] = a.irm ? irm_json(*a.irm) : json(nullptr);
    out["walls"] = walls_json(a.walls);
    out["predication"] = opt(a.predication);
    out["flops"] = a.flops ? flops_json(*a.flops) : json(nullptr);
    out["mix"] = a.mix.empty() ? json(nullptr) : number_map(a.mix);
    out["ceilings"] = number_map(a.kernel_ceilings);
    out["projection"] = json::array();
    for (const Projection& p : a.projection) {
        out["projection"].push_back(projection_json(p));
    }
    out["missing"] = a.missing;
    if (!a.notes.empty()) {
        out["notes"] = a.notes; // left out when empty: older analysed files stay byte-identical
    }
    return out;
}

KernelAnalysis analysis_from_json(const JsonNode& n) {
    n.expect_object();
    KernelAnalysis a;
    if (n.has("irm")) {
        a.irm = irm_from(n.at("irm"));
    }
    if (n.has("walls")) {
        a.walls = walls_from(n.at("walls"));
    }
    a.predication = n.opt_num("predication");
    if (n.has("flops")) {
        a.flops = flops_from(n.at("flops"));
    }
    if (n.has("mix")) {
        a.mix = number_map_from(n.at("mix"));
    }
    if (n.has("ceilings")) {
        a.kernel_ceilings = number_map_from(n.at("ceilings"));
    }
    if (n.has("projection")) {
        const JsonNode list = n.at("projection");
        list.expect_array();
        for (std::size_t i = 0; i < list.value().size(); ++i) {
            a.projection.push_back(projection_from(list.at(i)));
        }
    }
    if (n.has("missing")) {
        a.missing = n.at("missing").as_strings();
    }
    if (n.has("notes")) {
        a.notes = n.at("notes").as_strings();
    }
    return a;
}

json ceilings_used_to_json(const CeilingsUsed& u) {
    return json{{"name", u.name},
                {"source", u.source},
                {"warp_gips", finite_or_null(u.warp_gips)},
                {"gtxn_per_s", number_map(u.gtxn_per_s)},
                {"gflops", number_map(u.gflops)}};
}

CeilingsUsed ceilings_used_from_json(const JsonNode& n) {
    n.expect_object();
    CeilingsUsed u;
    u.name = n.str("name");
    u.source = n.str("source");
    u.warp_gips = n.num("warp_gips");
    if (n.has("gtxn_per_s")) {
        u.gtxn_per_s = number_map_from(n.at("gtxn_per_s"));
    }
    if (n.has("gflops")) {
        u.gflops = number_map_from(n.at("gflops"));
    }
    return u;
}

} // namespace irf::model

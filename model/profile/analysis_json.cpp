// SPDX-License-Identifier: Apache-2.0
// JSON form of the analysis records (keys: docs/output-schema.md).
#include "model/profile/analysis_json.hpp"

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

/// The string member `key` of `n` ("" when absent or null), refused unless it is one of
/// `allowed` (docs/output-schema.md): such a field reaches tables and pages as a word of irf's,
/// never as text from the file. The value is not quoted: it may be anything, of any length.
std::string one_of(const JsonNode& n, const char* key, std::initializer_list<const char*> allowed) {
    std::string value = n.str(key);
    if (value.empty()) {
        return value;
    }
    std::string list;
    for (const char* a : allowed) {
        if (value == a) {
            return value;
        }
        list += std::string(list.empty() ? "" : ", ") + a;
    }
    n.at(key).fail("not one of " + list);
}

const std::initializer_list<const char*> k_bound_resources = {"issue", "flops", "l1", "l2", "hbm"};

json null_if_empty(const std::string& s) {
    return s.empty() ? json(nullptr) : json(s);
}

json by_precision_json(const std::map<std::string, PrecisionFlops>& m) {
    json out = json::object();
    for (const auto& [name, p] : m) {
        out[name] = {{"flops", finite_or_null(p.flops)},
                     {"gflops", finite_or_null(p.gflops)},
                     {"ai", per_level(p.ai)},
                     {"ceiling_gflops", opt(p.ceiling_gflops)}};
    }
    return out;
}

std::map<std::string, PrecisionFlops> by_precision_from(const JsonNode& n) {
    n.expect_object();
    std::map<std::string, PrecisionFlops> out;
    for (auto it = n.value().begin(); it != n.value().end(); ++it) {
        const JsonNode e = n.at(it.key());
        PrecisionFlops p;
        p.flops = e.num("flops");
        p.gflops = e.num("gflops");
        if (e.has("ai")) {
            p.ai = per_level_from(e.at("ai"));
        }
        p.ceiling_gflops = e.opt_num("ceiling_gflops");
        out[it.key()] = p;
    }
    return out;
}

json irm_json(const IrmResult& r) {
    return json{{"gips_warp", finite_or_null(r.gips_warp)},
                {"gips_thread", finite_or_null(r.gips_thread)},
                {"ii", per_level(r.ii)},
                {"ii_thread", per_level(r.ii_thread)},
                {"roofline_gips", per_level(r.roofline_gips)},
                {"bound", r.bound.empty() ? json(nullptr) : json(r.bound)},
                {"roofline_pct", r.bound.empty() ? json(nullptr) : finite_or_null(r.roofline_pct)}};
}

IrmResult irm_from(const JsonNode& n) {
    IrmResult r;
    // null: unknown (an imported kernel without a duration or warp count), not 0 GIPS.
    r.gips_warp = n.num("gips_warp", std::nan(""));
    r.gips_thread = n.num("gips_thread", std::nan(""));
    if (n.has("ii_thread")) {
        r.ii_thread = per_level_from(n.at("ii_thread"));
    }
    if (n.has("ii")) {
        r.ii = per_level_from(n.at("ii"));
    }
    if (n.has("roofline_gips")) {
        r.roofline_gips = per_level_from(n.at("roofline_gips"));
    }
    r.bound = one_of(n, "bound", {"issue", "l1", "l2", "hbm"});
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
             {"hmma_gips_ceiling", opt(f.hmma_gips_ceiling)},
             {"tensor_pipe_pct", opt(f.tensor_pipe_pct)},
             {"by_precision", by_precision_json(f.by_precision)}};
    if (!f.precision.empty()) {
        out["precision"] = f.precision;
    }
    if (f.tensor_register_moves > 0) {
        out["tensor_register_moves"] = f.tensor_register_moves;
    }
    return out;
}

FlopsResult flops_from(const JsonNode& n) {
    FlopsResult f;
    f.fp64 = n.num("fp64");
    f.fp32 = n.num("fp32");
    f.fp16 = n.num("fp16");
    f.tensor = n.num("tensor");
    f.tensor_register_moves = n.num("tensor_register_moves");
    f.gflops = n.num("gflops");
    if (n.has("ai")) {
        f.ai = per_level_from(n.at("ai"));
    }
    f.fma_mix_ceiling_gflops = n.opt_num("fma_mix_ceiling_gflops");
    f.hmma_gips_ceiling = n.opt_num("hmma_gips_ceiling");
    f.tensor_pipe_pct = n.opt_num("tensor_pipe_pct");
    f.precision = n.str("precision");
    if (n.has("by_precision")) {
        f.by_precision = by_precision_from(n.at("by_precision"));
    }
    return f;
}

json projection_json(const Projection& p) {
    json out{
        {"target", p.target},
        {"basis", p.basis},
        {"time_ns",
         {{"low", finite_or_null(p.time_low_ns)},
          {"point", finite_or_null(p.time_point_ns)},
          {"high", finite_or_null(p.time_high_ns)},
          {"mean", finite_or_null(p.time_mean_ns)},
          {"eq9_low", finite_or_null(p.time_eq9_low_ns)},
          {"eq9_high", finite_or_null(p.time_eq9_high_ns)}}},
        {"speedup_point", finite_or_null(p.speedup_point)},
        {"point_method", p.point_method},
        {"bound",
         {{"source", null_if_empty(p.bound_source)}, {"target", null_if_empty(p.bound_target)}}},
        {"resource_ns",
         {{"source", number_map(p.resource_ns_source)},
          {"target", number_map(p.resource_ns_target)}}},
        {"confidence", p.confidence},
        {"waves", waves_json(p)},
        {"l2", l2_fit_json(p.l2)},
        {"notes", p.notes}};
    if (p.time_calibrated_low_ns > 0 && p.time_calibrated_high_ns > 0) { // absent: no fit
        out["time_ns"]["calibrated_low"] = finite_or_null(p.time_calibrated_low_ns);
        out["time_ns"]["calibrated_high"] = finite_or_null(p.time_calibrated_high_ns);
    }
    return out;
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
        p.time_mean_ns = t.num("mean");
        p.time_eq9_low_ns = t.num("eq9_low", p.time_low_ns);
        p.time_eq9_high_ns = t.num("eq9_high", p.time_high_ns);
        p.time_calibrated_low_ns = t.num("calibrated_low", 0.0);
        p.time_calibrated_high_ns = t.num("calibrated_high", 0.0);
    }
    p.point_method = n.str("point_method");
    if (n.has("bound")) {
        p.bound_source = one_of(n.at("bound"), "source", k_bound_resources);
        p.bound_target = one_of(n.at("bound"), "target", k_bound_resources);
    }
    if (n.has("resource_ns")) {
        const JsonNode r = n.at("resource_ns");
        p.resource_ns_source = r.num_map("source");
        p.resource_ns_target = r.num_map("target");
    }
    p.speedup_point = n.num("speedup_point");
    p.confidence = one_of(n, "confidence", {"high", "low"});
    if (n.has("notes")) {
        p.notes = n.at("notes").as_strings();
    }
    waves_from(n, p);
    p.l2 = l2_fit_from(n);
    return p;
}

json walls_json(const Walls& w) {
    json out{{"global", nullptr}, {"shared", nullptr}};
    if (w.global) {
        out["global"] = {{"intensity", finite_or_null(w.global->intensity)},
                         {"pattern", w.global->pattern},
                         {"unit_intensity", finite_or_null(w.global->unit_intensity)},
                         {"access_bytes", opt(w.global->access_bytes)},
                         {"access_bytes_ld", opt(w.global->access_bytes_ld)},
                         {"access_bytes_st", opt(w.global->access_bytes_st)}};
    }
    if (w.shared) {
        out["shared"] = {
            {"intensity", finite_or_null(w.shared->intensity)},
            {"conflict_ways", finite_or_null(w.shared->conflict_ways)},
            {"conflict_free_intensity", finite_or_null(w.shared->conflict_free_intensity)},
            {"access_bytes", opt(w.shared->access_bytes)},
            {"access_bytes_ld", opt(w.shared->access_bytes_ld)},
            {"access_bytes_st", opt(w.shared->access_bytes_st)}};
        if (w.shared->conflicts_measured) {
            out["shared"]["conflicts_measured"] = true;
        }
    }
    return out;
}

Walls walls_from(const JsonNode& n) {
    Walls w;
    if (n.has("global")) {
        const JsonNode g = n.at("global");
        w.global =
            GlobalWall{g.num("intensity"),
                       one_of(g, "pattern", {"stride-0", "broadcast", "unit", "strided", "gather"}),
                       g.num("unit_intensity", 0.25),
                       g.opt_num("access_bytes"),
                       g.opt_num("access_bytes_ld"),
                       g.opt_num("access_bytes_st")};
    }
    if (n.has("shared")) {
        const JsonNode s = n.at("shared");
        w.shared = SharedWall{s.num("intensity"),
                              s.num("conflict_ways", 1),
                              s.num("conflict_free_intensity", 1),
                              s.opt_num("access_bytes"),
                              s.opt_num("access_bytes_ld"),
                              s.opt_num("access_bytes_st")};
        w.shared->conflicts_measured = s.has("conflicts_measured") &&
                                       s.at("conflicts_measured").value().is_boolean() &&
                                       s.at("conflicts_measured").value().get<bool>();
    }
    return w;
}

json pipes_json(const PipeCeilings& p) {
    json by_pipe = json::object();
    for (const auto& [pipe, use] : p.by_pipe) {
        by_pipe[pipe] = {{"gips", finite_or_null(use.gips)},
                         {"ceiling_gips", finite_or_null(use.ceiling_gips)},
                         {"pct", finite_or_null(use.pct)}};
    }
    return json{{"ceiling_gips", finite_or_null(p.ceiling_gips)},
                {"binding", p.binding},
                {"by_pipe", by_pipe}};
}

PipeCeilings pipes_from(const JsonNode& n) {
    n.expect_object();
    PipeCeilings p;
    p.ceiling_gips = n.num("ceiling_gips");
    p.binding = n.str("binding");
    const JsonNode by_pipe = n.at("by_pipe");
    by_pipe.expect_object();
    for (auto it = by_pipe.value().begin(); it != by_pipe.value().end(); ++it) {
        const JsonNode use = by_pipe.at(it.key());
        p.by_pipe[it.key()] = PipeUse{use.num("gips"), use.num("ceiling_gips"), use.num("pct")};
    }
    return p;
}

} // namespace

json analysis_to_json(const KernelAnalysis& a) {
    json out;
    out["irm"] = a.irm ? irm_json(*a.irm) : json(nullptr);
    out["walls"] = walls_json(a.walls);
    out["predication"] = opt(a.predication);
    out["flops"] = a.flops ? flops_json(*a.flops) : json(nullptr);
    out["mix"] = a.mix.empty() ? json(nullptr) : number_map(a.mix);
    out["pipes"] = a.pipes ? pipes_json(*a.pipes) : json(nullptr);
    out["ceilings"] = number_map(a.kernel_ceilings);
    out["projection"] = json::array();
    for (const Projection& p : a.projection) {
        out["projection"].push_back(projection_json(p));
    }
    if (a.waves) {
        out["waves"] = one_gpu_waves(a.waves); // absent: no SM limits for the profiled GPU
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
    a.mix = n.num_map("mix");
    if (n.has("pipes")) {
        a.pipes = pipes_from(n.at("pipes"));
    }
    a.kernel_ceilings = n.num_map("ceilings");
    if (n.has("projection")) {
        const JsonNode list = n.at("projection");
        list.expect_array();
        for (std::size_t i = 0; i < list.value().size(); ++i) {
            a.projection.push_back(projection_from(list.at(i)));
        }
    }
    a.waves = one_gpu_waves_from(n, "waves");
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
                {"gflops", number_map(u.gflops)},
                {"pipe_gips", number_map(u.pipe_gips)},
                {"provenance", u.provenance}};
}

CeilingsUsed ceilings_used_from_json(const JsonNode& n) {
    n.expect_object();
    CeilingsUsed u;
    u.name = n.str("name");
    u.source = n.str("source");
    u.warp_gips = n.num("warp_gips");
    u.gtxn_per_s = n.num_map("gtxn_per_s");
    u.gflops = n.num_map("gflops");
    u.pipe_gips = n.num_map("pipe_gips");
    if (n.has("provenance")) {
        const JsonNode prov = n.at("provenance");
        prov.expect_object();
        for (auto it = prov.value().begin(); it != prov.value().end(); ++it) {
            u.provenance[it.key()] = prov.at(it.key()).as_str();
        }
    }
    return u;
}

} // namespace irf::model

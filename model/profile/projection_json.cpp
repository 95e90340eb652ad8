// SPDX-License-Identifier: Apache-2.0
// JSON form of a projection's waves and L2 fit (keys: docs/output-schema.md, `projection[]`).
#include "model/profile/analysis_json.hpp"

namespace irf::model {

using nlohmann::json;

json one_gpu_waves(const std::optional<WaveCount>& w) {
    if (!w) {
        return nullptr;
    }
    return json{{"blocks", w->blocks},
                {"blocks_per_sm", w->blocks_per_sm},
                {"limiter", w->limiter},
                {"full_waves", w->full_waves},
                {"tail_blocks", w->tail_blocks},
                {"waves", w->waves},
                {"blocks_per_busiest_sm", w->blocks_per_busiest_sm},
                {"fill", finite_or_null(w->fill)}};
}

std::optional<WaveCount> one_gpu_waves_from(const JsonNode& parent, const std::string& key) {
    if (!parent.has(key) || parent.at(key).value().is_null()) {
        return std::nullopt;
    }
    const JsonNode n = parent.at(key);
    n.expect_object();
    WaveCount w;
    w.blocks = n.count("blocks");
    w.blocks_per_sm = static_cast<int>(n.count("blocks_per_sm"));
    w.limiter = n.str("limiter");
    w.full_waves = n.count("full_waves");
    w.tail_blocks = n.count("tail_blocks");
    w.waves = n.count("waves");
    w.blocks_per_busiest_sm = n.count("blocks_per_busiest_sm");
    w.fill = n.num("fill");
    return w;
}

namespace {

bool flag(const JsonNode& n, const std::string& key) {
    return n.has(key) && n.at(key).value().is_boolean() && n.at(key).value().get<bool>();
}

} // namespace

json waves_json(const Projection& p) {
    return json{{"source", one_gpu_waves(p.waves_source)},
                {"target", one_gpu_waves(p.waves_target)}};
}

void waves_from(const JsonNode& projection, Projection& p) {
    if (!projection.has("waves") || projection.at("waves").value().is_null()) {
        return;
    }
    const JsonNode w = projection.at("waves");
    w.expect_object();
    p.waves_source = one_gpu_waves_from(w, "source");
    p.waves_target = one_gpu_waves_from(w, "target");
}

json l2_fit_json(const std::optional<L2Fit>& f) {
    if (!f) {
        return nullptr;
    }
    return json{{"l2_traffic_bytes", finite_or_null(f->l2_traffic_bytes)},
                {"dram_source_bytes", finite_or_null(f->dram_source_bytes)},
                {"working_set_bytes", finite_or_null(f->working_set_bytes)},
                {"fits_source", f->fits_source},
                {"fits_target", f->fits_target},
                {"dram_target_bytes", finite_or_null(f->dram_target_bytes)},
                {"re_estimated", f->re_estimated}};
}

std::optional<L2Fit> l2_fit_from(const JsonNode& projection) {
    if (!projection.has("l2") || projection.at("l2").value().is_null()) {
        return std::nullopt;
    }
    const JsonNode n = projection.at("l2");
    n.expect_object();
    L2Fit f;
    f.l2_traffic_bytes = n.num("l2_traffic_bytes");
    f.dram_source_bytes = n.num("dram_source_bytes");
    f.working_set_bytes = n.num("working_set_bytes");
    f.fits_source = flag(n, "fits_source");
    f.fits_target = flag(n, "fits_target");
    f.dram_target_bytes = n.num("dram_target_bytes");
    f.re_estimated = flag(n, "re_estimated");
    return f;
}

} // namespace irf::model

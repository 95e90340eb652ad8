// SPDX-License-Identifier: Apache-2.0
// irf.ceilings/v1 parser: strict about keys, types and units; every error names file:line: key.
#include "config/ceilings_yaml.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <unordered_set>

#include <yaml-cpp/yaml.h>

#include "common/whole_number.hpp"
#include "config/ceilings_rules.hpp"
#include "config/datapaths.hpp"
#include "config/name_rules.hpp"
#include "config/sm_limits.hpp"
#include "config/text_list.hpp"
#include "config/yaml_guard.hpp"

namespace irf::config {
namespace {

using rules::LineMap;

/// Parse state: where errors point and the key -> line map the validator reuses.
struct Parser {
    std::string origin;
    LineMap lines;

    [[noreturn]] void fail(const YAML::Node& node, const std::string& key,
                           const std::string& problem) const {
        throw CeilingsError(origin + ":" + line_of(node) + key + ": " + problem);
    }

    static std::string line_of(const YAML::Node& node) {
        if (!node.IsDefined() || node.Mark().is_null()) {
            return "";
        }
        return std::to_string(node.Mark().line + 1) + ": ";
    }

    /// Remembers where `key` is; the first position wins, so a key's own line (recorded by
    /// check_keys) is kept over the line where its nested mapping starts.
    void note(const YAML::Node& node, const std::string& key) {
        if (node.IsDefined() && !node.Mark().is_null()) {
            lines.emplace(key, node.Mark().line + 1);
        }
    }

    /// Fails on a duplicate key of `map`, or one not in `allowed` (empty = any name).
    void check_keys(const YAML::Node& map, const std::string& path,
                    const std::vector<std::string>& allowed) {
        // A hash set: with a list, 350k keys under `details` took minutes (quadratic).
        std::unordered_set<std::string> seen;
        for (const auto& entry : map) {
            const auto key = entry.first.Scalar();
            if (key.size() > rules::k_max_name_length) {
                fail(entry.first, join_path(path, rules::quoted_for_error(key)),
                     "key longer than " + std::to_string(rules::k_max_name_length) + " characters");
            }
            if (!seen.insert(key).second) {
                // yaml-cpp keeps one of two equal keys silently; a ceilings file must not.
                fail(entry.first, join_path(path, key), "duplicate key");
            }
            note(entry.first, join_path(path, key));
            if (!allowed.empty() && !rules::contains(allowed, key)) {
                fail(entry.first, join_path(path, key),
                     "unknown key (expected one of: " + join(allowed, ", ") + ")");
            }
        }
    }

    static std::string join_path(const std::string& path, const std::string& key) {
        return path.empty() ? key : path + "." + key;
    }

    YAML::Node map_at(const YAML::Node& node, const std::string& path) {
        if (!node.IsMap()) {
            fail(node, path, "expected a mapping");
        }
        note(node, path);
        return node;
    }

    std::string text(const YAML::Node& node, const std::string& path) {
        if (!node.IsScalar()) {
            fail(node, path, "expected a string");
        }
        note(node, path);
        return node.Scalar();
    }

    double number(const YAML::Node& node, const std::string& path) {
        const auto s = text(node, path);
        errno = 0;
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) {
            fail(node, path, rules::quoted_for_error(s) + " is not a finite number");
        }
        return v;
    }

    std::uint64_t count(const YAML::Node& node, const std::string& path) {
        const auto s = text(node, path);
        if (!rules::is_digits(s, 18)) {
            fail(node, path, rules::quoted_for_error(s) + " " + common::whole_number_rule(0));
        }
        return std::stoull(s);
    }

    int small_int(const YAML::Node& node, const std::string& path) {
        const auto v = count(node, path);
        if (v > 1000000) {
            fail(node, path, std::to_string(v) + " is too large (at most 1000000)");
        }
        return static_cast<int>(v);
    }

    GpuIdentity gpu(const YAML::Node& node);
    SmLimits sm_limits(const YAML::Node& node);
    Stats stats(const YAML::Node& node, const std::string& path);
    Quantity quantity(const YAML::Node& node, const std::string& path, const std::string& unit,
                      bool nested);
    std::map<std::string, Quantity> group(const YAML::Node& node, const std::string& path,
                                          const std::string& section,
                                          const std::vector<std::string>& keys);
    Ceilings document(const YAML::Node& root);
};

GpuIdentity Parser::gpu(const YAML::Node& node) {
    map_at(node, "gpu");
    check_keys(node, "gpu", rules::gpu_keys());
    GpuIdentity g;
    for (const char* required : {"name", "cc", "sms", "boost_clock_mhz"}) {
        if (!node[required]) {
            fail(node, std::string("gpu.") + required, "missing");
        }
    }
    g.name = text(node["name"], "gpu.name");
    g.cc = text(node["cc"], "gpu.cc");
    g.sms = small_int(node["sms"], "gpu.sms");
    g.boost_clock_mhz = number(node["boost_clock_mhz"], "gpu.boost_clock_mhz");
    if (node["key"]) {
        g.key = text(node["key"], "gpu.key");
    }
    if (node["chip"]) {
        g.chip = text(node["chip"], "gpu.chip");
    }
    if (node["schedulers_per_sm"]) {
        g.schedulers_per_sm = small_int(node["schedulers_per_sm"], "gpu.schedulers_per_sm");
    }
    if (node["base_clock_mhz"]) {
        g.base_clock_mhz = number(node["base_clock_mhz"], "gpu.base_clock_mhz");
    }
    if (node["l2_bytes"]) {
        g.l2_bytes = count(node["l2_bytes"], "gpu.l2_bytes");
    }
    if (node["memory_bytes"]) {
        g.memory_bytes = count(node["memory_bytes"], "gpu.memory_bytes");
    }
    if (node["memory_type"]) {
        g.memory_type = text(node["memory_type"], "gpu.memory_type");
    }
    if (node["sm_limits"]) {
        g.sm_limits = sm_limits(node["sm_limits"]);
    }
    if (const auto aliases = node["aliases"]) {
        if (!aliases.IsSequence()) {
            fail(aliases, "gpu.aliases", "expected a list of device-name substrings");
        }
        for (const auto& a : aliases) {
            g.aliases.push_back(text(a, "gpu.aliases"));
        }
    }
    return g;
}

SmLimits Parser::sm_limits(const YAML::Node& node) {
    const std::string path = "gpu.sm_limits";
    std::vector<std::string> keys{"source"};
    for (const auto& field : sm_limit_fields()) {
        keys.push_back(field.first);
    }
    map_at(node, path);
    check_keys(node, path, keys);
    SmLimits l;
    for (const auto& key : keys) {
        if (!node[key]) {
            fail(node, path + "." + key, "missing (every SM limit is needed for blocks per SM)");
        }
    }
    l.source = text(node["source"], path + ".source");
    for (const auto& [key, member] : sm_limit_fields()) {
        l.*member = small_int(node[key], path + "." + key);
    }
    return l;
}

Stats Parser::stats(const YAML::Node& node, const std::string& path) {
    static const std::vector<std::string> keys = {"n", "best", "median", "worst", "spread_pct"};
    map_at(node, path);
    check_keys(node, path, keys);
    for (const auto& k : keys) {
        if (!node[k]) {
            fail(node, path + "." + k, "missing");
        }
    }
    Stats s;
    s.n = small_int(node["n"], path + ".n");
    s.best = number(node["best"], path + ".best");
    s.median = number(node["median"], path + ".median");
    s.worst = number(node["worst"], path + ".worst");
    s.spread_pct = number(node["spread_pct"], path + ".spread_pct");
    return s;
}

Quantity Parser::quantity(const YAML::Node& node, const std::string& path, const std::string& unit,
                          bool nested) {
    static const std::vector<std::string> keys = {
        "value", "unit",        "provenance", "source",           "method",
        "date",  "driver",      "clock_mhz",  "per_sm_per_clock", "working_set_bytes",
        "stats", "alternatives"};
    map_at(node, path);
    check_keys(node, path, keys);
    for (const char* required : {"value", "unit", "provenance"}) {
        if (!node[required]) {
            fail(node, path + "." + required, "missing");
        }
    }
    Quantity q;
    q.value = number(node["value"], path + ".value");
    q.unit = text(node["unit"], path + ".unit");
    const auto& allowed = unit.empty() ? rules::known_units() : std::vector<std::string>{unit};
    if (!rules::contains(allowed, q.unit)) {
        fail(node["unit"], path + ".unit",
             "unit '" + q.unit + "' is wrong here (expected " + join(allowed, ", ") + ")");
    }
    const auto prov = text(node["provenance"], path + ".provenance");
    if (!rules::parse_provenance(prov, q.provenance)) {
        fail(node["provenance"], path + ".provenance",
             "'" + prov + "' is not one of measured, published, spec, derived");
    }
    const auto opt_text = [&](const char* key, std::string& out) {
        if (node[key]) {
            out = text(node[key], path + "." + key);
        }
    };
    opt_text("source", q.source);
    opt_text("method", q.method);
    opt_text("date", q.date);
    opt_text("driver", q.driver);
    if (node["clock_mhz"]) {
        q.clock_mhz = number(node["clock_mhz"], path + ".clock_mhz");
    }
    if (node["per_sm_per_clock"]) {
        q.per_sm_per_clock = number(node["per_sm_per_clock"], path + ".per_sm_per_clock");
    }
    if (node["working_set_bytes"]) {
        q.working_set_bytes = count(node["working_set_bytes"], path + ".working_set_bytes");
    }
    if (node["stats"]) {
        q.stats = stats(node["stats"], path + ".stats");
    }
    if (const auto alts = node["alternatives"]) {
        if (nested) {
            fail(alts, path + ".alternatives", "alternatives cannot nest");
        }
        if (!alts.IsSequence()) {
            fail(alts, path + ".alternatives", "expected a list of values");
        }
        for (std::size_t i = 0; i < alts.size(); ++i) {
            q.alternatives.push_back(
                quantity(alts[i], path + ".alternatives[" + std::to_string(i) + "]", q.unit, true));
        }
    }
    return q;
}

std::map<std::string, Quantity> Parser::group(const YAML::Node& node, const std::string& path,
                                              const std::string& section,
                                              const std::vector<std::string>& keys) {
    map_at(node, path);
    check_keys(node, path, keys);
    std::map<std::string, Quantity> out;
    for (const auto& entry : node) {
        const auto key = entry.first.Scalar();
        const auto sub = path + "." + key;
        if (keys.empty() && !rules::is_detail_name(key)) {
            fail(entry.first, sub, "detail names are lower_snake_case");
        }
        out[key] = quantity(entry.second, sub, rules::required_unit(section, key), false);
    }
    return out;
}

Ceilings Parser::document(const YAML::Node& root) {
    if (!root.IsMap()) {
        fail(root, "(document)", "expected a mapping with schema, gpu and ceilings");
    }
    check_keys(root, "", {"schema", "gpu", "environment", "ceilings"});
    if (!root["schema"]) {
        fail(root, "schema", std::string("missing (expected ") + k_ceilings_schema + ")");
    }
    const auto schema = text(root["schema"], "schema");
    if (schema != k_ceilings_schema) {
        fail(root["schema"], "schema",
             "'" + schema + "' is not supported (expected " + k_ceilings_schema + ")");
    }
    for (const char* required : {"gpu", "ceilings"}) {
        if (!root[required]) {
            fail(root, required, "missing");
        }
    }
    Ceilings c;
    c.source = origin;
    c.gpu = gpu(root["gpu"]);
    if (const auto env = root["environment"]) {
        map_at(env, "environment");
        check_keys(env, "environment", rules::environment_keys());
        for (const auto& entry : env) {
            const auto key = entry.first.Scalar();
            c.environment[key] = text(entry.second, "environment." + key);
        }
    }
    const auto ceil = map_at(root["ceilings"], "ceilings");
    check_keys(ceil, "ceilings",
               {"warp_gips", "pipe_gips", "gflops", "tensor_tflops", "tensor_sparse_tflops",
                "l1_gbs", "shared_gbs", "l2_gbs", "hbm_gbs", "pcie_gbs", "details", "datapaths",
                "clocks", "latency"});
    if (!ceil["warp_gips"]) {
        fail(ceil, "ceilings.warp_gips", "missing (the issue-rate ceiling is required)");
    }
    c.warp_gips = quantity(ceil["warp_gips"], "ceilings.warp_gips", "warp-GIPS", false);
    const auto opt_group = [&](const char* key, const std::string& section,
                               const std::vector<std::string>& keys,
                               std::map<std::string, Quantity>& out) {
        if (ceil[key]) {
            out = group(ceil[key], std::string("ceilings.") + key, section, keys);
        }
    };
    opt_group("pipe_gips", "pipe_gips", rules::pipe_keys(), c.pipe_gips);
    opt_group("gflops", "gflops", rules::gflops_keys(), c.gflops);
    opt_group("tensor_tflops", "tensor", rules::tensor_keys(), c.tensor_tflops);
    opt_group("tensor_sparse_tflops", "tensor", rules::tensor_keys(), c.tensor_sparse_tflops);
    opt_group("details", "details", {}, c.details);
    opt_group("datapaths", "datapaths", {}, c.datapaths); // names checked by validate
    opt_group("clocks", "clocks", clock_keys(), c.clocks);
    opt_group("latency", "latency", {"launch_floor"}, c.latency);
    const auto opt_mem = [&](const char* key, std::optional<Quantity>& out) {
        if (ceil[key]) {
            out = quantity(ceil[key], std::string("ceilings.") + key, "GB/s", false);
        }
    };
    opt_mem("l1_gbs", c.l1_gbs);
    opt_mem("shared_gbs", c.shared_gbs);
    opt_mem("l2_gbs", c.l2_gbs);
    opt_mem("hbm_gbs", c.hbm_gbs);
    opt_mem("pcie_gbs", c.pcie_gbs);
    return c;
}

Ceilings parse_strict(const std::string& text, const std::string& origin) {
    Parser parser{origin, {}};
    YAML::Node root;
    try {
        refuse_yaml_aliases(text, origin);
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        const auto line = e.mark.is_null() ? std::string() : std::to_string(e.mark.line + 1) + ":";
        throw CeilingsError(origin + ":" + line + " (document): YAML syntax error: " + e.msg);
    }
    Ceilings c = parser.document(root);
    rules::validate(c, origin, parser.lines);
    return c;
}

} // namespace

Ceilings parse_ceilings_yaml(const std::string& text, const std::string& origin) {
    try {
        return parse_strict(text, origin);
    } catch (const CeilingsError& e) {
        throw rules::one_line(e);
    }
}

} // namespace irf::config

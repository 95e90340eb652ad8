// SPDX-License-Identifier: Apache-2.0
// irf.ceilings/v1 writer: the exact key order the parser reads, numbers that round-trip.
#include <yaml-cpp/yaml.h>

#include "config/ceilings_rules.hpp"
#include "config/ceilings_yaml.hpp"
#include "config/sm_limits.hpp"

namespace irf::config {
namespace {

void put_text(YAML::Emitter& out, const char* key, const std::string& value) {
    if (!value.empty()) {
        // Always quoted: names such as "9.0" or "null" must come back as strings.
        out << YAML::Key << key << YAML::Value << YAML::DoubleQuoted << value;
    }
}

void put_number(YAML::Emitter& out, const char* key, double value) {
    out << YAML::Key << key << YAML::Value << rules::format_double(value);
}

void put_quantity(YAML::Emitter& out, const Quantity& q) {
    out << YAML::BeginMap;
    put_number(out, "value", q.value);
    out << YAML::Key << "unit" << YAML::Value << q.unit;
    out << YAML::Key << "provenance" << YAML::Value << to_string(q.provenance);
    put_text(out, "source", q.source);
    put_text(out, "method", q.method);
    put_text(out, "date", q.date);
    put_text(out, "driver", q.driver);
    if (q.clock_mhz > 0) {
        put_number(out, "clock_mhz", q.clock_mhz);
    }
    if (q.per_sm_per_clock > 0) {
        put_number(out, "per_sm_per_clock", q.per_sm_per_clock);
    }
    if (q.working_set_bytes > 0) {
        out << YAML::Key << "working_set_bytes" << YAML::Value << q.working_set_bytes;
    }
    if (q.stats) {
        out << YAML::Key << "stats" << YAML::Value << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "n" << YAML::Value << q.stats->n;
        put_number(out, "best", q.stats->best);
        put_number(out, "median", q.stats->median);
        put_number(out, "worst", q.stats->worst);
        put_number(out, "spread_pct", q.stats->spread_pct);
        out << YAML::EndMap;
    }
    if (!q.alternatives.empty()) {
        out << YAML::Key << "alternatives" << YAML::Value << YAML::BeginSeq;
        for (const auto& alt : q.alternatives) {
            put_quantity(out, alt);
        }
        out << YAML::EndSeq;
    }
    out << YAML::EndMap;
}

void put_group(YAML::Emitter& out, const char* key, const std::map<std::string, Quantity>& m) {
    if (m.empty()) {
        return;
    }
    out << YAML::Key << key << YAML::Value << YAML::BeginMap;
    for (const auto& [name, q] : m) {
        out << YAML::Key << name << YAML::Value;
        put_quantity(out, q);
    }
    out << YAML::EndMap;
}

void put_gpu(YAML::Emitter& out, const GpuIdentity& g) {
    out << YAML::Key << "gpu" << YAML::Value << YAML::BeginMap;
    put_text(out, "name", g.name);
    put_text(out, "key", g.key);
    put_text(out, "chip", g.chip);
    put_text(out, "cc", g.cc);
    out << YAML::Key << "sms" << YAML::Value << g.sms;
    out << YAML::Key << "schedulers_per_sm" << YAML::Value << g.schedulers_per_sm;
    put_number(out, "boost_clock_mhz", g.boost_clock_mhz);
    if (g.base_clock_mhz > 0) {
        put_number(out, "base_clock_mhz", g.base_clock_mhz);
    }
    if (g.l2_bytes > 0) {
        out << YAML::Key << "l2_bytes" << YAML::Value << g.l2_bytes;
    }
    if (g.memory_bytes > 0) {
        out << YAML::Key << "memory_bytes" << YAML::Value << g.memory_bytes;
    }
    put_text(out, "memory_type", g.memory_type);
    if (g.sm_limits) {
        out << YAML::Key << "sm_limits" << YAML::Value << YAML::BeginMap;
        for (const auto& [key, member] : sm_limit_fields()) {
            out << YAML::Key << key << YAML::Value << (*g.sm_limits).*member;
        }
        put_text(out, "source", g.sm_limits->source);
        out << YAML::EndMap;
    }
    if (!g.aliases.empty()) {
        out << YAML::Key << "aliases" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (const auto& a : g.aliases) {
            out << YAML::DoubleQuoted << a;
        }
        out << YAML::EndSeq;
    }
    out << YAML::EndMap;
}

} // namespace

std::string to_yaml(const Ceilings& c) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "schema" << YAML::Value << k_ceilings_schema;
    put_gpu(out, c.gpu);
    if (!c.environment.empty()) {
        out << YAML::Key << "environment" << YAML::Value << YAML::BeginMap;
        for (const auto& [key, value] : c.environment) {
            put_text(out, key.c_str(), value);
        }
        out << YAML::EndMap;
    }
    out << YAML::Key << "ceilings" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "warp_gips" << YAML::Value;
    put_quantity(out, c.warp_gips);
    put_group(out, "pipe_gips", c.pipe_gips);
    put_group(out, "gflops", c.gflops);
    put_group(out, "tensor_tflops", c.tensor_tflops);
    put_group(out, "tensor_sparse_tflops", c.tensor_sparse_tflops);
    const std::pair<const char*, const std::optional<Quantity>*> memory[] = {
        {"l1_gbs", &c.l1_gbs},
        {"shared_gbs", &c.shared_gbs},
        {"l2_gbs", &c.l2_gbs},
        {"hbm_gbs", &c.hbm_gbs},
        {"pcie_gbs", &c.pcie_gbs}};
    for (const auto& [key, q] : memory) {
        if (*q) {
            out << YAML::Key << key << YAML::Value;
            put_quantity(out, **q);
        }
    }
    put_group(out, "details", c.details);
    put_group(out, "datapaths", c.datapaths);
    put_group(out, "clocks", c.clocks);
    put_group(out, "latency", c.latency);
    out << YAML::EndMap << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

} // namespace irf::config

// SPDX-License-Identifier: Apache-2.0
// irf.ceilings/v1 rules: key sets, units, and the cross-field checks that catch impossible files.
#include "config/ceilings_rules.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "config/ceilings_yaml.hpp"
#include "config/datapaths.hpp"
#include "config/name_rules.hpp"
#include "config/sm_limits.hpp"
#include "config/text_list.hpp"

namespace irf::config::rules {

const std::vector<std::string>& pipe_keys() {
    static const std::vector<std::string> keys = {"fp32", "fp64", "fp16", "int32", "alu",
                                                  "fma",  "xu",   "lsu",  "tensor"};
    return keys;
}

const std::vector<std::string>& gpu_keys() {
    static const std::vector<std::string> keys = {"name",
                                                  "key",
                                                  "chip",
                                                  "cc",
                                                  "sms",
                                                  "schedulers_per_sm",
                                                  "aliases",
                                                  "l2_bytes",
                                                  "memory_bytes",
                                                  "memory_type",
                                                  "boost_clock_mhz",
                                                  "base_clock_mhz",
                                                  "sm_limits"};
    return keys;
}

const std::vector<std::string>& gflops_keys() {
    static const std::vector<std::string> keys = {"fp64_fma",   "fp64_nofma", "fp32_fma",
                                                  "fp32_nofma", "fp16_fma",   "fp16_nofma",
                                                  "bf16_fma",   "bf16_nofma"};
    return keys;
}

const std::vector<std::string>& tensor_keys() {
    // fp16/bf16 = FP32 accumulate; fp16_f16acc = FP16 accumulate (faster on GeForce parts).
    static const std::vector<std::string> keys = {"fp16", "fp16_f16acc", "bf16", "tf32", "fp8",
                                                  "fp6",  "fp4",         "int8", "int4", "fp64"};
    return keys;
}

const std::vector<std::string>& environment_keys() {
    static const std::vector<std::string> keys = {"driver",        "runtime",       "host",
                                                  "tool",          "timestamp_utc", "clock_policy",
                                                  "power_limit_w", "ecc",           "note"};
    return keys;
}

const std::vector<std::string>& known_units() {
    static const std::vector<std::string> units = {"warp-GIPS", "GFLOP/s", "TFLOP/s", "TOPS",
                                                   "GB/s",      "GIOPS",   "MHz",     "us"};
    return units;
}

std::string required_unit(const std::string& section, const std::string& key) {
    if (section == "clocks" || section == "latency") {
        return section == "clocks" ? "MHz" : "us";
    }
    if (section == "warp_gips" || section == "pipe_gips" || section == "datapaths") {
        return "warp-GIPS";
    }
    if (section == "gflops") {
        return "GFLOP/s";
    }
    if (section == "tensor") {
        return key.rfind("int", 0) == 0 ? "TOPS" : "TFLOP/s";
    }
    if (section == "memory") {
        return "GB/s";
    }
    // details: memory-level names must be bandwidths; anything else may use any known unit.
    for (const char* prefix : {"hbm_", "l1_", "l2_", "shared_", "pcie_", "nvlink_"}) {
        if (key.rfind(prefix, 0) == 0) {
            return "GB/s";
        }
    }
    return "";
}

double per_clock_scale(const std::string& unit) {
    // SMs x rate/clk x clock_mhz x 1e6 /s, then to giga (1e9) or tera (1e12) units.
    return unit == "TFLOP/s" || unit == "TOPS" ? 1e6 : 1e3;
}

bool contains(const std::vector<std::string>& list, const std::string& name) {
    for (const auto& item : list) {
        if (item == name) {
            return true;
        }
    }
    return false;
}

bool parse_provenance(const std::string& text, Provenance& out) {
    for (auto p :
         {Provenance::measured, Provenance::published, Provenance::spec, Provenance::derived}) {
        if (text == to_string(p)) {
            out = p;
            return true;
        }
    }
    return false;
}

std::string format_double(double value) {
    char buf[64];
    for (int digits = 6; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, value);
        if (std::strtod(buf, nullptr) == value) {
            break;
        }
    }
    return buf;
}

namespace {

/// Cross-field checker: knows the file's lines so errors point at the offending key.
struct Checker {
    const Ceilings& c;
    const std::string& origin;
    const LineMap& lines;

    [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
        // Point at the key itself, else at the nearest enclosing key the parser saw.
        std::string probe = key;
        auto it = lines.find(probe);
        while (it == lines.end() && probe.find('.') != std::string::npos) {
            probe = probe.substr(0, probe.rfind('.'));
            it = lines.find(probe);
        }
        const auto line = it == lines.end() ? std::string() : std::to_string(it->second) + ":";
        throw CeilingsError(origin + ":" + line + " " + key + ": " + problem);
    }

    static bool near(double a, double b, double rel) { return std::fabs(a - b) <= rel * b; }

    void gpu() const;
    void sm_limits(const SmLimits& l) const;
    void quantity(const Quantity& q, const std::string& path, const std::string& unit,
                  bool nested) const;
    void provenance(const Quantity& q, const std::string& path) const;
    void cross() const;
};

void Checker::gpu() const {
    const auto& g = c.gpu;
    if (g.name.empty()) {
        fail("gpu.name", "must not be empty");
    }
    if (!is_compute_capability(g.cc)) {
        fail("gpu.cc", quoted_for_error(g.cc) + " is not a compute capability like \"9.0\"");
    }
    if (!g.key.empty() && !is_gpu_key(g.key)) {
        fail("gpu.key", quoted_for_error(g.key) + " must be lower-case letters, digits, '-' and " +
                            "'.', at most " + std::to_string(k_max_name_length) + " characters");
    }
    if (g.sms <= 0 || g.sms > 4096) {
        fail("gpu.sms",
             std::to_string(g.sms) + " is not a possible SM count (must be between 1 and 4096)");
    }
    if (g.schedulers_per_sm < 1 || g.schedulers_per_sm > 8) {
        fail("gpu.schedulers_per_sm",
             std::to_string(g.schedulers_per_sm) + " must be between 1 and 8");
    }
    if (g.boost_clock_mhz < 100 || g.boost_clock_mhz > 5000) {
        fail("gpu.boost_clock_mhz",
             format_double(g.boost_clock_mhz) +
                 " MHz must be between 100 and 5000 MHz (GHz written as MHz?)");
    }
    if (g.base_clock_mhz < 0 || g.base_clock_mhz > g.boost_clock_mhz) {
        fail("gpu.base_clock_mhz",
             format_double(g.base_clock_mhz) + " MHz must be between 0 and the boost clock");
    }
    if (g.sm_limits) {
        sm_limits(*g.sm_limits);
    }
}

// The occupancy calculation divides by these and relies on their relations (docs/model.md, Waves).
void Checker::sm_limits(const SmLimits& l) const {
    const std::string path = "gpu.sm_limits.";
    for (const auto& [key, member] : sm_limit_fields()) {
        const bool may_be_zero = key == "shared_reserved_per_block";
        if (l.*member < 0 || (l.*member == 0 && !may_be_zero)) {
            fail(path + key, std::to_string(l.*member) + " must be positive");
        }
    }
    if (l.max_warps_per_sm * 32 != l.max_threads_per_sm) {
        fail(path + "max_warps_per_sm", std::to_string(l.max_warps_per_sm) +
                                            " warps x 32 is not max_threads_per_sm " +
                                            std::to_string(l.max_threads_per_sm));
    }
    if (l.max_threads_per_block > l.max_threads_per_sm) {
        fail(path + "max_threads_per_block", "exceeds max_threads_per_sm");
    }
    if (l.registers_per_sm % l.register_alloc_unit != 0) {
        fail(path + "registers_per_sm", "is not a multiple of register_alloc_unit");
    }
    if (l.shared_bytes_per_block > l.shared_bytes_per_sm) {
        fail(path + "shared_bytes_per_block", "exceeds shared_bytes_per_sm");
    }
    if (l.source.empty()) {
        fail(path + "source", "SM limits need a source (document)");
    }
}

void Checker::provenance(const Quantity& q, const std::string& path) const {
    switch (q.provenance) {
    case Provenance::spec:
    case Provenance::published:
        if (q.source.empty()) {
            fail(path + ".source", std::string("a ") + to_string(q.provenance) +
                                       " value needs a source (URL, document or repo@commit)");
        }
        break;
    case Provenance::derived:
        if (q.method.empty()) {
            fail(path + ".method", "a derived value needs its formula in method");
        }
        break;
    case Provenance::measured:
        if (q.method.empty()) {
            fail(path + ".method", "a measured value needs the method (benchmark) in method");
        }
        break;
    }
    if (!q.date.empty() && !is_iso_date(q.date)) {
        fail(path + ".date", quoted_for_error(q.date) + " is not an ISO date (YYYY-MM-DD)");
    }
}

void Checker::quantity(const Quantity& q, const std::string& path, const std::string& unit,
                       bool nested) const {
    if (unit.empty() ? !contains(known_units(), q.unit) : q.unit != unit) {
        fail(path + ".unit", "unit '" + q.unit + "' is wrong here (expected " +
                                 (unit.empty() ? join(known_units(), ", ") : unit) + ")");
    }
    if (!(q.value > 0)) {
        fail(path + ".value", format_double(q.value) + " " + q.unit + " must be positive");
    }
    provenance(q, path);
    if (q.clock_mhz < 0 || (q.clock_mhz > 0 && q.clock_mhz < 100) ||
        q.clock_mhz > c.gpu.boost_clock_mhz * 1.1) {
        fail(path + ".clock_mhz",
             format_double(q.clock_mhz) + " MHz must be 0 (not recorded) or between 100 and " +
                 format_double(c.gpu.boost_clock_mhz * 1.1) + " MHz (1.1 x the boost clock of " +
                 format_double(c.gpu.boost_clock_mhz) + ")");
    }
    if (q.per_sm_per_clock < 0) {
        fail(path + ".per_sm_per_clock", "must not be negative");
    }
    if (q.per_sm_per_clock > 0) {
        const double clock = q.clock_mhz > 0 ? q.clock_mhz : c.gpu.boost_clock_mhz;
        const double expect = c.gpu.sms * q.per_sm_per_clock * clock / per_clock_scale(q.unit);
        if (!near(q.value, expect, 0.01)) {
            fail(path + ".value", format_double(q.value) + " " + q.unit +
                                      " differs by over 1% from " +
                                      "sms x per_sm_per_clock x clock = " + format_double(expect));
        }
    }
    if (q.stats) {
        const auto& s = *q.stats;
        if (s.n < 1 || s.worst <= 0 || s.worst > s.median || s.median > s.best ||
            s.spread_pct < 0) {
            fail(path + ".stats", "needs n >= 1 and 0 < worst <= median <= best, spread >= 0");
        }
    }
    for (std::size_t i = 0; i < q.alternatives.size() && !nested; ++i) {
        const auto sub = path + ".alternatives[" + std::to_string(i) + "]";
        quantity(q.alternatives[i], sub, q.unit, true);
    }
}

void Checker::cross() const {
    const auto& g = c.gpu;
    // Instruction Roofline peak: one warp-instruction per scheduler per clock.
    const double peak = g.sms * g.schedulers_per_sm * g.boost_clock_mhz / 1e3;
    const auto& w = c.warp_gips;
    if (w.provenance == Provenance::spec || w.provenance == Provenance::derived) {
        const double clock = w.clock_mhz > 0 ? w.clock_mhz : g.boost_clock_mhz;
        const double expect = g.sms * g.schedulers_per_sm * clock / 1e3;
        if (!near(w.value, expect, 0.01)) {
            fail("ceilings.warp_gips.value",
                 format_double(w.value) + " warp-GIPS is inconsistent with sms x schedulers x " +
                     "clock = " + format_double(expect));
        }
    } else if (w.value > peak * 1.02) {
        fail("ceilings.warp_gips.value",
             format_double(w.value) +
                 " warp-GIPS exceeds sms x schedulers x boost = " + format_double(peak));
    }
    for (const auto& [key, q] : c.pipe_gips) {
        if (q.value > peak * 1.02) {
            fail("ceilings.pipe_gips." + key + ".value", format_double(q.value) +
                                                             " warp-GIPS exceeds the issue peak " +
                                                             format_double(peak));
        }
    }
    for (const auto& [key, q] : c.gflops) {
        const auto pos = key.find("_nofma");
        if (pos == std::string::npos) {
            continue;
        }
        const auto fma = c.gflops.find(key.substr(0, pos) + "_fma");
        if (fma != c.gflops.end() && q.value > fma->second.value * 1.01) {
            fail("ceilings.gflops." + key + ".value",
                 "no-FMA " + format_double(q.value) + " exceeds FMA " +
                     format_double(fma->second.value) + " GFLOP/s");
        }
    }
    for (const auto& [key, q] : c.tensor_sparse_tflops) {
        const auto dense = c.tensor_tflops.find(key);
        if (dense == c.tensor_tflops.end()) {
            fail("ceilings.tensor_sparse_tflops." + key, "has no dense tensor_tflops." + key);
        }
        if (q.value < dense->second.value) {
            fail("ceilings.tensor_sparse_tflops." + key + ".value",
                 "sparse " + format_double(q.value) + " is below dense " +
                     format_double(dense->second.value) + " (dense values are stored as dense)");
        }
    }
    if (c.hbm_gbs && c.l2_gbs && c.hbm_gbs->value >= c.l2_gbs->value) {
        fail("ceilings.hbm_gbs.value", "HBM " + format_double(c.hbm_gbs->value) +
                                           " GB/s is not below L2 " +
                                           format_double(c.l2_gbs->value) + " GB/s");
    }
}

} // namespace

void validate(const Ceilings& ceilings, const std::string& origin, const LineMap& lines) {
    const Checker check{ceilings, origin, lines};
    check.gpu();
    check.quantity(ceilings.warp_gips, "ceilings.warp_gips", "warp-GIPS", false);
    const auto each = [&](const std::map<std::string, Quantity>& m, const std::string& path,
                          const std::string& section, const std::vector<std::string>& keys) {
        for (const auto& [key, q] : m) {
            if (!keys.empty() && !contains(keys, key)) {
                check.fail(path + "." + key,
                           "unknown key (expected one of: " + join(keys, ", ") + ")");
            }
            check.quantity(q, path + "." + key, required_unit(section, key), false);
        }
    };
    each(ceilings.pipe_gips, "ceilings.pipe_gips", "pipe_gips", pipe_keys());
    each(ceilings.gflops, "ceilings.gflops", "gflops", gflops_keys());
    each(ceilings.tensor_tflops, "ceilings.tensor_tflops", "tensor", tensor_keys());
    each(ceilings.tensor_sparse_tflops, "ceilings.tensor_sparse_tflops", "tensor", tensor_keys());
    each(ceilings.details, "ceilings.details", "details", {});
    each(ceilings.datapaths, "ceilings.datapaths", "datapaths", {});
    each(ceilings.clocks, "ceilings.clocks", "clocks", clock_keys());
    each(ceilings.latency, "ceilings.latency", "latency", {"launch_floor"});
    validate_generations(ceilings, [&check](const std::string& key, const std::string& problem) {
        check.fail(key, problem);
    });
    const std::pair<const std::optional<Quantity>*, const char*> memory[] = {
        {&ceilings.l1_gbs, "ceilings.l1_gbs"},
        {&ceilings.shared_gbs, "ceilings.shared_gbs"},
        {&ceilings.l2_gbs, "ceilings.l2_gbs"},
        {&ceilings.hbm_gbs, "ceilings.hbm_gbs"},
        {&ceilings.pcie_gbs, "ceilings.pcie_gbs"}};
    for (const auto& [q, path] : memory) {
        if (*q) {
            check.quantity(**q, path, "GB/s", false);
        }
    }
    check.cross();
}

} // namespace irf::config::rules

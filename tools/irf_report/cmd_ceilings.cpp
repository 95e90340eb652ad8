// SPDX-License-Identifier: Apache-2.0
// `irf-report ceilings [NAME|FILE]`: list the shipped ceilings database or print one entry, with
// measured/spec ratios where both exist.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include "config/ceilings_yaml.hpp"
#include "config/gpu_database.hpp"
#include "model/roofline/transactions.hpp"
#include "tools/irf_report/command.hpp"
#include "tools/irf_report/reanalysis.hpp"

namespace irf::report {
namespace {

using config::Ceilings;
using config::Quantity;

std::string ceiling_num(double v, int decimals = 1) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string opt(const std::optional<Quantity>& q) {
    return q ? ceiling_num(q->value, 0) : "-";
}

std::string from_map(const std::map<std::string, Quantity>& m, const std::string& key) {
    const auto it = m.find(key);
    return it == m.end() ? "-" : ceiling_num(it->second.value, 0);
}

/// Provenance kinds of the chosen values, e.g. "spec+derived+published".
std::string provenance_summary(const Ceilings& c) {
    std::vector<std::string> kinds;
    const auto add = [&](const Quantity& q) {
        const std::string k = config::to_string(q.provenance);
        if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) {
            kinds.push_back(k);
        }
    };
    add(c.warp_gips);
    for (const auto* m : {&c.pipe_gips, &c.gflops, &c.tensor_tflops}) {
        for (const auto& [key, q] : *m) {
            add(q);
        }
    }
    for (const auto* q : {&c.l1_gbs, &c.shared_gbs, &c.l2_gbs, &c.hbm_gbs, &c.pcie_gbs}) {
        if (*q) {
            add(**q);
        }
    }
    std::string out;
    for (const auto& k : kinds) {
        out += (out.empty() ? "" : "+") + k;
    }
    return out;
}

int list(const std::vector<std::string>& dirs) {
    std::printf("%-20s %-28s %-7s %5s %9s %8s %9s %9s  %s\n", "key", "name", "chip", "SMs",
                "warpGIPS", "HBM GB/s", "FP64 GF/s", "FP32 GF/s", "provenance");
    for (const auto& key : config::list_shipped(dirs)) {
        try {
            const auto c = config::load_shipped(key, dirs);
            std::printf("%-20s %-28s %-7s %5d %9s %8s %9s %9s  %s\n", key.c_str(),
                        c.gpu.name.substr(0, 28).c_str(), c.gpu.chip.c_str(), c.gpu.sms,
                        ceiling_num(c.warp_gips.value).c_str(), opt(c.hbm_gbs).c_str(),
                        from_map(c.gflops, "fp64_fma").c_str(),
                        from_map(c.gflops, "fp32_fma").c_str(), provenance_summary(c).c_str());
        } catch (const config::CeilingsError& e) {
            // One broken file must not hide the rest of the database; say which and why.
            std::printf("%-20s (invalid: %s)\n", key.c_str(), e.what());
        }
    }
    std::printf("directories: ");
    for (std::size_t i = 0; i < dirs.size(); ++i) {
        std::printf("%s%s", i ? ":" : "", dirs[i].c_str());
    }
    std::printf("\n");
    return 0;
}

/// A named value of an entry, flattened for printing and ratio lookup.
struct Row {
    std::string name;
    const Quantity* q;
};

std::vector<Row> rows(const Ceilings& c) {
    std::vector<Row> out{{"warp_gips", &c.warp_gips}};
    const auto group = [&](const char* prefix, const std::map<std::string, Quantity>& m) {
        for (const auto& [key, q] : m) {
            out.push_back({std::string(prefix) + key, &q});
        }
    };
    group("pipe_gips.", c.pipe_gips);
    group("gflops.", c.gflops);
    group("tensor.", c.tensor_tflops);
    group("tensor_sparse.", c.tensor_sparse_tflops);
    const std::pair<const char*, const std::optional<Quantity>*> mem[] = {
        {"l1_gbs", &c.l1_gbs},
        {"shared_gbs", &c.shared_gbs},
        {"l2_gbs", &c.l2_gbs},
        {"hbm_gbs", &c.hbm_gbs},
        {"pcie_gbs", &c.pcie_gbs}};
    for (const auto& [name, q] : mem) {
        if (*q) {
            out.push_back({name, &**q});
        }
    }
    group("details.", c.details);
    group("datapaths.", c.datapaths);
    group("clocks.", c.clocks);
    group("latency.", c.latency);
    return out;
}

const Quantity* find_row(const std::vector<Row>& rs, const std::string& name) {
    for (const auto& r : rs) {
        if (r.name == name) {
            return r.q;
        }
    }
    return nullptr;
}

void print_quantity(const std::string& name, const Quantity& q, const Quantity* reference,
                    const std::string& ref_label) {
    std::ostringstream line;
    line << "  " << name << ": " << ceiling_num(q.value, 2) << " " << q.unit;
    if (q.unit == "GB/s") {
        line << " (" << ceiling_num(model::gtxn_per_s(q.value), 2) << " GTXN/s)";
    }
    line << " [" << config::to_string(q.provenance) << "]";
    if (q.clock_mhz > 0) {
        line << " @" << ceiling_num(q.clock_mhz, 0) << " MHz";
    }
    if (reference != nullptr && reference->value > 0) {
        line << "  " << ref_label << " " << ceiling_num(q.value / reference->value, 3);
    }
    std::cout << line.str() << "\n";
    if (!q.method.empty()) {
        std::cout << "      method: " << q.method << "\n";
    }
    if (!q.source.empty()) {
        std::cout << "      source: " << q.source << "\n";
    }
    if (q.stats) {
        std::cout << "      best of " << q.stats->n << ", median "
                  << ceiling_num(q.stats->median, 2) << ", spread "
                  << ceiling_num(q.stats->spread_pct, 2) << "%\n";
    }
    for (const auto& alt : q.alternatives) {
        std::cout << "      alt: " << ceiling_num(alt.value, 2) << " " << alt.unit << " ["
                  << config::to_string(alt.provenance) << "] ratio to value "
                  << ceiling_num(alt.value / q.value, 3) << "; " << alt.method << " (" << alt.source
                  << ")\n";
    }
}

/// The counterpart to compare with: the spec entry for a measured one, and vice versa.
std::optional<Ceilings> counterpart(const Ceilings& c, const std::vector<std::string>& dirs,
                                    std::string& label) {
    const std::string suffix = ".measured";
    const auto& key = c.gpu.key;
    std::string other;
    if (key.size() > suffix.size() &&
        key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0) {
        other = key.substr(0, key.size() - suffix.size());
        label = "measured/spec";
    } else if (c.warp_gips.provenance == config::Provenance::measured) {
        other = config::match_gpu(c.gpu.name, c.gpu.cc, c.gpu.sms, dirs).value_or("");
        if (other.size() > suffix.size() && other.find(suffix) != std::string::npos) {
            other = other.substr(0, other.size() - suffix.size());
        }
        label = "measured/spec";
    } else if (!key.empty()) {
        other = key + suffix;
        label = "spec/measured";
    }
    const auto keys = config::list_shipped(dirs);
    if (other.empty() || std::find(keys.begin(), keys.end(), other) == keys.end()) {
        return std::nullopt;
    }
    return config::load_shipped(other, dirs);
}

int show(const std::string& what, const std::vector<std::string>& dirs) {
    const bool is_file = what.find('/') != std::string::npos ||
                         (what.size() > 5 && what.substr(what.size() - 5) == ".yaml");
    Ceilings c;
    try {
        c = is_file ? config::load_ceilings_file(what) : config::load_shipped(what, dirs);
    } catch (const config::CeilingsError& e) {
        throw InputError(e.what());
    }
    const auto& g = c.gpu;
    std::cout << g.name << " (" << (g.key.empty() ? "no key" : g.key) << ")\n"
              << "  chip " << g.chip << ", cc " << g.cc << ", " << g.sms << " SMs x "
              << g.schedulers_per_sm << " schedulers, boost " << ceiling_num(g.boost_clock_mhz, 0)
              << " MHz, L2 " << (g.l2_bytes >> 20) << " MiB, " << g.memory_type << "\n"
              << "  source: " << c.source << "\n";
    if (const auto& l = g.sm_limits) {
        // What blocks per SM and waves are computed from (docs/model.md, "Waves").
        std::cout << "  per SM: " << l->max_threads_per_sm << " threads (" << l->max_warps_per_sm
                  << " warps), " << l->max_blocks_per_sm << " blocks, " << l->registers_per_sm
                  << " registers, " << (l->shared_bytes_per_sm >> 10) << " KiB shared ("
                  << (l->shared_bytes_per_block >> 10) << " KiB per block)\n";
    }
    for (const auto& [key, value] : c.environment) {
        std::cout << "  " << key << ": " << value << "\n";
    }
    std::string label;
    std::optional<Ceilings> other;
    try {
        other = counterpart(c, dirs, label);
    } catch (const config::CeilingsError& e) {
        std::cout << "  (no ratios: " << e.what() << ")\n";
    }
    const auto other_rows = other ? rows(*other) : std::vector<Row>{};
    if (other) {
        std::cout << "  ratios against " << other->source << " (" << label << ")\n";
    }
    for (const auto& r : rows(c)) {
        print_quantity(r.name, *r.q, find_row(other_rows, r.name), label);
    }
    return 0;
}

const bool s_ceilings_registered = register_command(
    {"ceilings", "List the shipped ceilings database or print one entry (NAME or FILE)",
     [](CLI::App& app) -> std::function<int()> {
         auto target = std::make_shared<std::string>();
         app.add_option("entry", *target,
                        "database key (e.g. h100-sxm5) or path to a ceilings YAML file; "
                        "omit to list the database");
         app.footer("Database directories: $IRF_GPUS_DIR, <bin>/../share/irf/gpus, source tree.");
         return [target] {
             const auto dirs = shipped_dirs();
             return target->empty() ? list(dirs) : show(*target, dirs);
         };
     }});

} // namespace
} // namespace irf::report

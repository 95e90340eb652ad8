// SPDX-License-Identifier: Apache-2.0
// The HTML page's data: header, one compact row per kernel, and `irf-report show`'s sections of
// the longest kernels (html_page.hpp). Rows are arrays under one list of column names, and
// numbers keep 4 significant digits, so 10,000 kernels stay a few MB.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "common/text_safety.hpp"
#include "model/profile/kernel_labels.hpp"
#include "model/profile/profile_json.hpp"
#include "tools/irf_report/html_page.hpp"
#include "tools/irf_report/html_page_parts.hpp"
#include "tools/irf_report/show_kernel.hpp"

namespace irf::report {
namespace {

using nlohmann::json;

/// Warp instructions of `names` per ns of the profiled launches: a wall's ld/st GIPS, counting
/// the instructions its intensity counts (irf-plot's wall figures, IRM Fig. 3-4).
json ldst_gips(const json& counters, std::initializer_list<const char*> names) {
    const double time = counters.value("time_ns", 0.0);
    double total = 0;
    for (const char* name : names) {
        total += counters.value(name, 0.0);
    }
    return time > 0 && total > 0 ? json(total / time) : json();
}

/// The pipe a kernel uses most relative to its peak: [name, its warp GIPS, % of its peak].
json busiest_pipe(const json& analysis) {
    const json by_pipe = json_at(analysis, "/pipes/by_pipe");
    if (!by_pipe.is_object() || by_pipe.empty()) {
        return json();
    }
    const auto best = std::max_element(
        by_pipe.items().begin(), by_pipe.items().end(), [](const auto& a, const auto& b) {
            return a.value().value("pct", 0.0) < b.value().value("pct", 0.0);
        });
    return json::array(
        {best.key(), best.value().value("gips", 0.0), best.value().value("pct", 0.0)});
}

/// Per precision with FLOPs: [GFLOP/s, AI l1, AI l2, AI hbm, ceiling GFLOP/s] (HRM Eq. 2-4).
/// None for a kernel whose tensor work was not counted (tensor instructions that are not
/// register moves, no tensor FLOPs): its CUDA-core FLOPs would misplace it, and irf-plot leaves
/// it out too.
json flop_points(const json& analysis, const json& counters) {
    json out = json::object();
    const json by = json_at(analysis, "/flops/by_precision");
    const json inst_tensor = json_at(counters, "/inst_tensor");
    const json moves = json_at(analysis, "/flops/tensor_register_moves");
    const json tensor = json_at(analysis, "/flops/tensor");
    const bool uncounted = inst_tensor.is_number() && inst_tensor.get<double>() > 0 &&
                           !(moves.is_number() && moves.get<double>() > 0) &&
                           !(tensor.is_number() && tensor.get<double>() > 0);
    if (!by.is_object() || uncounted) {
        return out;
    }
    for (const auto& [precision, v] : by.items()) {
        if (v.value("flops", 0.0) <= 0) {
            continue;
        }
        out[precision] =
            json::array({v.value("gflops", 0.0), json_at(v, "/ai/l1"), json_at(v, "/ai/l2"),
                         json_at(v, "/ai/hbm"), v.value("ceiling_gflops", json())});
    }
    return out;
}

const std::vector<std::string>& kernel_columns() {
    static const std::vector<std::string> columns = {
        "label",     "name",         "time",        "share",    "launches", "profiled",
        "mean",      "gips_warp",    "gips_thread", "ii_l1",    "ii_l2",    "ii_hbm",
        "iit_l1",    "iit_l2",       "iit_hbm",     "bound",    "roof_pct", "predication",
        "gw_ii",     "gw_pattern",   "gw_unit",     "gw_bytes", "gw_gips",  "sw_ii",
        "sw_ways",   "sw_free",      "sw_gips",     "pipe",     "gflops",   "flops",
        "imbalance", "slowest_rank", "irm_missing"};
    return columns;
}

/// Why a kernel with counters has no Instruction Roofline point: the analysis's own "irm:"
/// reason ("irm: counters absent: inst_warp, inst_thread"); null with a point or no counters
/// (a timing-only kernel), so the page never calls a profile with counters "timing-only".
json irm_missing(const json& k, const json& a) {
    if (a.value("irm", json()).is_object() || k.value("counters", json::object()).empty()) {
        return json();
    }
    for (const json& m : a.value("missing", json::array())) {
        if (m.is_string() && m.get<std::string>().rfind("irm", 0) == 0) {
            return m;
        }
    }
    return json("irm: not computed");
}

/// One kernel's row, in kernel_columns() order.
json kernel_row(const json& k, const std::string& label, double total_time) {
    const json a = k.value("analysis", json::object());
    const json c = k.value("counters", json::object());
    // null, never 0, for a kernel whose files gave no duration (the page says "not in the file").
    const json time = json_at(k, "/time_ns/total");
    const bool timed = time.is_number();
    const json bound = json_at(a, "/irm/bound");
    const bool bounded = bound.is_string() && !bound.get<std::string>().empty();
    return json::array(
        {label,
         page_name(k.value("name", "")),
         timed ? time : json(),
         timed && total_time > 0 ? json(time.get<double>() / total_time) : json(),
         k.value("launches", 0),
         k.value("profiled_launches", 0),
         json_at(k, "/time_ns/mean"),
         json_at(a, "/irm/gips_warp"),
         json_at(a, "/irm/gips_thread"),
         json_at(a, "/irm/ii/l1"),
         json_at(a, "/irm/ii/l2"),
         json_at(a, "/irm/ii/hbm"),
         json_at(a, "/irm/ii_thread/l1"),
         json_at(a, "/irm/ii_thread/l2"),
         json_at(a, "/irm/ii_thread/hbm"),
         json_at(a, "/irm/bound"),
         bounded ? json_at(a, "/irm/roofline_pct") : json(),
         json_at(a, "/predication"),
         json_at(a, "/walls/global/intensity"),
         json_at(a, "/walls/global/pattern"),
         json_at(a, "/walls/global/unit_intensity"),
         json_at(a, "/walls/global/access_bytes"),
         ldst_gips(c, {"inst_global_ld", "inst_global_st"}),
         json_at(a, "/walls/shared/intensity"),
         json_at(a, "/walls/shared/conflict_ways"),
         json_at(a, "/walls/shared/conflict_free_intensity"),
         ldst_gips(c, {"inst_shared_ld", "inst_shared_st", "inst_ldsm", "inst_stsm"}),
         busiest_pipe(a),
         json_at(a, "/flops/gflops"),
         flop_points(a, c),
         json_at(k, "/ranks/imbalance"),
         json_at(k, "/ranks/slowest_rank"),
         irm_missing(k, a)});
}

/// show's sections as [title, header, rows, lines] arrays.
json sections_json(const std::vector<ShowSection>& sections) {
    json out = json::array();
    for (const ShowSection& s : sections) {
        out.push_back(json::array({s.title, s.header, s.rows, s.lines}));
    }
    return out;
}

/// The header: what ran where, with which ceilings, and how much of it irf saw.
json header_json(const json& p, std::size_t warning_limit) {
    json h = json::object();
    for (const char* key :
         {"app", "argv", "host", "pid", "rank", "start_time", "end_time", "tool", "version", "gpu",
          "ceilings_used", "coverage", "job", "config", "import"}) {
        if (p.contains(key)) {
            h[key] = p[key];
        }
    }
    const json warnings = p.value("warnings", json::array());
    h["warnings_total"] = warnings.size();
    h["warnings"] = json::array();
    for (std::size_t i = 0; i < warnings.size() && i < warning_limit; ++i) {
        h["warnings"].push_back(warnings[i]);
    }
    return h;
}

/// The clock the SM-side roofs are drawn at, as irf-plot draws them (tools/irf_plot/irfplot/
/// clock.py): that of the longest-running kernel whose analysis took its ceilings at a measured
/// clock ("clock: ran at N MHz, F of the boost clock", docs/model.md "SM clock"), so that a roof
/// sits where the text's roof% puts it; null when every kernel ran at the boost.
json roof_clock_json(const model::Profile& profile, const std::vector<std::size_t>& order,
                     const std::vector<std::string>& labels) {
    for (std::size_t i : order) {
        const model::KernelRecord& k = profile.kernels[i];
        for (const std::string& note :
             k.analysis ? k.analysis->notes : std::vector<std::string>{}) {
            double mhz = 0, fraction = 0;
            if (std::sscanf(note.c_str(), "clock: ran at %lf MHz, %lf of the boost", &mhz,
                            &fraction) == 2 &&
                fraction > 0 && fraction < 1) {
                return {{"mhz", mhz}, {"fraction", fraction}, {"kernel", page_name(labels[i])}};
            }
        }
    }
    return nullptr;
}

/// Kernel indices, longest total time first (ties in file order).
std::vector<std::size_t> by_time(const model::Profile& profile) {
    std::vector<std::size_t> order(profile.kernels.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return profile.kernels[a].time_ns.total > profile.kernels[b].time_ns.total;
    });
    return order;
}

} // namespace

std::string page_name(const std::string& name) {
    return name.size() <= k_page_name_chars ? name : common::utf8_prefix(name, k_page_name_chars);
}

void round_numbers(json& j, int digits) {
    if (j.is_number_float()) {
        const double v = j.get<double>();
        if (std::isfinite(v) && v != 0) {
            char text[32];
            std::snprintf(text, sizeof text, "%.*g", digits, v);
            j = std::strtod(text, nullptr);
        }
    } else if (j.is_structured()) {
        for (json& child : j) {
            round_numbers(child, digits);
        }
    }
}

json html_page_data(const model::Profile& profile, const std::string& source,
                    const std::optional<json>& trajectory, const PageLimits& limits) {
    const json p = model::profile_to_json(profile);
    const std::vector<std::string> labels = model::kernel_labels(profile.kernels);
    const std::vector<std::size_t> order = by_time(profile);
    double total_time = 0;
    for (const model::KernelRecord& k : profile.kernels) {
        total_time += k.time_ns.total;
    }
    json rows = json::array();
    json details = json::array();
    std::size_t detail_bytes = 0;
    for (std::size_t i : order) {
        json detail;
        if (detail_bytes < limits.details_bytes) {
            const model::KernelRecord* kernel = &profile.kernels[i];
            model::KernelRecord cut;
            if (kernel->name.size() > k_page_name_chars ||
                kernel->mangled.size() > k_page_name_chars) {
                cut = *kernel;
                cut.name = page_name(kernel->name);
                cut.mangled = page_name(kernel->mangled);
                kernel = &cut;
            }
            std::vector<ShowSection> s = kernel_sections(*kernel, labels[i]);
            for (ShowSection& v : verdict_sections(profile, profile.kernels[i])) {
                s.push_back(std::move(v));
            }
            detail = sections_json(s);
            detail_bytes += detail.dump().size();
        }
        rows.push_back(kernel_row(p["kernels"][i], labels[i], total_time));
        details.push_back(std::move(detail));
    }
    round_numbers(rows, 4);
    json data = {{"schema", "irf.html/v1"},
                 {"source", source},
                 {"header", header_json(p, limits.warnings)},
                 {"total_time_ns", total_time},
                 {"columns", kernel_columns()},
                 {"kernels", std::move(rows)},
                 {"details", std::move(details)}};
    data["header"]["roof_clock"] = roof_clock_json(profile, order, labels);
    add_figure_data(data, p, order, trajectory, limits);
    return data;
}

} // namespace irf::report

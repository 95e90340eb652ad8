// SPDX-License-Identifier: Apache-2.0
// The HTML page's figure data beyond the kernel rows: projections with their intervals, the
// per-rank spread of a merged job, NVTX regions and scaling trajectories (html_page.hpp).
#include <map>

#include "tools/irf_report/html_page_parts.hpp"

namespace irf::report {
namespace {

using nlohmann::json;

/// [row, target, speedup low, point, high, confidence, bound here, bound there] per target of
/// the longest kernels: the interval of projected times read as speedups (PROJ Eq. 9).
json projection_rows(const json& kernels, const std::vector<std::size_t>& order, std::size_t n) {
    json out = json::array();
    for (std::size_t row = 0; row < order.size() && row < n; ++row) {
        for (const json& proj :
             kernels[order[row]].value("/analysis/projection"_json_pointer, json::array())) {
            const double point = json_at(proj, "/time_ns/point").is_number()
                                     ? proj["time_ns"]["point"].get<double>()
                                     : 0.0;
            const json speedup = proj.value("speedup_point", json());
            if (point <= 0 || !speedup.is_number()) {
                continue;
            }
            const double s = speedup.get<double>();
            const double low = json_at(proj, "/time_ns/low").is_number()
                                   ? proj["time_ns"]["low"].get<double>()
                                   : point;
            const double high = json_at(proj, "/time_ns/high").is_number()
                                    ? proj["time_ns"]["high"].get<double>()
                                    : point;
            out.push_back(
                json::array({row, proj.value("target", ""), s * point / high, s, s * point / low,
                             proj.value("confidence", ""), json_at(proj, "/bound/source"),
                             json_at(proj, "/bound/target")}));
        }
    }
    return out;
}

/// [row, imbalance, slowest rank, [[rank, time_ns]...]] of the longest kernels of a merged job.
json rank_rows(const json& kernels, const std::vector<std::size_t>& order, std::size_t n) {
    json out = json::array();
    for (std::size_t row = 0; row < order.size() && out.size() < n; ++row) {
        const json ranks = kernels[order[row]].value("ranks", json());
        if (!ranks.is_object()) {
            continue;
        }
        json per_rank = json::array();
        for (const json& r : ranks.value("per_rank", json::array())) {
            per_rank.push_back(json::array({r.value("rank", 0), r.value("time_ns", 0.0)}));
        }
        out.push_back(json::array({row, ranks.value("imbalance", json()),
                                   ranks.value("slowest_rank", json()), std::move(per_rank)}));
    }
    return out;
}

/// [path, time_ns, launches, kernels, warp GIPS, II l1, l2, hbm, bound shares, imbalance] of the
/// longest NVTX regions (docs/regions.md: ratios of sums over the profiled launches).
json region_rows(const json& p, std::size_t n) {
    json out = json::array();
    for (const json& r : p.value("regions", json::array())) {
        if (out.size() >= n) {
            break;
        }
        const json a = r.value("analysis", json::object());
        out.push_back(
            json::array({r.value("path", ""), r.value("time_ns", 0.0), r.value("launches", 0),
                         r.value("kernels", 0), json_at(a, "/gips_warp"), json_at(a, "/ii/l1"),
                         json_at(a, "/ii/l2"), json_at(a, "/ii/hbm"),
                         a.value("bound_shares", json::object()), json_at(r, "/ranks/imbalance")}));
    }
    return out;
}

/// The trajectory document's kernels, each with the row of the profile kernel of that name
/// (null when the profile has none), so a click on a trajectory selects the kernel.
json trajectory_json(const std::optional<json>& trajectory, const json& kernels,
                     const std::vector<std::size_t>& order) {
    if (!trajectory) {
        return json();
    }
    std::map<std::string, std::size_t> row_of;
    for (std::size_t row = order.size(); row-- > 0;) {
        row_of[kernels[order[row]].value("name", "")] = row;
    }
    json out = json::array();
    for (const json& k : trajectory->value("kernels", json::array())) {
        const auto found = row_of.find(k.value("name", ""));
        out.push_back({{"name", k.value("name", "")},
                       {"row", found == row_of.end() ? json() : json(found->second)},
                       {"verdict", k.value("verdict", json())},
                       {"points", k.value("points", json::array())}});
    }
    return out;
}

} // namespace

void add_figure_data(json& data, const json& p, const std::vector<std::size_t>& order,
                     const std::optional<json>& trajectory, const PageLimits& limits) {
    const json& kernels = p["kernels"];
    json figures = {{"projection", projection_rows(kernels, order, limits.figure_kernels)},
                    {"ranks", rank_rows(kernels, order, limits.figure_kernels)},
                    {"regions", region_rows(p, limits.regions)},
                    {"regions_total", p.value("regions", json::array()).size()},
                    {"trajectory", trajectory_json(trajectory, kernels, order)}};
    round_numbers(figures, 4);
    for (auto& [key, value] : figures.items()) {
        data[key] = std::move(value);
    }
}

} // namespace irf::report

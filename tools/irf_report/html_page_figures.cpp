// SPDX-License-Identifier: Apache-2.0
// The HTML page's figure data beyond the kernel rows: projections with their intervals, the
// per-rank spread of a merged job, NVTX regions and scaling trajectories (html_page.hpp).
#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "tools/irf_report/command.hpp"
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
        row_of[page_name(kernels[order[row]].value("name", ""))] = row;
    }
    json out = json::array();
    for (const json& k : trajectory->value("kernels", json::array())) {
        const std::string name = page_name(k.value("name", ""));
        const auto found = row_of.find(name);
        out.push_back({{"name", name},
                       {"row", found == row_of.end() ? json() : json(found->second)},
                       {"verdict", k.value("verdict", json())},
                       {"points", k.value("points", json::array())}});
    }
    return out;
}

/// Throws the InputError of a trajectory value at `where` that is not what the page needs.
[[noreturn]] void bad_trajectory(const std::string& path, const std::string& where,
                                 const std::string& what) {
    throw InputError(path + ": " + where + ": " + what);
}

/// The member `key` of `j`: a number, or null when absent or null.
json number_or_null(const json& j, const char* key, const std::string& path,
                    const std::string& where) {
    const json v = j.value(key, json());
    if (!v.is_null() && !v.is_number()) {
        bad_trajectory(path, where + "." + key, "not a number");
    }
    return v;
}

json checked_point(const json& p, const std::string& path, const std::string& where) {
    if (!p.is_object()) {
        bad_trajectory(path, where, "not an object");
    }
    const json sms = p.value("sms", json());
    if (!sms.is_number_integer() || sms.get<std::int64_t>() < 1 ||
        sms.get<std::int64_t>() > 1000000) {
        bad_trajectory(path, where + ".sms", "not a whole number of SMs");
    }
    json ii = json::object();
    const json given = p.value("ii", json());
    if (!given.is_null() && !given.is_object()) {
        bad_trajectory(path, where + ".ii", "not an object");
    }
    for (const char* level : {"l1", "l2", "hbm"}) {
        ii[level] = given.is_object() ? number_or_null(given, level, path, where + ".ii") : json();
    }
    return {{"sms", sms},
            {"time_ns", number_or_null(p, "time_ns", path, where)},
            {"gips_warp", number_or_null(p, "gips_warp", path, where)},
            {"ii", std::move(ii)}};
}

json checked_verdict(const json& v, const std::string& path, const std::string& where) {
    if (v.is_null()) {
        return v;
    }
    static const std::vector<std::string> kinds = {
        "ideal", "saturating", "degrading_intensity", "not_scaling", "sublinear", "undecided"};
    const json kind = v.is_object() ? v.value("kind", json()) : json();
    if (!kind.is_string() || std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
        bad_trajectory(path, where + ".kind",
                       "not a verdict (ideal, saturating, degrading_intensity, not_scaling, "
                       "sublinear, undecided)");
    }
    const json reason = v.value("reason", json(""));
    if (!reason.is_string()) {
        bad_trajectory(path, where + ".reason", "not a string");
    }
    return {{"kind", kind}, {"reason", reason}};
}

} // namespace

json checked_trajectory(const json& doc, const std::string& path) {
    json kernels = json::array();
    const json& given = doc.at("kernels");
    for (std::size_t i = 0; i < given.size(); ++i) {
        const std::string where = "kernels[" + std::to_string(i) + "]";
        const json& k = given[i];
        if (!k.is_object() || !k.value("name", json()).is_string()) {
            bad_trajectory(path, where + ".name", "not a string");
        }
        const json points = k.value("points", json());
        if (!points.is_array()) {
            bad_trajectory(path, where + ".points", "not an array");
        }
        json checked = json::array();
        for (std::size_t j = 0; j < points.size(); ++j) {
            checked.push_back(
                checked_point(points[j], path, where + ".points[" + std::to_string(j) + "]"));
        }
        kernels.push_back(
            {{"name", k["name"]},
             {"points", std::move(checked)},
             {"verdict", checked_verdict(k.value("verdict", json()), path, where + ".verdict")}});
    }
    return {{"schema", "irf.trajectory/v1"}, {"kernels", std::move(kernels)}};
}

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

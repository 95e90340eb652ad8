// SPDX-License-Identifier: Apache-2.0
// irf.trajectory/v1 JSON and the text table of roofline scaling trajectories.
#include "model/projection/trajectory_report.hpp"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace irf::model {
namespace {

nlohmann::json value_or_null(const std::optional<double>& v) {
    return v && std::isfinite(*v) ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json verdict_json(const TrajectoryVerdict& v) {
    return {{"kind", v.kind},
            {"level", v.level.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.level)},
            {"sm_ratio", v.sm_ratio},
            {"speedup", v.speedup},
            {"efficiency", v.efficiency},
            {"intensity_change", value_or_null(v.intensity_change)},
            {"shared_use", value_or_null(v.shared_use)},
            {"reason", v.reason}};
}

nlohmann::json point_json(const TrajectoryPoint& p) {
    return {{"sms", p.sms},
            {"time_ns", p.time_ns},
            {"gips_warp", value_or_null(p.gips_warp)},
            {"gflops", value_or_null(p.gflops)},
            {"ii",
             {{"l1", value_or_null(p.ii.l1)},
              {"l2", value_or_null(p.ii.l2)},
              {"hbm", value_or_null(p.ii.hbm)}}},
            {"ai",
             {{"l1", value_or_null(p.ai.l1)},
              {"l2", value_or_null(p.ai.l2)},
              {"hbm", value_or_null(p.ai.hbm)}}},
            {"ceiling_gips", value_or_null(p.ceiling_gips)},
            {"counters_sms", p.counters_sms}};
}

std::string cell(const std::optional<double>& v, int digits) {
    if (!v) {
        return "-";
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, *v);
    return buf;
}

} // namespace

std::string dump_trajectories(const std::vector<KernelTrajectory>& kernels,
                              const CeilingsUsed& ceilings, int total_sms) {
    nlohmann::json list = nlohmann::json::array();
    for (const KernelTrajectory& k : kernels) {
        nlohmann::json points = nlohmann::json::array();
        for (const TrajectoryPoint& p : k.points) {
            points.push_back(point_json(p));
        }
        list.push_back({{"name", k.name},
                        {"mangled", k.mangled},
                        {"points", points},
                        {"verdict", verdict_json(k.verdict)}});
    }
    const nlohmann::json doc = {{"schema", "irf.trajectory/v1"},
                                {"sms", total_sms},
                                {"ceilings",
                                 {{"warp_gips", ceilings.warp_gips},
                                  {"gtxn_per_s", ceilings.gtxn_per_s},
                                  {"gflops", ceilings.gflops}}},
                                {"kernels", list}};
    // Replace bytes that are not UTF-8 rather than throw: a kernel name must not cost the file.
    return doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string trajectory_table(const std::vector<KernelTrajectory>& kernels, std::size_t top) {
    std::string out;
    std::size_t shown = 0;
    for (const KernelTrajectory& k : kernels) {
        if (shown++ == top) {
            break;
        }
        out += k.name + "\n  verdict: " + k.verdict.kind + " - " + k.verdict.reason + "\n";
        char head[160];
        std::snprintf(head, sizeof head, "  %6s  %12s  %11s  %12s  %9s\n", "SMs", "time/launch",
                      "warp GIPS", "ceiling GIPS", "II (HBM)");
        out += head;
        for (const TrajectoryPoint& p : k.points) {
            char row[200];
            std::snprintf(row, sizeof row, "  %6d  %9.3f us  %11s  %12s  %9s%s\n", p.sms,
                          p.time_ns / 1e3, cell(p.gips_warp, 1).c_str(),
                          cell(p.ceiling_gips, 1).c_str(), cell(p.ii.hbm, 3).c_str(),
                          p.counters_sms != p.sms ? "  (counters of the full run)" : "");
            out += row;
        }
    }
    if (kernels.empty()) {
        out += "no kernel appears in two or more runs\n";
    } else {
        // The L2 and HBM ceilings scale linearly with the SM share, but a few SMs draw more than
        // their share of bandwidth (HBM saturates well before all SMs): docs/trajectories.md.
        out += "(ceiling GIPS: the ceilings scaled by the SM share; below the whole GPU its L2 "
               "and HBM parts are lower bounds, as a few SMs draw more than their share of "
               "bandwidth)\n";
    }
    return out;
}

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Roofline scaling trajectories (docs/model.md: SLIDES "Roofline Scaling Trajectory").
#include "model/projection/trajectory.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "model/roofline/counters.hpp"
#include "model/roofline/instruction_roofline.hpp"

namespace irf::model {
namespace {

std::optional<double> level_gtxn(const CeilingsUsed& c, const char* level) {
    const auto it = c.gtxn_per_s.find(level);
    if (it == c.gtxn_per_s.end() || !(it->second > 0)) {
        return std::nullopt;
    }
    return it->second;
}

std::optional<double> level_of(const PerLevel& p, const std::string& level) {
    if (level == "l1") {
        return p.l1;
    }
    return level == "l2" ? p.l2 : p.hbm;
}

// `v` with `digits` decimals ("%+" sign when `sign`); percentages are the caller's business.
std::string fixed(double v, int digits, bool sign = false) {
    char buf[64];
    if (sign) {
        std::snprintf(buf, sizeof buf, "%+.*f", digits, v);
    } else {
        std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    }
    return buf;
}

// The deepest level whose intensity is known at both ends: HBM, then L2, then L1. Intensity at
// the deepest level moves first when more SMs contend for shared caches.
std::string compared_level(const TrajectoryPoint& first, const TrajectoryPoint& last) {
    for (const char* level : {"hbm", "l2", "l1"}) {
        if (level_of(first.ii, level) && level_of(last.ii, level)) {
            return level;
        }
    }
    return "";
}

// The larger of the last point's L2 and HBM traffic relative to the full-GPU ceiling: these
// levels are shared by all SMs, so an SM limit does not give a run its own share of them.
std::pair<std::string, std::optional<double>> shared_use(const TrajectoryPoint& last,
                                                         const CeilingsUsed& c) {
    std::pair<std::string, std::optional<double>> best{"", std::nullopt};
    for (const char* level : {"l2", "hbm"}) {
        const auto ii = level_of(last.ii, level);
        const auto gtxn = level_gtxn(c, level);
        if (!ii || !gtxn || !last.gips_warp) {
            continue;
        }
        const double use = *last.gips_warp / *ii / *gtxn; // transactions per ns / ceiling
        if (!best.second || use > *best.second) {
            best = {level, use};
        }
    }
    return best;
}

} // namespace

std::optional<double> scaled_ceiling_gips(const CeilingsUsed& ceilings, const PerLevel& ii, int sms,
                                          int total_sms) {
    if (!(ceilings.warp_gips > 0) || sms <= 0 || total_sms <= 0) {
        return std::nullopt;
    }
    // The slides scale compute by the SMs in use and bandwidth by the share of it: both with
    // sms / total_sms (docs/trajectories.md says which levels this under-states).
    const double share = static_cast<double>(sms) / static_cast<double>(total_sms);
    double roof = share * ceilings.warp_gips;
    for (const char* level : {"l1", "l2", "hbm"}) {
        const auto i = level_of(ii, level);
        const auto gtxn = level_gtxn(ceilings, level);
        if (i && gtxn) {
            roof = std::min(roof, roofline_gips(*i, share * ceilings.warp_gips, share * *gtxn));
        }
    }
    return roof;
}

TrajectoryVerdict classify_trajectory(const std::vector<TrajectoryPoint>& points,
                                      const CeilingsUsed& ceilings, double blocks,
                                      const TrajectoryThresholds& t) {
    TrajectoryVerdict v;
    v.kind = "undecided";
    if (points.size() < 2 || points.front().sms <= 0 || !(points.back().time_ns > 0)) {
        v.reason = "fewer than two points with a time";
        return v;
    }
    const TrajectoryPoint& first = points.front();
    const TrajectoryPoint& last = points.back();
    v.sm_ratio = static_cast<double>(last.sms) / first.sms;
    v.speedup = first.time_ns / last.time_ns;
    v.efficiency = v.sm_ratio > 0 ? v.speedup / v.sm_ratio : 0;
    if (v.sm_ratio <= 1) {
        v.reason = "all points have the same SM count";
        return v;
    }
    v.level = compared_level(first, last);
    if (!v.level.empty()) {
        v.intensity_change = *level_of(last.ii, v.level) / *level_of(first.ii, v.level) - 1.0;
    }
    const auto [use_level, use] = shared_use(last, ceilings);
    v.shared_use = use;
    const double change = v.intensity_change.value_or(0.0);
    const std::string numbers = fixed(v.speedup, 2) + "x faster on " + fixed(v.sm_ratio, 2) +
                                "x the SMs (efficiency " + fixed(100.0 * v.efficiency, 0) + "%)";
    if (blocks > 0 && blocks < last.sms && v.efficiency < t.ideal_efficiency) {
        v.kind = "not_scaling";
        v.reason = numbers + ": the grid has " + fixed(blocks, 0) + " blocks for " +
                   std::to_string(last.sms) + " SMs (occupancy)";
    } else if (v.efficiency >= t.ideal_efficiency && change >= -t.intensity_tolerance) {
        v.kind = "ideal";
        v.reason = numbers + ", intensity " + fixed(100.0 * change, 0, true) + "%";
    } else if (change < -t.intensity_tolerance) {
        v.kind = "degrading_intensity";
        v.reason = numbers + ", " + v.level + " intensity " + fixed(100.0 * change, 0, true) +
                   "%: more traffic per instruction as SMs contend";
    } else if (use && *use >= t.saturated_share) {
        v.kind = "saturating";
        v.level = use_level;
        v.reason = numbers + ": " + use_level + " traffic at " + fixed(100.0 * *use, 0) +
                   "% of the full GPU's ceiling";
    } else if (v.speedup < t.flat_speedup) {
        v.kind = "not_scaling";
        v.reason = numbers + ": performance is flat (warp efficiency or serialisation)";
    } else {
        v.kind = "sublinear";
        v.reason = numbers + ": no shared resource near its ceiling, intensity steady";
    }
    return v;
}

namespace {

int run_sms(const Profile& p) {
    return p.gpu.sms_active.value_or(p.gpu.sms);
}

/// Throws unless `run` ran on the GPU of `first` (name, chip, compute capability and SM count,
/// as merge requires) with at most its SMs active: a trajectory across GPUs, or with a share
/// above the whole GPU, compares nothing (issue #39 item 10).
void check_same_gpu(const Profile& first, const Profile& run, const std::string& which) {
    const auto id = [](const GpuInfo& g) { return g.name + "|" + g.chip + "|" + g.cc; };
    if (id(first.gpu) != id(run.gpu) || first.gpu.sms != run.gpu.sms) {
        throw std::invalid_argument(which + " ran on " + run.gpu.name + " (" +
                                    std::to_string(run.gpu.sms) + " SMs), run 1 on " +
                                    first.gpu.name + " (" + std::to_string(first.gpu.sms) +
                                    " SMs): a trajectory needs one GPU");
    }
    if (run_sms(run) > run.gpu.sms) {
        throw std::invalid_argument(which + ": gpu.sms_active " + std::to_string(run_sms(run)) +
                                    " is above the GPU's " + std::to_string(run.gpu.sms) + " SMs");
    }
}

std::string kernel_key(const KernelRecord& k) {
    std::string key = k.name;
    for (auto v : k.launch.grid) {
        key += "," + std::to_string(v);
    }
    for (auto v : k.launch.block) {
        key += "," + std::to_string(v);
    }
    return key;
}

struct Work {
    double inst_per_launch = 0;
    std::optional<double> flops_per_launch;
    PerLevel ii;
    PerLevel ai;
};

// FLOPs per byte at one level (docs/model.md: HRM Eq. 3): FLOPs / (sectors x 32 B).
std::optional<double> flops_per_byte(const std::optional<double>& flops,
                                     const std::optional<double>& sectors) {
    if (!flops || !sectors) {
        return std::nullopt;
    }
    return safe_ratio(*flops, 32.0 * *sectors);
}

std::optional<Work> work_of(const KernelRecord& k) {
    const auto inst = counter(k.counters, "inst_warp");
    if (!inst || k.profiled_launches == 0 || !(*inst > 0)) {
        return std::nullopt;
    }
    const double launches = static_cast<double>(k.profiled_launches);
    Work w;
    w.inst_per_launch = *inst / launches;
    const auto l1 = l1_transactions(k.counters);
    const auto l2 = l2_transactions(k.counters);
    const auto hbm = hbm_transactions(k.counters);
    w.ii.l1 = l1 ? instruction_intensity(*inst, *l1) : std::nullopt;
    w.ii.l2 = l2 ? instruction_intensity(*inst, *l2) : std::nullopt;
    w.ii.hbm = hbm ? instruction_intensity(*inst, *hbm) : std::nullopt;
    if (k.analysis && k.analysis->flops) {
        const FlopsResult& f = *k.analysis->flops;
        const double flops = f.fp64 + f.fp32 + f.fp16 + f.tensor;
        w.flops_per_launch = flops / launches;
        w.ai = {flops_per_byte(flops, l1), flops_per_byte(flops, l2), flops_per_byte(flops, hbm)};
    }
    return w;
}

struct Seen {
    const KernelRecord* kernel;
    const Profile* run;
};

// The kernel's counters from the run with the most SMs that has them.
std::optional<std::pair<Work, int>> reference_work(const std::vector<Seen>& seen) {
    std::optional<std::pair<Work, int>> best;
    for (const Seen& s : seen) {
        const auto w = work_of(*s.kernel);
        if (w && (!best || run_sms(*s.run) > best->second)) {
            best = {*w, run_sms(*s.run)};
        }
    }
    return best;
}

KernelTrajectory trajectory_of(const std::vector<Seen>& seen, const TrajectoryThresholds& t) {
    KernelTrajectory out;
    out.name = seen.front().kernel->name;
    out.mangled = seen.front().kernel->mangled;
    out.launch = seen.front().kernel->launch;
    const auto reference = reference_work(seen);
    for (const Seen& s : seen) {
        if (!(s.kernel->time_ns.mean > 0)) {
            continue; // no time at this SM count (no duration recorded): not a point
        }
        TrajectoryPoint p;
        p.sms = run_sms(*s.run);
        p.time_ns = s.kernel->time_ns.mean;
        const auto own = work_of(*s.kernel);
        const std::optional<Work> work = own ? own : (reference ? reference->first : own);
        p.counters_sms = own ? p.sms : (reference ? reference->second : 0);
        if (work && p.time_ns > 0) {
            p.gips_warp = work->inst_per_launch / p.time_ns;
            p.ii = work->ii;
            p.ai = work->ai;
            if (work->flops_per_launch) {
                p.gflops = *work->flops_per_launch / p.time_ns;
            }
            p.ceiling_gips = scaled_ceiling_gips(*s.run->ceilings, p.ii, p.sms, s.run->gpu.sms);
        }
        out.points.push_back(p);
    }
    std::sort(out.points.begin(), out.points.end(),
              [](const TrajectoryPoint& a, const TrajectoryPoint& b) { return a.sms < b.sms; });
    const auto& g = out.launch.grid;
    const double blocks = static_cast<double>(g[0]) * g[1] * g[2];
    const Profile& widest =
        *std::max_element(seen.begin(), seen.end(), [](const Seen& a, const Seen& b) {
             return run_sms(*a.run) < run_sms(*b.run);
         })->run;
    out.verdict = classify_trajectory(out.points, *widest.ceilings, blocks, t);
    return out;
}

} // namespace

std::vector<KernelTrajectory> build_trajectories(const std::vector<const Profile*>& runs,
                                                 const TrajectoryThresholds& t) {
    std::map<std::string, std::vector<Seen>> by_kernel;
    std::vector<std::string> order;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const Profile& run = *runs[i];
        const std::string which = "run " + std::to_string(i + 1) + " (" + run.app + ")";
        if (!run.ceilings) {
            throw std::invalid_argument(which + " has no ceilings: analyse it first");
        }
        if (run.gpu.sms <= 0 || run_sms(run) <= 0) {
            throw std::invalid_argument(which + " has no SM count (gpu.sms)");
        }
        check_same_gpu(*runs[0], run, which);
        for (const KernelRecord& k : run.kernels) {
            const std::string key = kernel_key(k);
            auto& list = by_kernel[key];
            if (list.empty()) {
                order.push_back(key);
            }
            list.push_back({&k, &run});
        }
    }
    std::vector<KernelTrajectory> out;
    for (const std::string& key : order) {
        const auto& seen = by_kernel[key];
        if (seen.size() >= 2) {
            out.push_back(trajectory_of(seen, t));
        }
    }
    return out;
}

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Projection of a kernel's time onto a target GPU (docs/model.md: PROJ section 3, Eq. 9).
#include "model/projection/projection.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "common/string_printf.hpp"
#include "model/projection/issue_latency.hpp"
#include "model/projection/l2_capacity.hpp"
#include "model/projection/memory_concurrency.hpp"
#include "model/projection/projection_bounds.hpp"
#include "model/projection/projection_partial.hpp"
#include "model/projection/resource_times.hpp"
#include "model/projection/saturated_target.hpp"
#include "model/projection/target_estimate.hpp"
#include "model/projection/uncounted_grid.hpp"
#include "model/projection/warm_l2.hpp"
#include "model/projection/waves.hpp"
#include "model/roofline/counters.hpp"
#include "model/roofline/flop_roofline.hpp"
#include "model/roofline/instruction_roofline.hpp"
#include "model/roofline/kernel_ceilings.hpp"

namespace irf::model {

double projected_time_ns(double source_time_ns, double roofline_source, double roofline_target) {
    return source_time_ns * roofline_source / roofline_target; // Eq. 9
}

std::string target_name(const config::Ceilings& c) {
    if (!c.gpu.key.empty()) {
        return c.gpu.key;
    }
    return !c.gpu.name.empty() ? c.gpu.name : c.source;
}

namespace {

std::string wave_text(const WaveCount& w) {
    char buf[160];
    std::snprintf(
        buf, sizeof buf, "%llu (%llu full + %llu tail blocks, %d blocks/SM by %s, fill %.2f)",
        static_cast<unsigned long long>(w.waves), static_cast<unsigned long long>(w.full_waves),
        static_cast<unsigned long long>(w.tail_blocks), w.blocks_per_sm, w.limiter.c_str(), w.fill);
    return buf;
}

// Waves (docs/model.md, "Waves"): the SM-side resources (issue, FLOPs, L1) of each GPU take
// their all-SM time / fill, so a kernel whose waves do not change moves by the per-SM ratio.
void apply_waves(const KernelRecord& k, const config::Ceilings& s, const config::Ceilings& t,
                 Projection& p, ResourceArray& rs, ResourceArray& rt, bool wave_note) {
    std::string why_s, why_t;
    p.waves_source = wave_count(k.launch, s.gpu, why_s);
    const auto persistent = persistent_launch(k.launch, s.gpu, t.gpu);
    p.waves_target = wave_count(persistent ? *persistent : k.launch, t.gpu, why_t);
    if (persistent && grid_blocks(persistent->grid) != grid_blocks(k.launch.grid)) {
        // One exact wave on the source: likely a persistent kernel that sizes its grid to the
        // GPU, but a fixed grid of that size is possible too (docs/model.md, "Waves"). With as
        // many blocks either way (a target with the source's SM count; cuBLAS's 2 x 66 grid on
        // 132 SMs), both readings project alike.
        p.confidence = "low";
        p.notes.push_back("waves: the grid of " + std::to_string(p.waves_source->blocks) +
                          " blocks is one full wave on the source, as a persistent kernel sizes "
                          "it; projected with " +
                          std::to_string(persistent->grid[0]) +
                          " blocks on the target (a fixed grid would differ)");
    }
    if (!p.waves_source || !p.waves_target) {
        p.notes.push_back("waves not counted: " + (why_s.empty() ? why_t : why_s));
        if (p.waves_source && why_t.rfind("a block does not fit", 0) == 0) {
            p.confidence = "low"; // the launch as recorded cannot run unchanged on the target
        }
        apply_uncounted_grid(k, s, t, rs, rt, p);
        return;
    }
    divide_sm_side(rs, p.waves_source->fill);
    divide_sm_side(rt, p.waves_target->fill);
    if (const auto where = one_wave_of_another_shape(*p.waves_source, *p.waves_target)) {
        p.confidence = "low";
        p.notes.push_back("one wave on the " + *where +
                          ": its time follows latencies and the tail more than the ceilings");
    }
    if (wave_note) {
        p.notes.push_back("waves: " + wave_text(*p.waves_source) + " on the source, " +
                          wave_text(*p.waves_target) +
                          " on the target; issue, FLOP and L1 times divided by the fill");
    }
}

std::string megabytes(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
    return buf;
}

// L2 capacity (docs/model.md, "L2 capacity"): when the L2 sizes differ and the working set fits
// the target's L2 only, the target's DRAM traffic is the model's, in the counters and level bytes
// the target is timed with. Otherwise (a smaller L2 on the target, or a working set that fits
// neither) the point keeps the measured traffic and `dram_interval_factor`, the re-estimate / the
// measured, widens the interval: tiled kernels reuse at short range, and KernelBench's
// convolutions and GEMMs ran on 4-6 MB L2s at about the hit rates the H200's 50 MB gave them,
// where the re-estimate made them 2-15x too slow, and on the L40S's 96 MB at about them too.
void apply_l2_fit(const KernelRecord& k, const LevelBytes& bytes, const config::Ceilings& s,
                  const config::Ceilings& t, Projection& p, const KernelWork& work,
                  std::optional<KernelWork>& work_t, LevelBytes& bytes_t,
                  double& dram_interval_factor) {
    std::string why;
    p.l2 = l2_fit(bytes, k.profiled_launches, s.gpu, t.gpu, why);
    if (!p.l2) {
        p.notes.push_back("L2 capacity effects not checked (" + why + ")");
        return;
    }
    const L2Fit& f = *p.l2;
    if (s.gpu.l2_bytes == t.gpu.l2_bytes) {
        return;
    }
    // Formatted only for a note: most kernels fit both L2s and get none.
    const auto fits = [&f, &s, &t] {
        const char* fit =
            f.fits_source == f.fits_target
                ? (f.fits_source ? "fits both L2s" : "fits neither L2")
                : (f.fits_source ? "fits the source's L2 only" : "fits the target's L2 only");
        return "L2: working set ~" + megabytes(f.working_set_bytes) + " per launch (L2 traffic " +
               megabytes(f.l2_traffic_bytes) + ", DRAM " + megabytes(f.dram_source_bytes) + ") " +
               fit + " (" + megabytes(static_cast<double>(s.gpu.l2_bytes)) + " source, " +
               megabytes(static_cast<double>(t.gpu.l2_bytes)) + " target): ";
    };
    if (!f.re_estimated) {
        if (f.fits_source != f.fits_target) {
            p.notes.push_back(fits() + "no reuse in L2, so the same DRAM traffic on the target");
        }
        return;
    }
    const double factor = f.dram_target_bytes / f.dram_source_bytes; // > 0: a side overflows
    if (!f.fits_target || f.fits_source) {
        dram_interval_factor = factor;
        p.notes.push_back(fits() +
                          "the point keeps the measured DRAM traffic (reuse in tiles is "
                          "short-range); the interval holds the re-estimate, " +
                          megabytes(f.dram_target_bytes) + " per launch");
        return;
    }
    Counters dram; // the target's DRAM sectors: the source's scaled (an absent one reads 0)
    for (const char* name : {"dram_sectors_read", "dram_sectors_write"}) {
        if (const auto it = k.counters.find(name); it != k.counters.end()) {
            dram.emplace(*it);
        }
        dram[name] *= factor;
    }
    work_t = work;
    work_t->hbm_transactions = hbm_transactions(dram);
    bytes_t.hbm = bytes.hbm * factor;
    bytes_t.l2 = std::max(0.0, bytes.l2 + bytes.hbm - bytes_t.hbm);
    p.confidence = "low";
    p.notes.push_back(fits() + "target DRAM traffic re-estimated to " +
                      megabytes(f.dram_target_bytes) + " per launch");
}

using LevelTimes = std::array<std::optional<double>, 3>; // L1, L2, HBM

// Compute-side time of a GPU: the longer of issue and the per-precision FLOP sum; nullopt when
// the issue time is unknown.
std::optional<double> compute_time(const ResourceArray& r) {
    const auto issue = r.ns[k_issue];
    const auto flops = r.ns[k_flops];
    if (!issue) {
        return std::nullopt;
    }
    return flops ? std::max(*issue, *flops) : *issue;
}

// Eq. 9 at each level in time form. roofline(OI) = min(BW x OI, Perf) = work / max(N/BW,
// work/Perf), so t_t = t_s x max(N/BW_t, C_t) / max(N/BW_s, C_s), with N/BW the level's time at
// the kernel-specific ceiling of Eq. 6-8 and C the compute-side time.
LevelTimes level_times(const LevelBytes& bytes_s, const LevelBytes& bytes_t,
                       const std::array<bool, 3>& complete, const config::Ceilings& s,
                       const config::Ceilings& t, double c_s, double c_t, double total) {
    const BandwidthCeilings cs = bandwidth_ceilings(bytes_s, bandwidths(s));
    const BandwidthCeilings ct = bandwidth_ceilings(bytes_t, bandwidths(t));
    const LevelTimes mem_s{{cs.time_ns.l1, cs.time_ns.l2, cs.time_ns.hbm}};
    const LevelTimes mem_t{{ct.time_ns.l1, ct.time_ns.l2, ct.time_ns.hbm}};
    LevelTimes times;
    for (std::size_t i = 0; i < times.size(); ++i) {
        if (complete[i] && mem_s[i] && mem_t[i]) { // a level with absent counters is not timed
            times[i] = projected_time_ns(total, std::max(*mem_t[i], c_t), std::max(*mem_s[i], c_s));
        }
    }
    return times;
}

// The paper's interval (min/max of the level times) and its mean.
void set_interval(Projection& p, const LevelTimes& times, double c_s, double c_t, double total) {
    double low = INFINITY, high = 0;
    for (const auto& v : times) {
        if (v) {
            low = std::min(low, *v);
            high = std::max(high, *v);
        }
    }
    if (!(high > 0) || !std::isfinite(low)) {
        low = high = projected_time_ns(total, c_t, c_s);
        p.notes.push_back("no memory level could be projected: compute side only");
    }
    p.time_eq9_low_ns = low;
    p.time_eq9_high_ns = high;
    p.time_mean_ns = interval_mean_ns(low, high);
}

// The point: the binding resource's time ratio when both GPUs' bounds are decided, else the
// interval mean. The reported interval is the envelope of the Eq. 9 interval and the point, so
// low <= point <= high always holds (docs/model.md, Projection).
void set_point(Projection& p, const ResourceArray& rs_all, const ResourceArray& rt_all,
               const AbsentCounters& absent, double total) {
    // With absent counters, the binding resource among the known ones (docs/model.md).
    const ResourceArray rs = known_only(rs_all, absent);
    const ResourceArray rt = known_only(rt_all, absent);
    p.bound_source = binding_resource(rs);
    p.bound_target = binding_resource(rt);
    if (!p.bound_source.empty() && !p.bound_target.empty()) {
        p.point_method = absent.any() ? "known-resources" : "binding-resource";
        p.ratio_point = true;
        p.time_point_ns = projected_time_ns(total, longest_time_ns(rt), longest_time_ns(rs));
        p.notes.insert(p.notes.begin(), "point: " + p.bound_source + " binds on the source, " +
                                            p.bound_target + " on the target" +
                                            (absent.any() ? " (among the known resources)" : "") +
                                            "; t = t_s x t_target / t_source");
    } else {
        p.point_method = "interval-mean";
        p.time_point_ns = p.time_mean_ns;
        p.confidence = "low";
        std::string why;
        for (const std::string& u : p.bound_source.empty() ? rs.unknown : rt.unknown) {
            why += (why.empty() ? "" : "; ") + u;
        }
        p.notes.insert(p.notes.begin(),
                       std::string("point: interval mean (bound undecided on the ") +
                           (p.bound_source.empty() ? "source" : "target") + ": " + why + ")");
    }
    p.time_low_ns = std::min(p.time_eq9_low_ns, p.time_point_ns);
    p.time_high_ns = std::max(p.time_eq9_high_ns, p.time_point_ns);
    if (p.time_point_ns < p.time_eq9_low_ns || p.time_point_ns > p.time_eq9_high_ns) {
        p.notes.push_back("point lies outside the Eq. 9 interval (the levels overlap, as in the "
                          "hierarchical roofline, instead of adding up as in Eq. 6-8): the "
                          "interval is widened to include it; eq9_low/eq9_high keep the paper's");
    }
    p.speedup_point = p.time_point_ns > 0 ? total / p.time_point_ns : 0.0;
}

// Below this share of the sampled time, no resource explains a kernel's duration: a
// microsecond launch, or a chain of dependent latencies. On the H100 -> H200 check such kernels
// (fills, scans, a 100,000-launch add at 1 us) ran 23-25% faster on the H200 though every
// ceiling ratio said 1.0 (docs/validation/projection.md).
constexpr double s_latency_bound_share = 0.10;

// Low confidence, with a note, for a kernel whose busiest resource is under
// s_latency_bound_share of its sampled time: the ceiling ratios do not describe its time. True
// for such a kernel.
bool mark_latency_bound(Projection& p, const ResourceArray& rs, double sampled_ns) {
    const double busiest = longest_time_ns(rs);
    if (!(sampled_ns > 0) || !(busiest > 0) || busiest >= s_latency_bound_share * sampled_ns) {
        return false;
    }
    p.confidence = "low";
    p.notes.push_back(common::string_printf(
        "latency-bound: its busiest resource is %.1f%% of its time on the source; launch and "
        "dependency latency, which no ceiling describes, set its time on the target, either way",
        100 * busiest / sampled_ns));
    return true;
}

} // namespace

double interval_mean_ns(double low_ns, double high_ns) {
    // The interval is one of performance (work / time); its mean in time is the harmonic mean.
    if (!(low_ns > 0) || !(high_ns > 0)) {
        return 0.0;
    }
    return 2.0 / (1.0 / low_ns + 1.0 / high_ns);
}

ProjectionWork projection_work(const KernelAnalysis& analysis, const Counters& counters) {
    return {kernel_work(counters, analysis.mix), level_bytes(counters),
            counter(counters, "time_ns"), true};
}

std::optional<Projection> project(const KernelRecord& k, const KernelAnalysis& a,
                                  const config::Ceilings& s, const config::Ceilings& t,
                                  std::vector<std::string>& missing) {
    // As analyze_kernel reads them: tensor register moves are no tensor work (counters.hpp).
    const std::optional<Counters> no_moves = without_tensor_moves(k.counters, profiled_warps(k));
    return project(k, a, projection_work(a, no_moves ? *no_moves : k.counters), s, t, missing);
}

std::optional<Projection> project(const KernelRecord& k, const KernelAnalysis& a,
                                  const ProjectionWork& work, const config::Ceilings& s,
                                  const config::Ceilings& t, std::vector<std::string>& missing) {
    const std::string name = target_name(t);
    const auto& time = work.time_ns;
    if (!time || *time <= 0) {
        missing.push_back("projection[" + name + "]: kernel time is 0 ns or absent");
        return std::nullopt;
    }
    if (!work.resources.inst_warp || !(*work.resources.inst_warp > 0)) {
        missing.push_back("projection[" + name + "]: no instructions (inst_warp absent or 0)");
        return std::nullopt;
    }
    Projection p;
    p.target = name;
    p.confidence = "high";
    const AbsentCounters absent = absent_counters(work.resources);
    const PartialLevelBytes partial = work.bytes
                                          ? PartialLevelBytes{*work.bytes, {true, true, true}}
                                          : partial_level_bytes(k.counters);
    std::optional<KernelWork> work_t; // set when the target's DRAM traffic is re-estimated
    LevelBytes bytes_t = partial.bytes;
    double dram_interval_factor = 1.0; // the re-estimate / the measured, for the interval only
    if (partial.complete[1]) {
        apply_l2_fit(k, partial.bytes, s, t, p, work.resources, work_t, bytes_t,
                     dram_interval_factor);
    } else {
        p.notes.push_back("L2 capacity effects not checked (L2 or DRAM counters absent)");
    }
    const double predication = a.predication.value_or(1.0);
    ResourceArray rs = resource_array(work.resources, s, predication);
    ResourceArray rt = resource_array(work_t ? *work_t : work.resources, t, predication);
    mark_absent_flops(absent, rs);
    mark_absent_flops(absent, rt);
    apply_waves(k, s, t, p, rs, rt, work.details);
    const KernelWork& on_target = work_t ? *work_t : work.resources;
    auto estimates =
        estimate_target_ceilings(rs, rt, on_target.l2_transactions.value_or(-1.0), s, t);
    if (dram_interval_factor != 1 && rt.ns[k_hbm]) {
        const double hbm = *rt.ns[k_hbm];
        estimates.push_back({k_hbm, hbm, hbm, hbm * dram_interval_factor,
                             dram_interval_factor > 1
                                 ? "the target's smaller L2 may keep less of the reuse"
                                 : "the target's larger L2 may keep more of the reuse"});
    }
    const auto c_s = compute_time(rs);
    const auto c_t = compute_time(rt);
    if (!c_s || !c_t || !(*c_s > 0) || !(*c_t > 0)) {
        missing.push_back("projection[" + name + "]: no issue ceiling on the " +
                          (!c_s || !(*c_s > 0) ? "source" : "target"));
        return std::nullopt;
    }
    const auto flops_s = rs.ns[k_flops];
    p.basis = flops_s && *flops_s > *rs.ns[k_issue] ? "flops" : "instructions";
    if (work.details) {
        p.resource_ns_source = known_times(rs);
    }
    p.resource_ns_target = known_times(rt);
    // The projected quantity: the kernel's total time over all launches (Eq. 9 is a ratio).
    const double total = k.time_ns.total > 0 ? k.time_ns.total : *time;
    set_interval(p, level_times(partial.bytes, bytes_t, partial.complete, s, t, *c_s, *c_t, total),
                 *c_s, *c_t, total);
    set_point(p, rs, rt, absent, total);
    if (!estimates.empty() && p.point_method != "interval-mean") {
        p.point_method = "estimated-ceiling";
    }
    widen_for_estimates(estimates, rs, rt, total, p);
    widen_for_one_wave_reading(k, s, t, rs, rt, total, p);
    apply_warm_l2(s, t, rs, rt, total, p);
    const bool latency_bound = mark_latency_bound(p, rs, *time);
    const double fill_s = p.waves_source ? p.waves_source->fill : 1.0;
    const double fill_t = p.waves_target ? p.waves_target->fill : 1.0;
    widen_for_absent(absent, s, t, work.resources.mix, {fill_s, fill_t}, total, p);
    if (work.resources.unmeasured_tensor) {
        bracket_unmeasured_tensor(k, s, t, total, p);
    }
    const double launch_ns = *time / std::max<double>(1.0, k.profiled_launches);
    if (latency_bound) {
        apply_latency_floor(s, t, total, launch_ns, p);
    } else {
        apply_memory_concurrency(k, s, t, rs, rt, *time, total, p);
        apply_sm_concurrency(k, s, t, rs, rt, *time, total, p);
        apply_saturated_target(k, s, t, rs, rt, *time, total, p);
        apply_issue_latency(k, s, t, rs, rt, *time, total, p);
    }
    // The floor is paid once a launch: over every launch the total covers.
    const bool every_launch = k.time_ns.total > 0 && k.launches > 0;
    apply_floor_plus_work(s, t, total,
                          every_launch ? total / static_cast<double>(k.launches) : launch_ns, p);
    return p;
}

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Projection of a kernel's time onto a target GPU (projection-upcoming-gpus, section 3, Eq. 9).
#include "model/projection.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "model/counters.hpp"
#include "model/flop_roofline.hpp"
#include "model/instruction_roofline.hpp"
#include "model/kernel_ceilings.hpp"

namespace irf::model {

double projected_time_ns(double source_time_ns, double roofline_source, double roofline_target) {
    return source_time_ns * roofline_source / roofline_target; // Eq. 9
}

double warp_gips_of(const config::Ceilings& ceilings) {
    if (ceilings.warp_gips.value > 0) {
        return ceilings.warp_gips.value;
    }
    return peak_warp_gips(ceilings.gpu.sms, ceilings.gpu.schedulers_per_sm,
                          ceilings.gpu.boost_clock_mhz / 1000.0);
}

namespace {

std::string target_name(const config::Ceilings& c) {
    if (!c.gpu.key.empty()) {
        return c.gpu.key;
    }
    return !c.gpu.name.empty() ? c.gpu.name : c.source;
}

std::string megabytes(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
    return buf;
}

// Work and compute ceilings of one basis on both GPUs.
struct Basis {
    std::string name;
    double work = 0;
    double compute_source = 0, compute_target = 0;
};

// Compute ceiling of the FLOP basis on one GPU (Eq. 2-3), or 0 when the GPU lacks it.
double flop_compute(const Counters& counters, const KernelAnalysis& a, const config::Ceilings& c) {
    const FlopsResult& f = *a.flops;
    const double total = f.fp64 + f.fp32 + f.fp16 + f.tensor;
    if (f.tensor > total / 2) {
        std::string type = "fp16";
        double top = -1;
        for (const char* t : {"fp16", "bf16", "tf32", "fp8", "fp64", "int8"}) {
            const auto v = counter(counters, std::string("tensor_ops_") + t);
            if (v && *v > top) {
                top = *v;
                type = t;
            }
        }
        const auto it = c.tensor_tflops.find(type);
        return it == c.tensor_tflops.end() ? 0.0 : it->second.value * 1e3;
    }
    const auto mix = fma_mix_ceiling(counters, c, f.precision);
    return mix ? perf_ceil(a.predication.value_or(1.0), *mix) : 0.0;
}

Basis choose_basis(const KernelRecord& k, const KernelAnalysis& a, const config::Ceilings& s,
                   const config::Ceilings& t, std::vector<std::string>& notes) {
    Basis b;
    if (a.flops) {
        const double total = a.flops->fp64 + a.flops->fp32 + a.flops->fp16 + a.flops->tensor;
        if (total > 0) {
            b.compute_source = flop_compute(k.counters, a, s);
            b.compute_target = flop_compute(k.counters, a, t);
            if (b.compute_source > 0 && b.compute_target > 0) {
                b.name = "flops";
                b.work = total;
                return b;
            }
            notes.push_back("basis: instructions (no matching GFLOP/s ceiling on both GPUs)");
        } else {
            notes.push_back("basis: instructions (the kernel executes no FP FLOPs)");
        }
    } else {
        notes.push_back("basis: instructions (FP counters absent)");
    }
    b.name = "instructions";
    b.work = counter(k.counters, "inst_warp").value_or(0.0);
    b.compute_source = warp_gips_of(s);
    b.compute_target = warp_gips_of(t);
    return b;
}

void confidence_rules(const KernelRecord& k, const config::Ceilings& s, const config::Ceilings& t,
                      Projection& p) {
    p.confidence = "high";
    const auto dram = counter_sum(k.counters, {"dram_sectors_read", "dram_sectors_write"});
    const double launches = std::max<double>(1.0, static_cast<double>(k.profiled_launches));
    if (dram && s.gpu.l2_bytes > 0 && t.gpu.l2_bytes > 0) {
        const double footprint = *dram * 32.0 / launches;
        const double l2_s = static_cast<double>(s.gpu.l2_bytes);
        const double l2_t = static_cast<double>(t.gpu.l2_bytes);
        if ((footprint <= l2_s) != (footprint <= l2_t)) {
            p.confidence = "low";
            p.notes.push_back("working set ~" + megabytes(footprint) +
                              " (DRAM bytes per launch) fits in the L2 of only one GPU (" +
                              megabytes(l2_s) + " source, " + megabytes(l2_t) + " target)");
        }
    } else {
        p.notes.push_back("L2 capacity effects not checked (L2 size or DRAM counters unknown)");
    }
    const double blocks =
        static_cast<double>(k.launch.grid[0]) * k.launch.grid[1] * k.launch.grid[2];
    if (t.gpu.sms > 0 && blocks < t.gpu.sms) {
        p.confidence = "low";
        p.notes.push_back("grid of " + std::to_string(static_cast<long long>(blocks)) +
                          " blocks < " + std::to_string(t.gpu.sms) +
                          " SMs on the target: idle SMs do not follow the ceilings");
    }
}

using LevelTimes = std::array<std::optional<double>, 3>; // L1, L2, HBM
const std::array<const char*, 3> s_levels{{"l1", "l2", "hbm"}};

// Eq. 1 and 9 at each level with the kernel-specific bandwidth ceilings of Eq. 6-8 on both GPUs.
LevelTimes level_times(const LevelBytes& bytes, const config::Ceilings& s,
                       const config::Ceilings& t, const Basis& basis, double total) {
    const BandwidthCeilings cs = bandwidth_ceilings(bytes, bandwidths(s));
    const BandwidthCeilings ct = bandwidth_ceilings(bytes, bandwidths(t));
    const LevelTimes n{{cs.bytes.l1, cs.bytes.l2, cs.bytes.hbm}};
    const LevelTimes bw_s{{cs.gbs.l1, cs.gbs.l2, cs.gbs.hbm}};
    const LevelTimes bw_t{{ct.gbs.l1, ct.gbs.l2, ct.gbs.hbm}};
    LevelTimes times;
    for (std::size_t i = 0; i < times.size(); ++i) {
        if (!n[i] || !bw_s[i] || !bw_t[i]) {
            continue;
        }
        const double oi = basis.work / *n[i]; // Eq. 10 (same memory traffic on the target)
        const double r_s = roofline(oi, *bw_s[i], basis.compute_source);
        const double r_t = roofline(oi, *bw_t[i], basis.compute_target);
        times[i] = projected_time_ns(total, r_s, r_t);
    }
    return times;
}

// Interval = min/max over the levels; point = the level bounding the kernel on the source.
void set_interval(Projection& p, const LevelTimes& times, const std::string& bound,
                  const Basis& basis, double total) {
    const double compute_only =
        projected_time_ns(total, basis.compute_source, basis.compute_target);
    double low = INFINITY, high = 0;
    for (const auto& v : times) {
        if (v) {
            low = std::min(low, *v);
            high = std::max(high, *v);
        }
    }
    if (!(high > 0) || !std::isfinite(low)) {
        low = high = compute_only;
        p.notes.push_back("no memory level could be projected: compute ceilings only");
    }
    double point = std::sqrt(low * high);
    std::string why = "point: geometric mean of the interval (no bound on the source)";
    for (std::size_t i = 0; i < times.size(); ++i) {
        if (bound == s_levels[i] && times[i]) {
            point = *times[i];
            why = std::string("point: ") + s_levels[i] + " level (bounds the kernel on the source)";
        }
    }
    if (bound == "issue") {
        point = std::clamp(compute_only, low, high);
        why = "point: compute ceilings (the kernel is issue-bound on the source)";
    }
    p.notes.insert(p.notes.begin(), why);
    p.time_low_ns = low;
    p.time_high_ns = high;
    p.time_point_ns = point;
    p.speedup_point = point > 0 ? total / point : 0.0;
}

} // namespace

std::optional<Projection> project(const KernelRecord& k, const KernelAnalysis& a,
                                  const config::Ceilings& s, const config::Ceilings& t,
                                  std::vector<std::string>& missing) {
    const std::string name = target_name(t);
    const auto time = counter(k.counters, "time_ns");
    const auto bytes = level_bytes(k.counters);
    if (!time || *time <= 0 || !bytes) {
        missing.push_back("projection[" + name + "]: " +
                          (!bytes ? std::string("memory counters absent")
                                  : std::string("kernel time is 0 ns or absent")));
        return std::nullopt;
    }
    Projection p;
    p.target = name;
    const Basis basis = choose_basis(k, a, s, t, p.notes);
    p.basis = basis.name;
    if (!(basis.work > 0) || !(basis.compute_source > 0) || !(basis.compute_target > 0)) {
        missing.push_back("projection[" + name + "]: no work or no compute ceiling to project");
        return std::nullopt;
    }
    // The projected quantity: the kernel's total time over all launches (Eq. 9 is a ratio).
    const double total = k.time_ns.total > 0 ? k.time_ns.total : *time;
    set_interval(p, level_times(*bytes, s, t, basis, total), a.irm ? a.irm->bound : "", basis,
                 total);
    confidence_rules(k, s, t, p);
    return p;
}

} // namespace irf::model

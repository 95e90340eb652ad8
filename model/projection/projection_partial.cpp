// SPDX-License-Identifier: Apache-2.0
// Projection with what was collected (docs/model.md, "Projection", "Absent counters").
#include "model/projection/projection_partial.hpp"

#include <algorithm>
#include <cmath>

#include "common/string_printf.hpp"
#include "model/roofline/counters.hpp"
#include "model/roofline/instruction_roofline.hpp"

namespace irf::model {

namespace {

constexpr std::array<const char*, 3> s_fp_classes{{"fp32", "fp64", "fp16"}};

// A latency-bound launch up to this many launch floors long takes the floors' ratio; a longer
// one is a chain of dependent latencies (a LayerNorm of 16 blocks ran 7 ms on an RTX A6000,
// docs/validation/projection.md) and takes the SM clocks' ratio.
constexpr double s_floor_launches = 4.0;

bool has_fp_counters(const KernelWork& work) {
    return std::any_of(s_fp_classes.begin(), s_fp_classes.end(),
                       [&work](const char* p) { return work.flops.count(p) != 0; });
}

// Without a mix the kernel may run FP instructions; with one, only when a class has a share.
bool may_run_fp(const KernelWork& work) {
    if (work.mix.empty()) {
        return true;
    }
    return std::any_of(s_fp_classes.begin(), s_fp_classes.end(), [&work](const char* p) {
        const auto it = work.mix.find(p);
        return it != work.mix.end() && it->second > 0;
    });
}

double value_of(const std::optional<config::Quantity>& q) {
    return q ? q->value : 0.0;
}

double gflops_of(const config::Ceilings& c, const std::string& key) {
    const auto it = c.gflops.find(key);
    return it != c.gflops.end() ? it->second.value : 0.0;
}

// A candidate time: t_s x source ceiling / target ceiling; 0 when either is unknown.
double if_bound(double total_ns, double source, double target, double fill_ratio) {
    return source > 0 && target > 0 ? total_ns * source / target * fill_ratio : 0.0;
}

struct Candidate {
    std::string what;
    double ns = 0;
};

std::vector<Candidate> candidates(const AbsentCounters& a, const config::Ceilings& s,
                                  const config::Ceilings& t,
                                  const std::map<std::string, double>& mix,
                                  std::array<double, 2> fills, double total) {
    const double sm_side = fills[0] / fills[1]; // time = work / (ceiling x fill)
    std::vector<Candidate> out;
    if (a.l1_sectors) {
        out.push_back({"l1", if_bound(total, value_of(s.l1_gbs), value_of(t.l1_gbs), sm_side)});
    }
    if (a.shared) {
        const auto& ss = s.shared_gbs ? s.shared_gbs : s.l1_gbs;
        const auto& ts = t.shared_gbs ? t.shared_gbs : t.l1_gbs;
        out.push_back({"shared", if_bound(total, value_of(ss), value_of(ts), sm_side)});
    }
    if (a.resource[k_l2]) {
        out.push_back({"l2", if_bound(total, value_of(s.l2_gbs), value_of(t.l2_gbs), 1.0)});
    }
    if (a.resource[k_hbm]) {
        out.push_back({"hbm", if_bound(total, value_of(s.hbm_gbs), value_of(t.hbm_gbs), 1.0)});
    }
    if (a.resource[k_flops]) {
        for (const char* p : s_fp_classes) {
            const auto share = mix.find(p);
            const bool used =
                mix.empty() ? std::string(p) == "fp32" : share != mix.end() && share->second > 0;
            if (used) {
                const std::string key = std::string(p) + "_fma";
                out.push_back({p, if_bound(total, gflops_of(s, key), gflops_of(t, key), sm_side)});
            }
        }
    }
    return out;
}

} // namespace

std::string AbsentCounters::names() const {
    std::string out;
    for (std::size_t r = 0; r < resource.size(); ++r) {
        if (resource[r]) {
            out += (out.empty() ? "" : ", ") + std::string(k_resources[r]);
        }
    }
    return out;
}

bool AbsentCounters::any() const {
    return std::any_of(resource.begin(), resource.end(), [](bool b) { return b; });
}

AbsentCounters absent_counters(const KernelWork& work) {
    AbsentCounters a;
    a.l1_sectors = !work.l1_sectors;
    a.shared = !work.shared_wavefronts;
    a.resource[k_l1] = a.l1_sectors || a.shared;
    if (a.l1_sectors) {
        a.counters.emplace_back("sectors_global_ld/st");
    }
    if (a.shared) {
        a.counters.emplace_back("wavefronts_shared_ld/st");
    }
    a.resource[k_l2] = !work.l2_transactions;
    if (a.resource[k_l2]) {
        a.counters.emplace_back("l2_sectors_read/write");
    }
    a.resource[k_hbm] = !work.hbm_transactions;
    if (a.resource[k_hbm]) {
        a.counters.emplace_back("dram_sectors_read/write");
    }
    a.resource[k_flops] = !has_fp_counters(work) && may_run_fp(work);
    if (a.resource[k_flops]) {
        a.counters.emplace_back("thread_{d,f,h}{add,mul,fma}");
    }
    return a;
}

PartialLevelBytes partial_level_bytes(const Counters& counters) {
    const auto l1 = l1_sectors(counters);
    const auto shared = shared_wavefronts(counters);
    const auto l2 = l2_transactions(counters);
    const auto dram = hbm_transactions(counters);
    PartialLevelBytes out;
    out.bytes.l1 = l1 && l2 ? std::max(0.0, *l1 - *l2) * 32.0 : 0.0;
    out.bytes.shared = shared ? *shared * 128.0 : 0.0;
    out.bytes.l2 = l2 ? std::max(0.0, *l2 - dram.value_or(0.0)) * 32.0 : 0.0;
    out.bytes.hbm = dram ? *dram * 32.0 : 0.0;
    out.complete = {l1 && shared && l2 && dram, l2 && dram, dram.has_value()};
    return out;
}

void mark_absent_flops(const AbsentCounters& absent, ResourceArray& times) {
    if (absent.resource[k_flops]) {
        times.ns[k_flops].reset();
        times.unknown.push_back("flops: FP op counters absent");
    }
}

ResourceArray known_only(const ResourceArray& times, const AbsentCounters& absent) {
    ResourceArray out = times;
    out.unknown.clear();
    for (const std::string& u : times.unknown) {
        bool of_absent = false;
        for (std::size_t r = 0; r < absent.resource.size(); ++r) {
            const std::string prefix = std::string(k_resources[r]) + ":";
            of_absent = of_absent || (absent.resource[r] && u.rfind(prefix, 0) == 0);
        }
        if (!of_absent) {
            out.unknown.push_back(u);
        }
    }
    return out;
}

void widen_for_absent(const AbsentCounters& absent, const config::Ceilings& source,
                      const config::Ceilings& target, const std::map<std::string, double>& mix,
                      std::array<double, 2> fills, double total_ns, Projection& p) {
    if (!absent.any()) {
        return;
    }
    std::string each;
    for (const Candidate& c : candidates(absent, source, target, mix, fills, total_ns)) {
        if (!(c.ns > 0)) {
            each += (each.empty() ? "" : ", ") + c.what + ": no ceiling on both GPUs";
            continue;
        }
        p.time_low_ns = std::min(p.time_low_ns, c.ns);
        p.time_high_ns = std::max(p.time_high_ns, c.ns);
        each += (each.empty() ? "" : ", ") + c.what + common::string_printf(" %.4g ns", c.ns);
    }
    p.confidence = "low";
    std::string counters;
    for (const std::string& c : absent.counters) {
        counters += (counters.empty() ? "" : ", ") + c;
    }
    p.notes.push_back("counters absent: " + counters + " (" + absent.names() +
                      "): projected on the known resources; the interval holds the time each "
                      "absent one gives if it binds on both GPUs (" +
                      each + ")");
}

namespace {

double launch_floor_us(const config::Ceilings& c) {
    const auto it = c.latency.find("launch_floor");
    return it != c.latency.end() ? it->second.value : 0.0;
}

} // namespace

double timed_launch_ns(const KernelRecord& k, double sampled_ns, double total_ns) {
    if (k.time_ns.total > 0 && k.launches > 0) {
        return total_ns / static_cast<double>(k.launches);
    }
    return sampled_ns / std::max<double>(1.0, k.profiled_launches);
}

LaunchBusy launch_busy(const KernelRecord& k, const ResourceArray& source_times,
                       const ResourceArray& target_times, double sampled_ns, double total_ns) {
    const double profiled = std::max<double>(1.0, k.profiled_launches);
    return {timed_launch_ns(k, sampled_ns, total_ns), longest_time_ns(source_times) / profiled,
            longest_time_ns(target_times) / profiled};
}

void move_point(Projection& p, double at, double total_ns, const char* method,
                PointBasis basis) noexcept {
    p.time_low_ns = std::min(p.time_low_ns, at);
    p.time_high_ns = std::max(p.time_high_ns, at);
    p.time_point_ns = at;
    p.speedup_point = total_ns / at;
    if (method != nullptr) {
        p.point_method = method;
        p.ratio_point = false;
    }
    p.point_basis = basis;
}

double floor_plus_work_ns(double launch_ns, double floor_s_ns, double floor_t_ns, double ratio) {
    const double floor_part = std::min(launch_ns, floor_s_ns) * floor_t_ns / floor_s_ns;
    return floor_part + std::max(0.0, launch_ns - floor_s_ns) * ratio;
}

void apply_floor_plus_work(const config::Ceilings& source, const config::Ceilings& target,
                           double total_ns, double launch_ns, Projection& p) {
    const double floor_s = launch_floor_us(source) * 1e3;
    const double floor_t = launch_floor_us(target) * 1e3;
    if (!(floor_s > 0) || !(floor_t > 0) || !(total_ns > 0) || !(launch_ns > 0) ||
        !(p.time_point_ns > 0) || p.point_basis != PointBasis::scaled_source) {
        return;
    }
    const double ratio = p.time_point_ns / total_ns;
    const double at = total_ns / launch_ns * floor_plus_work_ns(launch_ns, floor_s, floor_t, ratio);
    if (std::abs(at - p.time_point_ns) <= 1e-9 * p.time_point_ns) {
        return; // the same floor and ratio 1 (a GPU onto itself): nothing to say
    }
    move_point(p, at, total_ns, nullptr, PointBasis::scaled_source);
    p.notes.push_back(common::string_printf(
        "launch floor + work: t = the source's launch floor x the target's / the source's "
        "(%.4g / %.4g us) + the rest x the resource ratio (%.4g); the interval holds the "
        "resource ratio's point too",
        floor_t / 1e3, floor_s / 1e3, ratio));
}

void apply_latency_floor(const config::Ceilings& source, const config::Ceilings& target,
                         double total_ns, double launch_ns, Projection& p) {
    const auto floor_us = launch_floor_us;
    const double floor_s = floor_us(source);
    const double floor_t = floor_us(target);
    if (!(total_ns > 0)) {
        return;
    }
    const bool near_floor =
        floor_s > 0 && floor_t > 0 && launch_ns <= s_floor_launches * floor_s * 1e3;
    const double clock_s = sustained_clock_mhz(source);
    const double clock_t = sustained_clock_mhz(target);
    const bool waves = p.waves_source && p.waves_target && p.waves_source->waves > 0 &&
                       p.waves_target->waves > 0 && clock_s > 0 && clock_t > 0;
    if (!near_floor && !waves) {
        return;
    }
    const double at = near_floor
                          ? total_ns * floor_t / floor_s
                          : total_ns * static_cast<double>(p.waves_target->waves) /
                                static_cast<double>(p.waves_source->waves) * clock_s / clock_t;
    move_point(p, at, total_ns, near_floor ? "latency-floor" : "latency-clock",
               PointBasis::target_own);
    if (near_floor) {
        p.notes.push_back(common::string_printf(
            "latency floor: t = t_s x the target's launch floor / the source's (%.4g / %.4g us); "
            "the interval holds the resource ratio's point too",
            floor_t, floor_s));
        return;
    }
    p.notes.push_back(common::string_printf(
        "latency clock: t = t_s x the waves on the target / on the source x the source's SM clock "
        "/ the target's (%llu / %llu x %.0f / %.0f MHz): each wave's chain of dependent latencies "
        "runs at the SM clock; the interval holds the resource ratio's point too",
        static_cast<unsigned long long>(p.waves_target->waves),
        static_cast<unsigned long long>(p.waves_source->waves), clock_s, clock_t));
}

} // namespace irf::model

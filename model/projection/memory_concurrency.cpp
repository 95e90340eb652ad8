// SPDX-License-Identifier: Apache-2.0
// Memory concurrency (docs/model.md, "Memory concurrency").
#include "model/projection/memory_concurrency.hpp"

#include <algorithm>
#include <map>

#include "common/string_printf.hpp"
#include "model/projection/calibrated_interval.hpp"
#include "model/projection/issue_latency.hpp"
#include "model/projection/projection_partial.hpp"
#include "model/projection/waves.hpp"

namespace irf::model {

namespace {

// DRAM latency by chip, ns: the pointer chase of te42kyfo/gpu-benches (gpu-latency, commit
// 1c36d509), its largest chain (time / steps); docs/model.md, "Memory concurrency", lists them.
const std::map<std::string, double>& latency_table() {
    static const std::map<std::string, double> table = {
        {"GV100", 316.6}, // V100
        {"GA100", 407.5}, // A100 40 GB (80 GB: 405.6)
        {"GH100", 375.1}, // H100 PCIe (HBM2e; no HBM3/HBM3e part measured)
        {"AD102", 253.8}, // L40
    };
    return table;
}

} // namespace

std::optional<double> dram_latency_ns(const std::string& chip) {
    const auto it = latency_table().find(chip);
    return it == latency_table().end() ? std::nullopt : std::optional<double>(it->second);
}

double dram_latency_upper_ns() {
    double most = 0;
    for (const auto& [chip, ns] : latency_table()) {
        most = std::max(most, ns);
    }
    return most;
}

DramLatencies dram_latencies(const config::Ceilings& source, const config::Ceilings& target) {
    DramLatencies d;
    d.source_ns = dram_latency_ns(source.gpu.chip);
    d.target_ns = dram_latency_ns(target.gpu.chip);
    d.round_trip_ns = d.source_ns.value_or(dram_latency_upper_ns());
    if (d.cited()) {
        d.ratio = *d.target_ns / *d.source_ns;
        return d;
    }
    const double clock_s = config::sustained_clock_mhz(source);
    const double clock_t = config::sustained_clock_mhz(target);
    d.ratio = clock_s > 0 && clock_t > 0 ? clock_s / clock_t : 0.0;
    return d;
}

double concurrency_time_ns(double source_ns, double warps_source, double warps_target,
                           double latency_source_ns, double latency_target_ns) {
    return source_ns * (warps_source / warps_target) * (latency_target_ns / latency_source_ns);
}

namespace {

// Whether most of the kernel's L2 reads miss to DRAM (a stream, little reuse in the L2).
bool dram_stream(const KernelRecord& k) {
    const auto l2 = k.counters.find("l2_sectors_read");
    const auto dram = k.counters.find("dram_sectors_read");
    return l2 != k.counters.end() && dram != k.counters.end() && l2->second > 0 &&
           dram->second >= k_dram_stream_share * l2->second;
}

bool one_wave_on_both(const Projection& p) {
    return p.waves_source && p.waves_target && p.waves_source->waves == 1 &&
           p.waves_target->waves == 1;
}

// The grid shapes Little's law is applied to: one wave on both GPUs (every block resident,
// fewer warps than the source's slots), or several waves whose resident blocks leave the
// source's warp slots part empty (occupancy capped by blocks, registers or shared memory) on an
// HBM-bound stream, or, between GPUs of one SM design, fill them.
struct ConcurrencyShape {
    bool one_wave = false;
    bool same_design = false; ///< one compute capability: the same latencies in SM cycles
    double warps_s = 0;
    double warps_t = 0;
    double slots_s = 0; ///< the source's warp slots
    /// The most of a launch the busiest resource may take.
    [[nodiscard]] double share() const noexcept {
        // A full SM's stream limits the target only well short of its ceiling: nearer, queueing
        // lengthens its latency, which the target's larger bandwidth would shorten.
        return one_wave || full() ? k_concurrency_share : k_occupancy_concurrency_share;
    }
    /// Every warp slot of the source filled: its bytes in flight are all the kernel keeps.
    [[nodiscard]] bool full() const noexcept { return warps_s >= slots_s; }
};

std::optional<ConcurrencyShape> concurrency_shape(const KernelRecord& k, const config::Ceilings& s,
                                                  const config::Ceilings& t, const Projection& p) {
    const double per_block = warps_per_block(k.launch);
    ConcurrencyShape c;
    c.one_wave = one_wave_on_both(p);
    c.same_design = same_compute_capability(s, t);
    c.warps_s = resident_warps(*p.waves_source, s.gpu.sms, per_block);
    c.warps_t = resident_warps(*p.waves_target, t.gpu.sms, per_block);
    c.slots_s = static_cast<double>(s.gpu.sms) * s.gpu.sm_limits->max_warps_per_sm;
    if ((!c.one_wave && p.bound_source != "hbm") || !(c.warps_s > 0) || !(c.warps_t > 0) ||
        (c.full() && (c.one_wave || !c.same_design)) || (!c.same_design && !dram_stream(k))) {
        return std::nullopt;
    }
    return c;
}

// Whether Little's law moves the point to `by_warps`: always for one wave. Over several waves,
// a cap lifted when the source's slots are part empty; across SM designs only lifted (with fewer
// warps on the target, a source at this share may have been bandwidth-bound, which the share
// alone does not tell). On one design the same warps keep the same bytes in flight at the same
// latencies, so the limit is imposed too, and also for a full SM well short of its ceiling: the
// target's stream is no faster than its warps allow, nor than its busiest resource.
bool concurrency_moves(const ConcurrencyShape& c, double by_warps, double total_ns,
                       const Projection& p) {
    if (c.one_wave) {
        return true;
    }
    const bool imposed = c.same_design && by_warps > p.time_point_ns;
    return c.full() ? imposed : by_warps < total_ns || imposed;
}

std::string shape_text(const ConcurrencyShape& c, const Projection& p, const std::string& cc) {
    if (c.one_wave) {
        return "one wave on both";
    }
    if (c.full()) {
        return common::string_printf("every warp slot filled, cc %s on both", cc.c_str());
    }
    return common::string_printf("%d blocks/SM by %s, %.0f%% of the warp slots",
                                 p.waves_source->blocks_per_sm, p.waves_source->limiter.c_str(),
                                 100 * c.warps_s / c.slots_s);
}

} // namespace

void apply_memory_concurrency(const KernelRecord& k, const config::Ceilings& s,
                              const config::Ceilings& t, const ResourceArray& rs,
                              const ResourceArray& rt, double sampled_ns, double total_ns,
                              Projection& p) {
    if (!p.ratio_point || !memory_level(p.bound_source) || !p.waves_source || !p.waves_target ||
        !s.gpu.sm_limits || !(sampled_ns > 0) || !(total_ns > 0)) {
        return;
    }
    const auto shape = concurrency_shape(k, s, t, p);
    // Resource times cover the profiled launches; per launch from here on.
    const auto [launch_ns, busiest_s, busiest_t] = launch_busy(k, rs, rt, sampled_ns, total_ns);
    const double clock_s = config::sustained_clock_mhz(s);
    const double clock_t = config::sustained_clock_mhz(t);
    const DramLatencies latencies = dram_latencies(s, t);
    const double round_trip_ns = latencies.round_trip_ns;
    if (!shape || !(busiest_s > 0) || busiest_s >= shape->share() * launch_ns || !(busiest_t > 0) ||
        !(clock_s > 0) || !(clock_t > 0) || launch_ns < k_min_round_trips * round_trip_ns) {
        return;
    }
    // Without both figures, the same cycles on both: the latency ratio is the clocks'.
    const double by_warps =
        concurrency_time_ns(total_ns, shape->warps_s, shape->warps_t, 1.0, latencies.ratio);
    if (!concurrency_moves(*shape, by_warps, total_ns, p)) {
        return;
    }
    const double at = std::max(by_warps, total_ns * busiest_t / launch_ns);
    move_point(p, at, total_ns, "memory-concurrency", PointBasis::target_own);
    const std::string latency =
        latencies.cited()
            ? common::string_printf("the DRAM latencies %.0f / %.0f ns", *latencies.target_ns,
                                    *latencies.source_ns)
            : common::string_printf("the SM clocks %.0f / %.0f MHz (DRAM latency in equal "
                                    "cycles: no cited figure for both chips)",
                                    clock_s, clock_t);
    const std::string shape_note = shape_text(*shape, p, s.gpu.cc);
    p.notes.push_back(common::string_printf(
        "memory concurrency: %.0f resident warps (%s) keep %s at %.1f%% of its ceiling over a "
        "launch of %.1f DRAM latencies; by Little's law they move bytes in flight / latency, so "
        "t = t_s x warps %.0f / %.0f x %s, at least the target's busiest resource at its "
        "ceiling; the interval holds the resource ratio's point too",
        shape->warps_s, shape_note.c_str(), p.bound_source.c_str(), 100 * busiest_s / launch_ns,
        launch_ns / round_trip_ns, shape->warps_s, shape->warps_t, latency.c_str()));
}

void apply_sm_concurrency(const KernelRecord& k, const config::Ceilings& s,
                          const config::Ceilings& t, const ResourceArray& rs,
                          const ResourceArray& rt, double sampled_ns, double total_ns,
                          Projection& p) {
    if (!p.ratio_point || p.bound_source != "l1" || !p.waves_source || !p.waves_target ||
        p.waves_source->waves > k_sm_concurrency_waves ||
        p.waves_target->waves > k_sm_concurrency_waves || !(sampled_ns > 0) || !(total_ns > 0)) {
        return;
    }
    const std::uint64_t waves_s = p.waves_source->waves;
    const std::uint64_t waves_t = p.waves_target->waves;
    const double profiled = std::max<double>(1.0, k.profiled_launches);
    // After the waves' fill (apply_waves), the L1 time is its busiest SM's.
    const auto l1_s = rs.ns[k_l1];
    const double launch_ns = timed_launch_ns(k, sampled_ns, total_ns);
    const double busiest_t = longest_time_ns(rt) / profiled;
    const double clock_s = config::sustained_clock_mhz(s);
    const double clock_t = config::sustained_clock_mhz(t);
    if (!l1_s || !(*l1_s > 0) || *l1_s / profiled >= k_sm_concurrency_share * launch_ns ||
        !(busiest_t > 0) || !(clock_s > 0) || !(clock_t > 0)) {
        return;
    }
    // Each wave's resident blocks run together at their chains of latencies: a wave takes the
    // same time however few blocks it holds, so the time follows the waves, not the blocks. A
    // chain's steps count in cycles, fewer on a later SM generation where both are cited.
    const auto lat_s = dependent_issue_latency_cycles(s.gpu.cc);
    const auto lat_t = dependent_issue_latency_cycles(t.gpu.cc);
    const double cycles = lat_s && lat_t ? *lat_t / *lat_s : 1.0;
    const double by_latency = total_ns * static_cast<double>(waves_t) /
                              static_cast<double>(waves_s) * clock_s / clock_t * cycles;
    const double at = std::max(by_latency, total_ns * busiest_t / launch_ns);
    move_point(p, at, total_ns, "sm-concurrency", PointBasis::target_own);
    const std::string latencies =
        cycles != 1.0 ? common::string_printf(" x the dependent-issue latencies %.0f / %.0f cycles",
                                              *lat_t, *lat_s)
                      : std::string();
    p.notes.push_back(common::string_printf(
        "SM concurrency: %llu wave(s) on the source, %llu on the target, the busiest SM's L1 at "
        "%.1f%% of its ceiling: each wave's resident blocks run at their chains of latencies, "
        "not at the L1's rate, so t = t_s x waves %llu / %llu x the SM clocks %.0f / %.0f MHz%s, "
        "at least the target's busiest resource at its ceiling; the interval holds the resource "
        "ratio's point too",
        static_cast<unsigned long long>(waves_s), static_cast<unsigned long long>(waves_t),
        100 * *l1_s / profiled / launch_ns, static_cast<unsigned long long>(waves_t),
        static_cast<unsigned long long>(waves_s), clock_s, clock_t, latencies.c_str()));
}

} // namespace irf::model

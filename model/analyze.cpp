// SPDX-License-Identifier: Apache-2.0
// Runs the whole model over a profile (docs/model.md).
#include "model/analyze.hpp"
#include "model/regions.hpp"

#include <cstdio>

#include "model/counters.hpp"
#include "model/flop_roofline.hpp"
#include "model/instruction_mix.hpp"
#include "model/instruction_roofline.hpp"
#include "model/kernel_ceilings.hpp"
#include "model/measured_ceilings.hpp"
#include "model/pipe_ceilings.hpp"
#include "model/predication.hpp"
#include "model/projection.hpp"
#include "model/transactions.hpp"
#include "model/walls.hpp"

namespace irf::model {

namespace {

std::optional<double> gtxn(const std::optional<config::Quantity>& q, double bytes_per_txn) {
    if (!q || !(q->value > 0)) {
        return std::nullopt;
    }
    return gtxn_per_s(q->value, bytes_per_txn);
}

IrmCeilings irm_ceilings(const config::Ceilings& c) {
    IrmCeilings out;
    out.warp_gips = warp_gips_of(c);
    out.gtxn_per_s.l1 = gtxn(c.l1_gbs, k_sector_bytes);
    out.gtxn_per_s.l2 = gtxn(c.l2_gbs, k_sector_bytes);
    out.gtxn_per_s.hbm = gtxn(c.hbm_gbs, k_sector_bytes);
    return out;
}

// docs/model.md, Known limits: TMA copies reach L2 without LSU sectors in L1 (LDGSTS, atomic and
// reduction sectors are counted where collected), so L1 intensity is overstated for such
// kernels. Say so when L2 traffic clearly exceeds L1 sectors.
void note_lsu_bypass(const Counters& c, std::vector<std::string>& notes) {
    const auto l1 = l1_sectors(c);
    const auto l2 = l2_transactions(c);
    if (l1 && l2 && *l2 > 1.25 * *l1) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "irm.ii.l1: L2 sectors (%.3g) exceed L1 sectors (%.3g): copies that "
                      "bypass the LSU counters (TMA) are not in L1 intensity, which is overstated",
                      *l2, *l1);
        notes.push_back(buf);
    }
}

// Measured work cannot beat its own roofline: above 100% the ceilings are not this GPU's (or
// are too low), and every verdict drawn from them is suspect (docs/model.md).
void note_above_roofline(const KernelAnalysis& a, std::vector<std::string>& notes) {
    if (a.irm && a.irm->above_roofline()) {
        char buf[220];
        std::snprintf(buf, sizeof buf,
                      "irm.roofline_pct: %.1f%% of the roofline, above its ceiling: the ceilings "
                      "are not this GPU's or are too low (check --ceilings / IRF_CEILINGS)",
                      a.irm->roofline_pct);
        notes.push_back(buf);
    }
}

// Fewer blocks than SMs leave SMs idle for the whole kernel, whatever its roofline says: the
// launch-statistics rule of Nsight Compute, from the launch alone (docs/model.md, Waves).
void note_underfilled_grid(const KernelRecord& k, const config::Ceilings& source,
                           std::vector<std::string>& notes) {
    const std::uint64_t blocks =
        static_cast<std::uint64_t>(k.launch.grid[0]) * k.launch.grid[1] * k.launch.grid[2];
    const int sms = source.gpu.sms;
    if (k.launches == 0 || sms <= 0 || blocks == 0 || blocks >= static_cast<std::uint64_t>(sms)) {
        return;
    }
    char buf[220];
    std::snprintf(buf, sizeof buf,
                  "launch: under-filled grid: %llu blocks on %d SMs, so %llu SMs (%.0f%%) idle "
                  "for the whole kernel; more blocks (or split-K) would use them",
                  static_cast<unsigned long long>(blocks), sms,
                  static_cast<unsigned long long>(sms - blocks),
                  100.0 * static_cast<double>(static_cast<std::uint64_t>(sms) - blocks) / sms);
    notes.push_back(buf);
}

} // namespace

CeilingsUsed ceilings_used(const config::Ceilings& c) {
    CeilingsUsed u;
    u.name = !c.gpu.key.empty() ? c.gpu.key : c.gpu.name;
    u.source = c.source;
    u.warp_gips = warp_gips_of(c);
    const auto put = [&u](const char* key, std::optional<double> v) {
        if (v) {
            u.gtxn_per_s[key] = *v;
        }
    };
    put("l1", gtxn(c.l1_gbs, k_sector_bytes));
    put("shared", gtxn(c.shared_gbs, k_wavefront_bytes));
    put("l2", gtxn(c.l2_gbs, k_sector_bytes));
    put("hbm", gtxn(c.hbm_gbs, k_sector_bytes));
    for (const auto& [key, q] : c.gflops) {
        u.gflops[key] = q.value;
    }
    for (const auto& [key, q] : c.tensor_tflops) {
        u.gflops["tensor_" + key] = q.value * 1e3;
    }
    u.pipe_gips = pipe_peaks(c);
    u.provenance = ceiling_provenance(c);
    return u;
}

KernelAnalysis analyze_kernel(const KernelRecord& kernel, const config::Ceilings& source,
                              const std::vector<config::Ceilings>& targets) {
    KernelAnalysis a;
    const Counters& c = kernel.counters;
    a.irm = instruction_roofline(c, irm_ceilings(source), a.missing);
    a.walls.global = global_wall(c, a.missing);
    a.walls.shared = shared_wall(c, a.missing);
    a.predication = predication(c, a.missing);
    a.flops = flop_roofline(c, source, a.missing);
    a.mix = instruction_mix(c, a.missing);
    a.pipes = pipe_ceilings(a.mix, a.irm ? a.irm->gips_warp : 0.0, warp_gips_of(source),
                            pipe_peaks(source), a.missing);
    a.kernel_ceilings = kernel_ceilings(c, source, a);
    note_lsu_bypass(c, a.notes);
    note_above_roofline(a, a.notes);
    note_underfilled_grid(kernel, source, a.notes);
    for (const config::Ceilings& target : targets) {
        if (auto p = project(kernel, a, source, target, a.missing)) {
            a.projection.push_back(std::move(*p));
        }
    }
    return a;
}

void analyze(Profile& profile, const config::Ceilings& source,
             const std::vector<config::Ceilings>& targets) {
    // Measured maxima over peaks for the roofline and the projection (projection section 4.1).
    const config::Ceilings measured_source = prefer_measured(source);
    std::vector<config::Ceilings> measured_targets;
    for (const config::Ceilings& t : targets) {
        measured_targets.push_back(prefer_measured(t));
    }
    profile.ceilings = ceilings_used(measured_source);
    for (KernelRecord& kernel : profile.kernels) {
        kernel.analysis = analyze_kernel(kernel, measured_source, measured_targets);
    }
    roll_up_regions(profile);
}

} // namespace irf::model

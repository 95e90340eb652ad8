// SPDX-License-Identifier: Apache-2.0
// Runs the whole model over a profile (docs/model.md).
#include "model/analyze.hpp"
#include "model/roofline/regions.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <utility>

#include "common/parallel.hpp"
#include "model/projection/measured_ceilings.hpp"
#include "model/projection/projection.hpp"
#include "model/projection/projection_bounds.hpp"
#include "model/projection/waves.hpp"
#include "model/roofline/counters.hpp"
#include "model/roofline/flop_roofline.hpp"
#include "model/roofline/instruction_mix.hpp"
#include "model/roofline/instruction_roofline.hpp"
#include "model/roofline/kernel_ceilings.hpp"
#include "model/roofline/pipe_ceilings.hpp"
#include "model/roofline/predication.hpp"
#include "model/roofline/sm_clock.hpp"
#include "model/roofline/transactions.hpp"
#include "model/roofline/walls.hpp"

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
// kernels. Say so when L2 traffic clearly exceeds L1 sectors, naming only what the chip has:
// TMA exists from cc 9.0; before it (a real A100 export showed L2 at 4.7x L1 in a plain SGEMM)
// the usual causes are LDGSTS or texture traffic the file lacks and GA100's far-partition
// requests, which lts__t_* counts twice.
void note_lsu_bypass(const Counters& c, const std::string& cc, std::vector<std::string>& notes) {
    const auto l1 = l1_sectors(c);
    const auto l2 = l2_transactions(c);
    if (l1 && l2 && *l2 > 1.25 * *l1) {
        const bool has_tma = !cc.empty() && std::atof(cc.c_str()) >= 9.0;
        const char* what = has_tma ? "copies that bypass the LSU counters (TMA) are"
                                   : "traffic without LSU sectors (LDGSTS or texture not "
                                     "collected; far-partition L2 requests counted twice) is";
        char buf[240];
        std::snprintf(buf, sizeof buf,
                      "irm.ii.l1: L2 sectors (%.3g) exceed L1 sectors (%.3g): %s not in L1 "
                      "intensity, which is overstated",
                      *l2, *l1, what);
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
                  "launch: under-filled grid: %llu block%s on %d SMs, so %llu SMs (%.0f%%) idle "
                  "for the whole kernel; more blocks (or split-K) would use them",
                  static_cast<unsigned long long>(blocks), blocks == 1 ? "" : "s", sms,
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

namespace {

// Ceilings prepared once per profile (docs/model.md, "Measured maxima"), indexed by whether the
// kernel is write-only (PROJ section 5.2): the source alone, and each target paired with it.
struct Prepared {
    std::array<config::Ceilings, 2> source;
    std::array<std::vector<CeilingPair>, 2> pairs;
    std::array<std::vector<std::string>, 2> pair_notes; ///< pair_note of each pair
};

// The values without their evidence (sources, methods, alternatives): the verdicts read values
// only, and each kernel copies these ceilings once per target when it ran below the boost clock.
config::Ceilings lean(config::Ceilings c) {
    const auto strip = [](config::Quantity& q) {
        q.alternatives.clear();
        q.source.clear();
        q.method.clear();
        q.date.clear();
        q.driver.clear();
    };
    strip(c.warp_gips);
    for (auto* group : {&c.pipe_gips, &c.gflops, &c.tensor_tflops, &c.tensor_sparse_tflops,
                        &c.details, &c.datapaths}) {
        for (auto& [key, q] : *group) {
            strip(q);
        }
    }
    for (auto* level : {&c.l1_gbs, &c.shared_gbs, &c.l2_gbs, &c.hbm_gbs, &c.pcie_gbs}) {
        if (*level) {
            strip(**level);
        }
    }
    return c;
}

std::string pair_note(const CeilingPair& pair) {
    std::string text;
    for (const std::string& n : pair.notes) {
        text += (text.empty() ? "" : "; ") + n;
    }
    return "ceilings like with like (PROJ 4.1): " +
           (text.empty() ? std::string("the files' values on both") : text);
}

Prepared prepare(const config::Ceilings& source, const std::vector<config::Ceilings>& targets) {
    Prepared p;
    for (const bool write_only : {false, true}) {
        p.source[write_only] = lean(prefer_measured(source, write_only));
        for (const config::Ceilings& t : targets) {
            CeilingPair pair = like_for_like(source, t, write_only);
            pair.source = lean(std::move(pair.source));
            pair.target = lean(std::move(pair.target));
            p.pair_notes[write_only].push_back(pair_note(pair));
            p.pairs[write_only].push_back(std::move(pair));
        }
    }
    return p;
}

// A kernel whose DRAM traffic is writes (reads under 1% of them): a write-only stream figure
// applies to it (PROJ section 5.2, Hydro1D's init kernel).
bool is_write_only(const Counters& c) {
    const auto read = counter(c, "dram_sectors_read");
    const auto write = counter(c, "dram_sectors_write");
    return read && write && *write > 0 && *read <= 0.01 * *write;
}

// The ceilings at the kernels' SM clocks (docs/model.md, "SM clock"), each scaled copy made once
// per distinct clock: a copy per kernel and target was a seventh of analysing 100,000 kernels
// (docs/performance.md, "Tools on 100,000 kernels"). Bounded, as measured clocks may all differ.
class ClockScaled {
public:
    /// `c` itself at its boost clock, else `c` at `mhz`.
    const config::Ceilings& at(const config::Ceilings& c, double mhz) {
        const double boost = c.gpu.boost_clock_mhz;
        if (!(boost > 0) || !(mhz > 0) || mhz == boost) {
            return c;
        }
        const auto key = std::make_pair(&c, mhz);
        auto it = m_scaled.find(key);
        if (it == m_scaled.end()) {
            it = m_scaled.emplace(key, at_clock_fraction(c, mhz / boost)).first;
        }
        return it->second;
    }

    /// Called before each kernel, never in the middle of one (its references stay valid).
    void next_kernel() {
        if (m_scaled.size() >= k_max_entries) {
            m_scaled.clear();
        }
    }

private:
    static constexpr std::size_t k_max_entries = 512;
    std::map<std::pair<const config::Ceilings*, double>, config::Ceilings> m_scaled;
};

// What only the JSON shows of a projection (docs/output-schema.md); the summaries and the CSV
// read its times, speedup and confidence.
void drop_details(Projection& p) {
    std::vector<std::string>().swap(p.notes);
    p.resource_ns_source.clear();
    p.resource_ns_target.clear();
    p.waves_source.reset();
    p.waves_target.reset();
    p.l2.reset();
}

KernelAnalysis analyze_prepared(const KernelRecord& kernel, const Prepared& prepared,
                                ClockScaled& scaled, bool details = true, bool fold = false) {
    scaled.next_kernel();
    KernelAnalysis a;
    // Tensor register moves (HFMA2.MMA) are no tensor work and no FP16 FLOPs (counters.hpp).
    const double warps = profiled_warps(kernel);
    const std::optional<Counters> no_moves = without_tensor_moves(kernel.counters, warps);
    const Counters& c = no_moves ? *no_moves : kernel.counters;
    const bool write_only = is_write_only(c);
    const double source_mhz = source_clock_mhz(kernel, prepared.source[write_only], a.notes);
    const config::Ceilings& source = scaled.at(prepared.source[write_only], source_mhz);
    a.irm = instruction_roofline(c, irm_ceilings(source), a.missing);
    a.walls.global = global_wall(c, a.missing);
    a.walls.shared = shared_wall(c, a.missing);
    a.predication = predication(c, a.missing);
    a.flops = flop_roofline(c, source, a.missing);
    a.mix = instruction_mix(c, a.missing);
    a.pipes = pipe_ceilings(issue_mix(c, a.mix), a.irm ? a.irm->gips_warp : 0.0,
                            warp_gips_of(source), pipe_peaks(source), a.missing);
    a.kernel_ceilings = kernel_ceilings(c, source, a);
    note_tensor_moves(kernel.counters, warps, a);
    note_lsu_bypass(c, source.gpu.cc, a.notes);
    note_above_roofline(a, a.notes);
    note_underfilled_grid(kernel, source, a.notes);
    std::string no_waves; // the text summary's fill column says "-" without a reason
    a.waves = wave_count(kernel.launch, source.gpu, no_waves);
    ProjectionWork work = projection_work(kernel, a);
    work.details = details; // without them, drop_details below
    const std::vector<CeilingPair>& pairs = prepared.pairs[write_only];
    if (fold) {
        a.projection_brief.reserve(pairs.size());
    } else {
        a.projection.reserve(pairs.size());
    }
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const CeilingPair& pair = pairs[i];
        const double target_mhz = target_clock_mhz(source_mhz, pair.source, pair.target);
        auto p = project(kernel, a, work, scaled.at(pair.source, source_mhz),
                         scaled.at(pair.target, target_mhz), a.missing);
        if (p) {
            p->notes.push_back(prepared.pair_notes[write_only][i]);
            widen_by_spread(pair, *p);
            widen_by_clock_spread(pair.target, target_mhz, *p);
            if (fold) {
                a.projection_brief.push_back(brief_of(*p, static_cast<std::uint16_t>(i)));
                continue;
            }
            if (!details) {
                drop_details(*p);
            }
            a.projection.push_back(std::move(*p));
        }
    }
    return a;
}

} // namespace

KernelAnalysis analyze_kernel(const KernelRecord& kernel, const config::Ceilings& source,
                              const std::vector<config::Ceilings>& targets) {
    ClockScaled scaled;
    return analyze_prepared(kernel, prepare(source, targets), scaled);
}

namespace {

// Kernels a thread takes at a time: large enough that taking them costs nothing, small enough
// that threads finish together.
constexpr std::size_t k_kernels_per_take = 64;

// Analyses every kernel of `profile` on `threads` threads (the calling one among them), each
// taking k_kernels_per_take at a time. Each kernel's analysis depends on it and `prepared` alone,
// so the result is the same on any number of threads. The first exception of a worker stops
// the others' taking and is rethrown here, after all have stopped (common::for_each_range).
void analyze_kernels(Profile& profile, const Prepared& prepared, const AnalyzeSettings& settings) {
    std::vector<KernelRecord>& kernels = profile.kernels;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    const auto work = [&](std::size_t, std::size_t) {
        ClockScaled scaled; // one per thread: it hands out references into its own map
        try {
            for (std::size_t begin;
                 !failed && (begin = next.fetch_add(k_kernels_per_take)) < kernels.size();) {
                const std::size_t end = std::min(kernels.size(), begin + k_kernels_per_take);
                for (std::size_t i = begin; i < end; ++i) {
                    kernels[i].analysis =
                        analyze_prepared(kernels[i], prepared, scaled, settings.projection_details,
                                         settings.fold_projections);
                    if (!settings.keep_counters && kernels[i].regions.empty()) {
                        Counters().swap(kernels[i].counters);
                    }
                }
            }
        } catch (...) {
            failed = true;
            throw;
        }
    };
    const std::size_t takes = (kernels.size() + k_kernels_per_take - 1) / k_kernels_per_take;
    const std::size_t workers =
        std::clamp<std::size_t>(settings.threads, 1, std::max<std::size_t>(takes, 1));
    common::for_each_range(workers, static_cast<unsigned>(workers), 1, work); // one take loop each
}

} // namespace

void analyze(Profile& profile, const config::Ceilings& source,
             const std::vector<config::Ceilings>& targets, const AnalyzeSettings& settings) {
    const Prepared prepared = prepare(source, targets);
    profile.ceilings = ceilings_used(prefer_measured(source)); // with its provenance
    profile.brief_targets.clear();
    AnalyzeSettings run = settings;
    run.fold_projections = settings.fold_projections && targets.size() > k_summary_target_columns;
    if (run.fold_projections) {
        for (const config::Ceilings& t : targets) { // pair i projects onto targets[i]
            profile.brief_targets.push_back(target_name(t));
        }
    }
    analyze_kernels(profile, prepared, run);
    roll_up_regions(profile);
}

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Runs the whole model over a profile (docs/model.md).
#include "model/analyze.hpp"
#include "model/analyze_notes.hpp"
#include "model/roofline/regions.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <utility>

#include "common/parallel.hpp"
#include "model/projection/calibrated_interval.hpp"
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

// Ceilings prepared once per profile (docs/model.md, "Measured maxima"), indexed by whether the
// kernel is write-only (PROJ section 5.2): the source alone, and each target paired with it.
// Outside the anonymous namespace: KernelAnalyzer holds one.
struct Prepared {
    std::array<config::Ceilings, 2> source;
    std::array<std::vector<CeilingPair>, 2> pairs;
    std::array<std::vector<std::string>, 2> pair_notes; ///< pair_note of each pair
};

namespace {

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
    ProjectionWork work = projection_work(a, c);
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
            apply_calibrated_interval(pair.source, pair.target, *p);
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

// The calling thread's ClockScaled for the analyzer numbered `id`: it hands out references into
// its own map, so each thread has its own, and a new analyzer starts it afresh.
ClockScaled& thread_scaled(std::uint64_t id) {
    thread_local std::uint64_t t_owner = 0;
    thread_local ClockScaled t_scaled;
    if (t_owner != id) {
        t_scaled = ClockScaled();
        t_owner = id;
    }
    return t_scaled;
}

std::atomic<std::uint64_t> s_analyzers{0};

// Analyses every kernel of `profile` on `threads` threads (the calling one among them), each
// taking k_kernels_per_take at a time. Each kernel's analysis depends on it and the prepared
// ceilings alone, so the result is the same on any number of threads. The first exception of a
// worker stops the others' taking and is rethrown here, after all have stopped
// (common::for_each_range).
void analyze_kernels(Profile& profile, const KernelAnalyzer& analyzer, unsigned threads) {
    std::vector<KernelRecord>& kernels = profile.kernels;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    const auto work = [&](std::size_t, std::size_t) {
        try {
            for (std::size_t begin;
                 !failed && (begin = next.fetch_add(k_kernels_per_take)) < kernels.size();) {
                const std::size_t end = std::min(kernels.size(), begin + k_kernels_per_take);
                for (std::size_t i = begin; i < end; ++i) {
                    analyzer.analyze(kernels[i]);
                }
            }
        } catch (...) {
            failed = true;
            throw;
        }
    };
    const std::size_t takes = (kernels.size() + k_kernels_per_take - 1) / k_kernels_per_take;
    const std::size_t workers =
        std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(takes, 1));
    common::for_each_range(workers, static_cast<unsigned>(workers), 1, work); // one take loop each
}

} // namespace

struct KernelAnalyzer::State {
    Prepared prepared;
    AnalyzeSettings settings;
    CeilingsUsed ceilings;
    std::vector<std::string> brief_targets;
    std::uint64_t id = 0;
};

KernelAnalyzer::KernelAnalyzer(const config::Ceilings& source,
                               const std::vector<config::Ceilings>& targets,
                               const AnalyzeSettings& settings) {
    auto state = std::make_shared<State>();
    State& s = *state;
    s.prepared = prepare(source, targets);
    s.ceilings = ceilings_used(prefer_measured(source)); // with its provenance
    s.settings = settings;
    s.settings.fold_projections =
        settings.fold_projections && targets.size() > k_summary_target_columns;
    if (s.settings.fold_projections) {
        for (const config::Ceilings& t : targets) { // pair i projects onto targets[i]
            s.brief_targets.push_back(target_name(t));
        }
    }
    s.id = ++s_analyzers;
    m_state = std::move(state);
}

void KernelAnalyzer::analyze(KernelRecord& kernel) const {
    const State& s = *m_state;
    kernel.analysis = analyze_prepared(kernel, s.prepared, thread_scaled(s.id),
                                       s.settings.projection_details, s.settings.fold_projections);
    if (!s.settings.keep_counters && kernel.regions.empty()) {
        Counters().swap(kernel.counters);
    }
}

void KernelAnalyzer::finish(Profile& profile) const {
    profile.ceilings = m_state->ceilings;
    profile.brief_targets = m_state->brief_targets;
    roll_up_regions(profile);
}

void analyze(Profile& profile, const config::Ceilings& source,
             const std::vector<config::Ceilings>& targets, const AnalyzeSettings& settings) {
    const KernelAnalyzer analyzer(source, targets, settings);
    analyze_kernels(profile, analyzer, settings.threads);
    analyzer.finish(profile);
}

} // namespace irf::model

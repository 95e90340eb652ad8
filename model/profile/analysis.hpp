// SPDX-License-Identifier: Apache-2.0
// Plain analysis result types: the verdicts model::analyze derives from counters and ceilings.
// Field names mirror the JSON keys under `analysis` (docs/output-schema.md).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace irf::model {

/// A value per memory level of the Instruction Roofline.
struct PerLevel {
    std::optional<double> l1, l2, hbm;
};

/// Instruction Roofline verdict (docs/model.md: IRM Eq. 2).
struct IrmResult {
    double gips_warp = 0;    ///< NaN (JSON null) when unknown: no duration or warp count
    double gips_thread = 0;  ///< (thread instructions / 32) per ns: IRM's solid dots; NaN unknown
    PerLevel ii;             ///< warp instructions per 32-byte transaction
    PerLevel ii_thread;      ///< (thread instructions / 32) per transaction (IRM 3.2)
    PerLevel roofline_gips;  ///< min(peak GIPS, II x GTXN/s) at each level
    std::string bound;       ///< "issue", "l1", "l2" or "hbm"; "" (JSON null) when undecided
    double roofline_pct = 0; ///< gips_warp / roofline at the bounding level, in percent (JSON null
                             ///< when the bound is undecided)

    /// True when the kernel beat its own decided roofline: the ceilings are not its GPU's.
    [[nodiscard]] bool above_roofline() const { return !bound.empty() && roofline_pct > 100.0; }
};

/// Global-memory wall: warp ld/st instructions per global sector, and its pattern name.
struct GlobalWall {
    double intensity = 0;
    std::string pattern; ///< stride-0, broadcast, unit, strided, gather (side of the unit wall)
    double unit_intensity = 0.25; ///< the kernel's unit-stride wall: instructions / ideal sectors
    std::optional<double> access_bytes;    ///< bytes requested per active thread (absent: not
                                           ///< collected, the wall assumes 4-byte words)
    std::optional<double> access_bytes_ld; ///< the loads' alone (absent: no loads, or unknown)
    std::optional<double> access_bytes_st; ///< the stores' alone (absent: no stores, or unknown)
};

/// Shared-memory wall: shared instructions per wavefront and the bank-conflict degree.
struct SharedWall {
    double intensity = 0;
    double conflict_ways = 1; ///< wavefronts / ideal wavefronts: 1 = conflict-free .. 32-way
    double conflict_free_intensity = 1; ///< instructions / ideal wavefronts (the no-conflict wall)
    std::optional<double> access_bytes; ///< as GlobalWall's
    std::optional<double> access_bytes_ld; ///< as GlobalWall's
    std::optional<double> access_bytes_st; ///< as GlobalWall's
    /// The ideal wavefronts are measured ones less ncu's bank-conflict counts (an import that
    /// has them), not an access width's: the ways are the file's own.
    bool conflicts_measured = false;
};

/// Memory walls; each is absent when the kernel issues no such instruction.
struct Walls {
    std::optional<GlobalWall> global;
    std::optional<SharedWall> shared;
};

/// One precision's share of the FLOP roofline (docs/model.md: HRM Eq. 2-4 per precision).
struct PrecisionFlops {
    double flops = 0;                     ///< FLOPs of this precision
    double gflops = 0;                    ///< its FLOPs / kernel time
    PerLevel ai;                          ///< its FLOPs per byte at each level
    std::optional<double> ceiling_gflops; ///< Perf_ceil (Eq. 3) or the tensor peak
};

/// Hierarchical FLOP roofline (docs/model.md: HRM Eq. 2-7).
struct FlopsResult {
    std::map<std::string, PrecisionFlops> by_precision; ///< fp64, fp32, fp16, tensor_<type>
    double fp64 = 0, fp32 = 0, fp16 = 0, tensor = 0;    ///< FLOP counts
    double gflops = 0;                                  ///< all FLOPs / time
    PerLevel ai;                                        ///< FLOPs per byte at each level
    std::optional<double> fma_mix_ceiling_gflops;
    std::optional<double> hmma_gips_ceiling;
    /// Tensor-pipe utilisation in percent: the sum over input types of ops per second / the
    /// type's dense peak. Absent without tensor_ops_* counts, or when a counted type has no peak.
    std::optional<double> tensor_pipe_pct;
    /// Tensor-pipe instructions that were register moves (HFMA2.MMA), taken out of the tensor
    /// work and their HFMA instructions out of the FP16 FLOPs (model/roofline/counters.hpp); 0 =
    /// none.
    double tensor_register_moves = 0;
    std::string
        precision; ///< fp64, fp32 or fp16: the CUDA-core precision with most FLOPs ("" = none)
};

/// How a grid runs on one GPU: blocks per SM and waves (docs/model.md, "Waves").
struct WaveCount {
    std::uint64_t blocks = 0;      ///< blocks in the grid
    int blocks_per_sm = 0;         ///< resident blocks per SM
    std::string limiter;           ///< what caps them: warps, blocks, registers or shared
    std::uint64_t full_waves = 0;  ///< floor(blocks / (SMs x blocks per SM))
    std::uint64_t tail_blocks = 0; ///< blocks of the last, partial wave (0: none)
    std::uint64_t waves = 0;       ///< full waves, plus 1 with a tail
    /// Blocks the busiest SM runs: full waves x blocks per SM + ceil(tail / SMs).
    std::uint64_t blocks_per_busiest_sm = 0;
    double fill = 0; ///< blocks / (SMs x blocks_per_busiest_sm), in (0, 1]: the SMs' busy share
};

/// A kernel's L2 working set against a source and a target GPU, per launch (docs/model.md,
/// "L2 capacity").
struct L2Fit {
    double l2_traffic_bytes = 0;  ///< bytes through L2 (hits + DRAM) per launch
    double dram_source_bytes = 0; ///< measured DRAM bytes per launch
    double working_set_bytes = 0; ///< estimated unique bytes per launch
    bool fits_source = false;     ///< working set <= the source's L2
    bool fits_target = false;     ///< working set <= the target's L2
    double dram_target_bytes = 0; ///< DRAM bytes per launch on the target
    bool re_estimated = false;    ///< the L2 sizes differ and the traffic changes: the model's
};

/// A projection reduced to what the text summary and the CSV show (40 bytes instead of a
/// Projection's 616): kept instead of the projections when AnalyzeSettings::fold_projections.
struct ProjectionBrief {
    std::uint16_t target = 0; ///< index into Profile::brief_targets
    bool low_confidence = false;
    double low_ns = 0, point_ns = 0, high_ns = 0;
    double speedup = 0; ///< Projection::speedup_point
};

/// What a projection's point is (docs/model.md, "Launch floor + work").
enum class PointBasis : std::uint8_t {
    scaled_source, ///< the source's time x ratios: a launch floor splits it into floor + work
    target_own,    ///< a time of the target's own (its ceilings, latencies or launch floor)
};

/// Projected time of a kernel on another GPU (docs/model.md: PROJ Eq. 9).
struct Projection {
    std::string target; ///< ceilings key or file
    std::string basis;  ///< compute side on the source: "flops" or "instructions" (issue)
    double time_low_ns = 0, time_point_ns = 0, time_high_ns = 0; ///< low <= point <= high
    double time_eq9_low_ns = 0, time_eq9_high_ns = 0; ///< PROJ's Eq. 9 interval, unwidened
    /// low/high widened by the residual spread of the benchmark sets, holding about 90% of
    /// measured times (docs/model.md, Projection item 7); 0: no fitted spread.
    double time_calibrated_low_ns = 0, time_calibrated_high_ns = 0;
    double time_mean_ns = 0;  ///< the Eq. 9 interval's mean (PROJ's red line), docs/model.md
    double speedup_point = 0; ///< source time / projected point time
    /// How the point was set: "binding-resource", "known-resources", "interval-mean",
    /// "estimated-ceiling", or the rule that moved it (docs/model.md, Projection item 1).
    std::string point_method;
    PointBasis point_basis = PointBasis::scaled_source; ///< not written to JSON
    /// The point is still the resource ratio's (set when the bounds decide it), which the
    /// rules after it may move; not written to JSON.
    bool ratio_point = false;
    std::string bound_source; ///< resource binding on the source ("" = undecided)
    std::string bound_target; ///< resource binding on the target ("" = undecided)
    std::map<std::string, double> resource_ns_source; ///< known resource times, source GPU
    std::map<std::string, double> resource_ns_target; ///< known resource times, target GPU
    std::string confidence;                           ///< "high" or "low"
    std::vector<std::string> notes;        ///< why confidence is low, which level bounds, ...
    std::optional<WaveCount> waves_source; ///< absent: no SM limits, or a block does not fit
    std::optional<WaveCount> waves_target;
    std::optional<L2Fit> l2; ///< absent: an L2 size or a traffic counter is unknown
};

/// The interval a check of measured times reads: the calibrated one when a spread was fitted,
/// else low/high (docs/tools.md, check-projection).
[[nodiscard]] inline std::pair<double, double> checked_interval(const Projection& p) {
    if (p.time_calibrated_low_ns > 0 && p.time_calibrated_high_ns > 0) {
        return {p.time_calibrated_low_ns, p.time_calibrated_high_ns};
    }
    return {p.time_low_ns, p.time_high_ns};
}

/// `p` as the text summary and the CSV read it; `target` indexes Profile::brief_targets.
[[nodiscard]] inline ProjectionBrief brief_of(const Projection& p, std::uint16_t target = 0) {
    return {target,          p.confidence == "low", p.time_low_ns,
            p.time_point_ns, p.time_high_ns,        p.speedup_point};
}

/// One pipe's use by a kernel (docs/model.md, "Pipe sub-ceilings").
struct PipeUse {
    double gips = 0;         ///< the pipe's warp instructions per ns (estimated from the mix)
    double ceiling_gips = 0; ///< the pipe's peak (ceilings.pipe_gips)
    double pct = 0;          ///< gips / ceiling_gips, in percent
};

/// The pipe sub-ceilings of a kernel on the Instruction Roofline.
struct PipeCeilings {
    std::map<std::string, PipeUse> by_pipe; ///< int32, fp32, fp64, fp16, lsu (those in the mix)
    double ceiling_gips = 0;                ///< the kernel's issue ceiling given its mix
    std::string binding;                    ///< the pipe that sets it, or "issue" (the schedulers)
};

/// Everything derived for one kernel; an absent member has a reason in `missing`.
struct KernelAnalysis {
    std::optional<IrmResult> irm;
    Walls walls;
    std::optional<double> predication; ///< inst_thread / (32 x inst_warp), in (0, 1]
    std::optional<FlopsResult> flops;
    std::map<std::string, double>
        mix; ///< shares summing to 1: integer, fp32, fp64, fp16, ldst, control, other
    std::optional<PipeCeilings> pipes;             ///< pipe sub-ceilings from the mix
    std::map<std::string, double> kernel_ceilings; ///< docs/model.md: PROJ Eq. 2-8 values
    std::vector<Projection> projection;
    /// Instead of `projection` when folded (AnalyzeSettings::fold_projections); in memory only.
    std::vector<ProjectionBrief> projection_brief;
    /// The grid's waves on the profiled GPU (docs/model.md, "Waves"); absent without its SM
    /// limits or when a block does not fit on its SM.
    std::optional<WaveCount> waves;
    std::vector<std::string> missing; ///< "walls.global: no global ld/st counters", ...
    std::vector<std::string> notes;   ///< cautions about verdicts that are present (e.g. TMA)
};

/// The ceilings a profile was analysed with, as recorded at the top level of the JSON.
struct CeilingsUsed {
    std::string name;   ///< database key or file stem
    std::string source; ///< "measured:<file>", "shipped:<key>" or "derived:<reason>"
    double warp_gips = 0;
    std::map<std::string, double> gtxn_per_s; ///< l1, shared, l2, hbm
    std::map<std::string, double> gflops;     ///< per precision key
    std::map<std::string, double> pipe_gips;  ///< per pipe: the IRM's pipe sub-ceilings
    /// Provenance of each ceiling in effect (measured maxima preferred, projection section 4.1)
    std::map<std::string, std::string> provenance;
};

} // namespace irf::model

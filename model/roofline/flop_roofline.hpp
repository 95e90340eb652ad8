// SPDX-License-Identifier: Apache-2.0
// Hierarchical FLOP roofline (docs/model.md: HRM section II, Eq. 2-7) and the FMA-mix
// ceiling (docs/model.md: PROJ Eq. 2).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/ceilings.hpp"
#include "model/profile/analysis.hpp"
#include "model/profile/profile.hpp"

namespace irf::model {

/// FLOPs of one precision: add + mul + 2 x fma (an FMA is two operations).
[[nodiscard]] double flop_count(double adds, double muls, double fmas);

/// Hierarchical-roofline Eq. 6: alpha = FMA / (FMA + non-FMA) instructions; 0 when none.
[[nodiscard]] double fma_fraction(double fmas, double adds, double muls);

/// Hierarchical-roofline Eq. 7: beta = (2 alpha + (1 - alpha)) / 2, the share of FMA peak a mix
/// can reach when the no-FMA peak is half the FMA peak (alpha 0.6 -> 0.8).
[[nodiscard]] double fma_mix_factor(double alpha);

/// Projection Eq. 2: Perf_mix = Perf_FMA x N_FMA / N + Perf_ADD_MUL x (N_ADD + N_MUL) / N with
/// N = N_FMA + N_ADD + N_MUL; equals Eq. 7 x Perf_FMA when Perf_ADD_MUL = Perf_FMA / 2.
/// nullopt when the kernel has no FP instruction of this precision.
[[nodiscard]] std::optional<double> perf_mix(double fma_peak, double add_mul_peak, double fmas,
                                             double adds, double muls);

/// Tensor instruction (HMMA) GIPS ceiling = tensor FLOP/s / FLOPs per instruction
/// (125 TFLOP/s / 512 = 244 GIPS on V100, docs/model.md: IRM section 4). 512 FLOPs per
/// instruction is Volta's HMMA only; other GPUs need it measured (tensor_ops / inst_tensor).
[[nodiscard]] double hmma_gips(double tensor_tflops, double flops_per_instruction);

/// FLOPs per tensor instruction HRM assumes for V100 HMMA (docs/model.md) when it cannot be
/// measured.
inline constexpr double k_v100_flops_per_hmma = 512.0;

/// How to collect the tensor ops by input type, as notes and tables say it.
inline constexpr const char* k_tensor_types_hint =
    "IRF_METRICS=tensor_types or irf run --metrics tensor_types counts them";

/// Tensor-pipe utilisation in percent from the tensor_<type> entries of `by_precision`: the sum
/// of gflops / ceiling_gflops (the dense peak of each type). nullopt when no type was counted or
/// a counted type has no ceiling.
[[nodiscard]] std::optional<double>
tensor_pipe_pct(const std::map<std::string, PrecisionFlops>& by_precision);

/// The FLOP roofline of one kernel (docs/model.md: HRM Eq. 2-4): FLOP counts per
/// precision, tensor FLOPs (tensor_ops_* of the floating-point types; int8 ops are not FLOPs),
/// GFLOP/s, AI at L1 (same 32-byte transactions as the Instruction Roofline), L2 and HBM, the
/// FMA-mix ceiling of the dominant precision and the HMMA GIPS ceiling. Absent with a reason when
/// the FP counters are absent.
[[nodiscard]] std::optional<FlopsResult> flop_roofline(const Counters& counters,
                                                       const config::Ceilings& ceilings,
                                                       std::vector<std::string>& missing);

/// When `raw` holds tensor register moves (model/roofline/counters.hpp: the analysis then ran on
/// the counters without them), records them in `a.flops` and says so in `a.notes`.
void note_tensor_moves(const Counters& raw, double warps_launched, KernelAnalysis& a);

/// Warps the profiled launches of `kernel` ran: blocks x warps per block x profiled launches
/// (0 when the launch is unknown), for tensor_register_moves.
[[nodiscard]] double profiled_warps(const KernelRecord& kernel);

/// FLOPs of a kernel per precision: fp64, fp32, fp16 from the thread FP counters (add + mul +
/// 2 x fma) and tensor_<type> from tensor_ops_<type>. Precisions whose counters are absent are
/// left out; entries with 0 FLOPs are kept.
[[nodiscard]] std::map<std::string, double> flops_by_precision(const Counters& counters);

/// The FMA-mix ceiling of `precision` (fp64, fp32, fp16) from the FP thread counters and the
/// `<precision>_fma` / `<precision>_nofma` GFLOP/s ceilings (no-FMA = FMA / 2 when absent);
/// nullopt when the ceiling or the instructions are absent.
[[nodiscard]] std::optional<double> fma_mix_ceiling(const Counters& counters,
                                                    const config::Ceilings& ceilings,
                                                    const std::string& precision);

/// A CUDA-core precision's add, mul and FMA thread instructions (nullopt: not collected).
struct FmaCounts {
    std::optional<double> adds, muls, fmas;
};

/// The FP thread counters of `precision` (fp64, fp32, fp16); nullopt for any other precision.
[[nodiscard]] std::optional<FmaCounts> fma_counts(const Counters& counters,
                                                  const std::string& precision);

/// fma_mix_ceiling from counts already read (fma_counts of `precision`): the same value.
[[nodiscard]] std::optional<double> fma_mix_ceiling(const FmaCounts& counts,
                                                    const config::Ceilings& ceilings,
                                                    const std::string& precision);

/// The ceiling in GFLOP/s a precision's FLOPs run at on `ceilings`: Perf_ceil = active share x
/// Perf_mix (projection Eq. 2-3; fp_ceiling_share: the FP pipe's share, else `predication`) for
/// fp64/fp32/fp16, the dense tensor TFLOP/s x 1e3 for tensor_<type>. nullopt when unknown.
[[nodiscard]] std::optional<double> precision_ceiling_gflops(const Counters& counters,
                                                             const config::Ceilings& ceilings,
                                                             const std::string& precision,
                                                             double predication);

/// The pipe a precision's FLOPs run on: "fp64", "fma" (fp32 and fp16) or "tensor" (every
/// tensor_<type>).
[[nodiscard]] std::string flop_pipe(const std::string& precision);

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Reading canonical counters (docs/metrics.md) where any of them may be absent.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "model/profile/profile.hpp"

namespace irf::model {

/// The value of one counter, or nullopt when it was not collected or is not a finite number >= 0.
[[nodiscard]] std::optional<double> counter(const Counters& counters, std::string_view name);

/// True when `counters` hold a tensor ops-by-input-type counter (tensor_ops_*).
[[nodiscard]] bool has_tensor_types(const Counters& counters);

/// True when the kernel issued tensor-pipe instructions (inst_tensor > 0) that may do tensor
/// math: not when its ops by input type were measured and are all zero. nvcc zeroes registers
/// with HFMA2.MMA, which the tensor pipe counts (1 to 9 a warp in the H100 recording's
/// non-tensor kernels, docs/validation/h100-known-answers.md).
[[nodiscard]] bool issues_tensor_math(const Counters& counters);

/// Warp-level tensor-pipe instructions that are register moves, not tensor math: nvcc's
/// HFMA2.MMA moves are counted by the tensor pipe and as HFMA thread instructions, so a kernel's
/// tensor instructions are moves when its measured tensor ops are all zero, or when its HFMA
/// thread instructions are 32 x its tensor instructions within 1% (issue #53: the H100
/// recording, a public A100 export), or, given the warps the profiled launches ran
/// (`warps_launched` > 0), when it issued at most k_moves_per_warp of them a warp and each had
/// 1 to 32 HFMA thread instructions (moves under a partly predicated-off warp: the public BERT
/// export's softmax, 160 for 160 warps with 3,200 HFMA). inst_tensor then, else 0.
[[nodiscard]] double tensor_register_moves(const Counters& counters, double warps_launched = 0);

/// Tensor-pipe instructions a warp may issue and still be read as moves: nvcc zeroes a few
/// registers per warp (1 to 9 in the H100 recording's kernels); tensor math issues hundreds.
inline constexpr double k_moves_per_warp = 16;

/// `counters` with tensor register moves taken out (inst_tensor 0; their HFMA thread
/// instructions, 32 per move, out of thread_hfma, so they are no FP16 FLOPs), or nullopt when
/// the kernel has none. inst_pipe_tensor stays: the moves did issue on the tensor pipe.
[[nodiscard]] std::optional<Counters> without_tensor_moves(const Counters& counters,
                                                           double warps_launched = 0);

/// The sum of several counters, or nullopt when any of them is absent (a partial sum would be a
/// wrong number, not a smaller one).
[[nodiscard]] std::optional<double> counter_sum(const Counters& counters,
                                                std::initializer_list<const char*> names);

/// The sum of the counters among `names` that were collected; an absent one counts 0. Only for
/// counters that are legitimately absent (an instruction the chip lacks, a profile older than
/// the counter), added to a sum whose required terms counter_sum already checked.
[[nodiscard]] double collected_sum(const Counters& counters,
                                   std::initializer_list<const char*> names);

/// The names among `names` that are absent, joined by ", " (for `missing` reasons).
[[nodiscard]] std::string absent_counters(const Counters& counters,
                                          std::initializer_list<const char*> names);

/// a / b when both are finite and b > 0, otherwise nullopt (never NaN or infinity).
[[nodiscard]] std::optional<double> safe_ratio(double a, double b);

} // namespace irf::model

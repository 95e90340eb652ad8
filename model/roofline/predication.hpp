// SPDX-License-Identifier: Apache-2.0
// Thread predication ratio (docs/model.md: IRM section 3.2) and the FP pipes' active share
// (docs/model.md, "FP active share": PROJ Eq. 3).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/profile/profile.hpp"

namespace irf::model {

/// Predication ratio inst_thread / (32 x inst_warp) (section 3.2; 1.0 = no predication), in
/// (0, 1]. Absent with a reason when a counter is absent or zero.
[[nodiscard]] std::optional<double> predication(const Counters& counters,
                                                std::vector<std::string>& missing);

/// The pipe a CUDA-core precision's FP instructions issue on, as the suffix of its pipe_mix
/// counters (`thread_pipe_<pipe>` over `inst_pipe_<pipe>`): fp32 -> fma, fp16 -> fp16,
/// fp64 -> fp64; "" for any other precision.
[[nodiscard]] std::string fp_share_pipe(const std::string& precision);

/// Active share of the pipe `precision` issues on: thread_pipe_<pipe> / (32 x inst_pipe_<pipe>),
/// in (0, 1]; nullopt when a counter is absent, the pipe issued nothing or the ratio exceeds 1.
[[nodiscard]] std::optional<double> fp_active_share(const Counters& counters,
                                                    const std::string& precision);

/// The active share Perf_ceil (PROJ Eq. 3) scales `precision`'s Perf_mix by: its FP pipe's
/// share when measured, else `kernel_wide` (the kernel's predication).
[[nodiscard]] double fp_ceiling_share(const Counters& counters, const std::string& precision,
                                      double kernel_wide);

/// Adds to `missing` one line per CUDA-core precision with FLOPs whose FP active share was not
/// measured while the kernel-wide predication is below 1 (the stand-in then understates a
/// fully active FP pipe). At predication 1 every pipe is fully active, so nothing is missing.
void note_fp_share_absent(const Counters& counters, std::vector<std::string>& missing);

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Global and shared memory walls of the Instruction Roofline (docs/model.md: IRM 3.1-3.2).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/profile/analysis.hpp"
#include "model/profile/profile.hpp"

namespace irf::model {

/// Names a global load/store intensity (instructions per sector) by its side of the kernel's
/// unit-stride wall `unit_intensity` (section 3.2: right of it several threads share a word,
/// left of it the access is strided or a gather). A wall claims intensities within a factor
/// 2^(1/4) of it: "unit" on the unit wall; "stride-0" at or beyond 1 (one sector per warp
/// instruction); "broadcast" between the two; "gather" at or below 1/32 (one sector per thread);
/// "strided" between the unit wall and gather. A misaligned unit access (one sector more per
/// instruction, intensity unit / (1 + unit)) is "unit" too. `access_bytes` below 1 / 2^(1/4)
/// (requested bytes per active thread, each address of a warp access counted once, as GH100
/// counts them) means threads share words whatever the wall says: "stride-0" at or beyond 1,
/// else "broadcast".
[[nodiscard]] std::string global_pattern(double intensity, double unit_intensity,
                                         std::optional<double> access_bytes = std::nullopt);

/// Ideal transactions of `instructions` warp accesses that requested `bytes`: bytes / `size`
/// (32 for sectors, 128 for wavefronts), at least one per instruction.
[[nodiscard]] double ideal_transactions(double instructions, double bytes, double size);

/// Global wall (section 3.2): (inst_global_ld + st) / (sectors_global_ld + st), named against
/// the unit-stride wall of the bytes the threads requested (bytes_global_ld + st): a float4 copy
/// sits on the 1/16 wall, an fp16 copy on the 1/2 wall. Without the bytes counters the wall
/// assumes 4-byte words (a reason says so). Absent with a reason when the counters are absent
/// or the kernel issues no global ld/st.
[[nodiscard]] std::optional<GlobalWall> global_wall(const Counters& counters,
                                                    std::vector<std::string>& missing);

/// Bank-conflict degree: wavefronts / ideal wavefronts, clamped to [1, 32] (1 = conflict-free,
/// 32 = 32-way; section 3.1 shared walls).
[[nodiscard]] double conflict_ways(double wavefronts, double ideal_wavefronts);

/// Shared wall (section 3.2): shared ld/st instructions (LDS, STS, LDSM, STSM) per wavefront,
/// and the conflict ways against the ideal wavefronts of the bytes requested (a conflict-free
/// 64- or 128-bit access is 1-way). Without the bytes counters the ideal is one wavefront per
/// instruction (4-byte words; a reason says so). Absent with a reason when the counters are
/// absent or the kernel issues no shared ld/st.
[[nodiscard]] std::optional<SharedWall> shared_wall(const Counters& counters,
                                                    std::vector<std::string>& missing);

/// An access width as tables print it: "4B" when loads and stores have one width (or only one
/// direction, or only the combined width, is known), "4B/2B" (loads/stores) when they differ,
/// "" when none is known.
[[nodiscard]] std::string access_width(std::optional<double> combined, std::optional<double> ld,
                                       std::optional<double> st);

/// The pattern with its access width, as tables print it: "unit 16B", "unit 4B/2B" (loads 4 B,
/// stores 2 B), "strided 4B", "stride-0"; "strided 4B?" when the requested bytes were not
/// collected and 4-byte words were assumed.
[[nodiscard]] std::string global_label(const GlobalWall& wall);

} // namespace irf::model

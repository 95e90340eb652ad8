// SPDX-License-Identifier: Apache-2.0
// Global and shared memory walls of the Instruction Roofline (docs/model.md: IRM 3.1-3.2).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/analysis.hpp"
#include "model/profile.hpp"

namespace irf::model {

/// Names the access pattern of a global load/store intensity (instructions per sector) by the
/// nearest wall of section 3.1: "stride-0" (1), "unit-fp32" (1/4), "unit-fp64" (1/8), "gather"
/// (1/32), "strided" anywhere between them. A wall claims intensities within a factor 2^(1/4)
/// of it; anything at or above 1/2^(1/4) is stride-0, at or below 2^(1/4)/32 gather.
[[nodiscard]] std::string global_pattern(double intensity);

/// Global wall (section 3.2): (inst_global_ld + st) / (sectors_global_ld + st). Absent with a
/// reason when the counters are absent or the kernel issues no global ld/st.
[[nodiscard]] std::optional<GlobalWall> global_wall(const Counters& counters,
                                                    std::vector<std::string>& missing);

/// Bank-conflict degree from shared instructions per wavefront: 1 / intensity clamped to
/// [1, 32] (1 = conflict-free, 32 = 32-way; section 3.1 shared walls).
[[nodiscard]] double conflict_ways(double intensity);

/// Shared wall (section 3.2): (inst_shared_ld + st) / (wavefronts_shared_ld + st). Absent with a
/// reason when the counters are absent or the kernel issues no shared ld/st.
[[nodiscard]] std::optional<SharedWall> shared_wall(const Counters& counters,
                                                    std::vector<std::string>& missing);

} // namespace irf::model

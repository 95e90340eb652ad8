// SPDX-License-Identifier: Apache-2.0
// Thread predication ratio (docs/model.md: IRM section 3.2).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/profile.hpp"

namespace irf::model {

/// Predication ratio inst_thread / (32 x inst_warp) (section 3.2; 1.0 = no predication), in
/// (0, 1]. Absent with a reason when a counter is absent or zero.
[[nodiscard]] std::optional<double> predication(const Counters& counters,
                                                std::vector<std::string>& missing);

} // namespace irf::model

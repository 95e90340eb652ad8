// SPDX-License-Identifier: Apache-2.0
// Measured maxima over datasheet peaks (docs/model.md: PROJ section 4.1: the projection
// uses Perf^Max and BW^Max, measured or published, and falls back to peaks only without them).
#pragma once

#include <map>
#include <string>

#include "config/ceilings.hpp"

namespace irf::model {

/// A copy of `ceilings` in which every spec or derived value that has a measured or published
/// alternative takes the largest such alternative (value, provenance and source).
[[nodiscard]] config::Ceilings prefer_measured(const config::Ceilings& ceilings);

/// The provenance of every ceiling in effect, by key: warp_gips, l1_gbs, shared_gbs, l2_gbs,
/// hbm_gbs, gflops.<key>, tensor.<type> -> "measured", "published", "spec" or "derived".
[[nodiscard]] std::map<std::string, std::string>
ceiling_provenance(const config::Ceilings& ceilings);

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// NVTX regions: the top-level per-path rollup of a profile's kernels (docs/regions.md).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/profile/profile.hpp"

namespace irf::model {

/// One kernel's part in a region: the kernel and its launches under the region's path.
using RegionPart = std::pair<const KernelRecord*, KernelRegion>;

/// Rolls one region up: time and launches from every launch; bound shares weighted by time;
/// instructions, transactions and FLOPs summed over the profiled launches under the path (a
/// kernel's counters scaled by its share of profiled launches); ratios from the sums.
[[nodiscard]] RegionRecord roll_up_region(const std::string& path,
                                          const std::vector<RegionPart>& parts);

/// Rebuilds `profile.regions` from its kernels' regions, longest time first.
void roll_up_regions(Profile& profile);

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// The NVTX regions section of the text summary (model/summary/text_summary.cpp) and the cells it
// shares with the kernel table.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "model/profile/profile.hpp"

namespace irf::model {

/// A merged job's rank imbalance (max / mean time over the ranks) right-aligned in a column
/// `width` wide; "-" without.
[[nodiscard]] std::string imbalance_cell(const std::optional<RankStats>& ranks, int width);

/// "hbm 80% issue 20%": the bounds of a region by share of its time, largest first; "-" without.
[[nodiscard]] std::string bound_shares(const RegionRecord& r);

/// The region tree (model/roofline/region_tree.hpp) of `p` down to `depth` levels (0: all) as a
/// table: the `top` nodes by inclusive time in tree order, each indented under its parent, with
/// time (share of `total`), launches, kernels, warp GIPS, the share of its time with counters
/// ("partial" below k_counted_enough) and bound shares. "" without regions.
[[nodiscard]] std::string regions_section(const Profile& p, std::size_t top, double total,
                                          int name_width, std::size_t depth);

/// Below this share of a region's time in kernels with counters, its GIPS and bounds stand for
/// part of it only ("partial").
inline constexpr double k_counted_enough = 0.8;

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// NVTX regions as people read them (issue #41 item 5): PyTorch's per-call decorations stripped,
// numbered siblings folded (layer0 ... layer31 -> layer*), every level with its inclusive total,
// as a tree of at most a given depth. A view of the profile's exact per-path regions, which the
// JSON keeps unchanged (docs/regions.md).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "model/profile/profile.hpp"

namespace irf::model {

/// How regions are grouped for reading.
struct RegionGrouping {
    std::size_t depth = 0;    ///< levels shown (0: every level)
    bool fold_numbers = true; ///< layer0, layer1, ... -> layer*
};

/// `name` without the decorations torch.autograd.profiler.emit_nvtx adds to each operator call:
/// "aten::mm, seq = 4071, op_id = 9213, sizes = [[8, 512]]" -> "aten::mm".
[[nodiscard]] std::string plain_range_name(std::string_view name);

/// plain_range_name as a prefix of `name`, without allocating (the NVTX push path).
[[nodiscard]] std::string_view plain_range_view(std::string_view name) noexcept;

/// One node of the region tree: a grouped path and what ran under it, itself and below.
struct RegionNode {
    std::string path;         ///< grouped path, "train_step/forward/layer*"
    std::size_t level = 0;    ///< 0 for a top-level range
    RegionRecord inclusive;   ///< rolled up over every launch at or below the path
    std::size_t members = 1;  ///< distinct numbered siblings folded into it (layer*: 32)
    double member_min_ns = 0; ///< the shortest member's inclusive time (members > 1)
    double member_max_ns = 0; ///< the longest member's inclusive time
    double counted_share = 0; ///< share of its time in kernels that have counters
};

/// The region tree of `profile` under `grouping`: nodes in depth-first order, children by
/// inclusive time (longest first). Launches outside every range are not in it.
[[nodiscard]] std::vector<RegionNode> region_tree(const Profile& profile,
                                                  const RegionGrouping& grouping = {});

/// The grouped path of an exact region path: each range name plain (plain_range_name), cut to
/// `depth` levels (0: all). Numbered siblings are folded by region_tree, which sees them all.
[[nodiscard]] std::string grouped_path(const std::string& path, std::size_t depth);

} // namespace irf::model

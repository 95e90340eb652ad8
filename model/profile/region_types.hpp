// SPDX-License-Identifier: Apache-2.0
// Plain types of NVTX regions in a profile (docs/regions.md): a kernel's share of each range path
// and the per-path rollup at the top level.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "model/profile/analysis.hpp"
#include "model/profile/rank_stats.hpp"

namespace irf::model {

/// One kernel's launches under one NVTX range path.
struct KernelRegion {
    std::string path;                    ///< "outer/inner"
    std::uint64_t launches = 0;          ///< launches under this path
    double time_ns = 0;                  ///< their summed duration
    std::uint64_t profiled_launches = 0; ///< of them, the ones in the kernel's counters
};

/// The analysis of a region rolled up from its kernels (model/roofline/regions.hpp).
struct RegionAnalysis {
    std::map<std::string, double>
        bound_shares; ///< Instruction Roofline bound -> share of the region's time
    std::uint64_t profiled_launches = 0;
    double profiled_time_ns = 0; ///< duration of the profiled launches
    double inst_warp = 0;        ///< warp instructions of the profiled launches
    PerLevel transactions;       ///< 32-byte transactions per level (absent: no counters)
    double fp64 = 0, fp32 = 0, fp16 = 0, tensor = 0; ///< FLOPs of the profiled launches
    std::optional<double> gips_warp;                 ///< inst_warp / profiled_time_ns
    std::optional<double> gflops;                    ///< all FLOPs / profiled_time_ns
    PerLevel ii;                                     ///< inst_warp / transactions
    PerLevel ai;                                     ///< FLOPs / (32 x transactions)
};

/// One NVTX range path over the whole profile.
struct RegionRecord {
    std::string path;
    double time_ns = 0;         ///< every launch under the path
    std::uint64_t launches = 0; ///< every launch under the path
    std::uint64_t kernels = 0;  ///< distinct kernels launched under it
    std::optional<RegionAnalysis> analysis;
    std::optional<RankStats> ranks; ///< merged job profiles only (irf-report merge)
};

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Kernel-specific ceilings (docs/model.md: PROJ section 2, Eq. 1 and 3-8).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/ceilings.hpp"
#include "model/profile/analysis.hpp"
#include "model/profile/profile.hpp"

namespace irf::model {

/// Bytes served by each level (N_mem of Eq. 4): L1 hits = (global + local sectors - L2
/// sectors) x 32, shared = wavefronts x 128, L2 hits = (L2 - DRAM sectors) x 32, HBM = DRAM
/// sectors x 32. Hits are clamped at 0 (e.g. TMA traffic reaches L2 without L1 sectors).
struct LevelBytes {
    double l1 = 0, shared = 0, l2 = 0, hbm = 0;
};

/// Peak bandwidths in GB/s; absent when the ceilings do not have them.
struct Bandwidths {
    std::optional<double> l1, shared, l2, hbm;
};

/// The bytes of a kernel per level; nullopt when an L1/shared/L2/DRAM counter is absent.
[[nodiscard]] std::optional<LevelBytes> level_bytes(const Counters& counters);

/// The bandwidths of a GPU; shared falls back to L1 (same SRAM on every NVIDIA GPU since Volta).
[[nodiscard]] Bandwidths bandwidths(const config::Ceilings& ceilings);

/// Roofline (Eq. 1): min(BW x OI, Perf).
[[nodiscard]] double roofline(double oi, double bandwidth, double perf);

/// Eq. 3: Perf_ceil = active threads per instruction / warp size x Perf_mix.
[[nodiscard]] double perf_ceil(double warp_usage, double perf_mix);

/// Eq. 4: t_mem = N_mem / BW_mem (bytes / GB/s = ns); nullopt when bytes > 0 and no bandwidth.
[[nodiscard]] std::optional<double> transfer_time_ns(double bytes, std::optional<double> gbs);

/// Eq. 5: t_shM = N_shM / N_shM_pc x N_shM_pc_max / BW_shM. N_shM / N_shM_pc is the number of
/// 128-byte shared cycles (wavefronts, which grow with bank conflicts), so this is
/// wavefronts x 128 / BW_shM.
[[nodiscard]] std::optional<double> shared_time_ns(double wavefronts, std::optional<double> gbs);

/// Bytes traversing each level (N_mem^+, Eq. 10) and the harmonic-mean bandwidth ceilings of
/// Eq. 6-8 in GB/s. A level is absent when its bytes are 0 or a bandwidth it needs is unknown.
struct BandwidthCeilings {
    PerLevel bytes;   ///< N^+: L1 = all four, L2 = L2 + HBM, HBM = HBM
    PerLevel gbs;     ///< BW^ceil of Eq. 6, 7, 8
    PerLevel time_ns; ///< the denominators: summed transfer times of the traversing bytes
};

/// Eq. 6-8 for a kernel's bytes on a GPU with these bandwidths.
[[nodiscard]] BandwidthCeilings bandwidth_ceilings(const LevelBytes& bytes, const Bandwidths& bw);

/// The Eq. 2-8 values of a kernel on `ceilings`, as recorded in analysis.kernel_ceilings:
/// perf_mix_gflops, perf_ceil_gflops (Eq. 2-3), t_{l1,shared,l2,hbm}_ns (Eq. 4-5) and
/// bw_ceil_{l1,l2,hbm}_gbs (Eq. 6-8). Values that cannot be computed are left out.
[[nodiscard]] std::map<std::string, double> kernel_ceilings(const Counters& counters,
                                                            const config::Ceilings& ceilings,
                                                            const KernelAnalysis& analysis);

} // namespace irf::model

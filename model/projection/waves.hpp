// SPDX-License-Identifier: Apache-2.0
// Blocks per SM from a launch and a GPU's SM limits, and the waves a grid takes on a GPU
// (docs/model.md, "Waves").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "config/ceilings.hpp"
#include "model/profile/profile.hpp"

namespace irf::model {

/// Blocks in a grid (0 for a grid not recorded).
[[nodiscard]] std::uint64_t grid_blocks(const std::array<std::uint32_t, 3>& grid);

/// Warps of one block of `launch` (threads rounded up to whole warps).
[[nodiscard]] double warps_per_block(const LaunchConfig& launch);

/// Warps resident at once on a GPU of `sms` SMs: the grid's when it is one wave, else every SM's
/// resident blocks, of `per_block` warps each.
[[nodiscard]] double resident_warps(const WaveCount& w, int sms, double per_block);

/// Where a grid runs in one wave ("source", "target" or "source and the target") when the two
/// GPUs do not run it in waves of one shape (the same waves, blocks on the busiest SM and fill):
/// every block starts together and the launch ends with its slowest, so its time follows the
/// blocks' latencies and the tail more than the ceilings (docs/model.md, "Waves"). nullopt
/// otherwise.
[[nodiscard]] std::optional<std::string> one_wave_of_another_shape(const WaveCount& source,
                                                                   const WaveCount& target);

/// Resident blocks per SM and the resource that caps them.
struct Occupancy {
    int blocks_per_sm = 0; ///< 0: one block does not fit on an SM of this GPU
    std::string limiter;   ///< "warps", "blocks", "registers", "shared" or "block size"
};

/// Blocks per SM of `launch` under `limits`, as the CUDA occupancy calculation does it: the
/// least of warps/SM / warps per block, blocks/SM, registers (a warp's registers rounded up to
/// the allocation unit, allocated per scheduler sub-partition) and shared memory (static +
/// dynamic + the per-block reserve, rounded up to the allocation unit). Registers 0 (not
/// recorded) do not limit. `sub_partitions` is the warp schedulers per SM.
[[nodiscard]] Occupancy occupancy(const LaunchConfig& launch, const config::SmLimits& limits,
                                  int sub_partitions);

/// The waves of `launch` on `gpu`; nullopt when the GPU has no SM limits or no SMs, or one block
/// does not fit on its SM (then `why` says so).
[[nodiscard]] std::optional<WaveCount> wave_count(const LaunchConfig& launch,
                                                  const config::GpuIdentity& gpu, std::string& why);

/// The launch of a persistent kernel on `target`: a grid of k x the source's SMs with k at most
/// its blocks per SM (exactly one full wave, as persistent GEMM and attention kernels size their
/// grid) becomes min(k, the target's blocks per SM) x the target's SMs blocks. nullopt when the
/// grid is not of that form, or the waves of either GPU cannot be counted.
[[nodiscard]] std::optional<LaunchConfig> persistent_launch(const LaunchConfig& launch,
                                                            const config::GpuIdentity& source,
                                                            const config::GpuIdentity& target);

} // namespace irf::model

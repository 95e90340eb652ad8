// SPDX-License-Identifier: Apache-2.0
// Memory concurrency (Little's law) for launches too small to fill a GPU or whose occupancy is
// capped, and SM concurrency for latency-bound grids of one or two waves (docs/model.md,
// "Memory concurrency", "SM concurrency").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "config/ceilings.hpp"
#include "model/profile/profile.hpp"
#include "model/projection/resource_times.hpp"

namespace irf::model {

/// Above this share of a launch, the busiest memory resource is taken to run near its ceiling,
/// and the ceiling ratio stays.
inline constexpr double k_concurrency_share = 0.5;

/// The same for an HBM-bound grid of several waves whose resident warps fill less than the
/// source's warp slots (occupancy capped by blocks, registers or shared memory): under 3/4 of its
/// ceiling such a stream is taken as short of bytes in flight (docs/model.md, "Memory
/// concurrency": bandwidth-bound streams of that data reach 77-82% of a GDDR5 ceiling).
inline constexpr double k_occupancy_concurrency_share = 0.75;

/// Below this share of the source's L2 read sectors missing to DRAM, the loads are served mostly
/// by the L2, whose size and latency differ between the GPUs, so DRAM latency does not set the
/// stream (docs/model.md, "Memory concurrency").
inline constexpr double k_dram_stream_share = 2.0 / 3.0;

/// Fewest DRAM round trips a warp's stream must span (a launch of at least this many DRAM
/// latencies) for Little's law to hold: the fill and drain, about one latency each, then stay
/// under a tenth of the launch.
inline constexpr double k_min_round_trips = 20;

/// Measured DRAM load latency of a chip in ns (pointer chase past the L2, docs/model.md, "Memory
/// concurrency"), or nullopt where no measurement is cited.
[[nodiscard]] std::optional<double> dram_latency_ns(const std::string& chip);

/// The DRAM latency taken for a chip without a cited figure in the round-trip test: the largest
/// cited one, so that fewer launches pass.
[[nodiscard]] double dram_latency_upper_ns();

/// The DRAM latencies of a source and a target GPU as the concurrency rules read them.
struct DramLatencies {
    std::optional<double> source_ns; ///< cited (dram_latency_ns), if any
    std::optional<double> target_ns;
    /// The target's over the source's: the cited figures' ratio where both chips have one, else
    /// equal SM cycles on both (the sustained clocks' ratio, clock_s / clock_t); 0 without both
    /// clocks.
    double ratio = 0;
    /// One round trip on the source for the round-trip test: its cited latency, else
    /// dram_latency_upper_ns.
    double round_trip_ns = 0;
    [[nodiscard]] bool cited() const noexcept { return source_ns && target_ns; }
};

/// The DRAM latencies of `source` and `target`.
[[nodiscard]] DramLatencies dram_latencies(const config::Ceilings& source,
                                           const config::Ceilings& target);

/// Little's law in time form: a memory stream of W resident warps, each keeping the same bytes
/// in flight, moves W x bytes / latency per ns, so the same bytes take
/// t_s x (warps_s / warps_t) x (latency_t / latency_s) on the target.
[[nodiscard]] double concurrency_time_ns(double source_ns, double warps_source, double warps_target,
                                         double latency_source_ns, double latency_target_ns);

/// When `p`'s point is a resource ratio, a launch spans at least k_min_round_trips DRAM
/// latencies, at least k_dram_stream_share of the source's L2 read sectors come from DRAM (not
/// asked when both GPUs have one compute capability: one SM design, the same latencies in cycles)
/// and either the grid is one wave on both GPUs, fewer warps than the source's slots, with the
/// binding resource a memory level (L1, L2, HBM) under k_concurrency_share of a launch, or it
/// takes several waves with HBM binding under k_occupancy_concurrency_share, the source's warp
/// slots part empty and the target's resident warps making the stream faster (a cap lifted) or,
/// on one compute capability, slower than the point (a limit imposed), or on one compute
/// capability every slot filled, HBM under k_concurrency_share and the warps making it slower
/// than the point, moves the point to
/// max(concurrency_time_ns, with the cited DRAM latencies in ns where both chips have one and equal
/// cycles (the sustained clocks' ratio) otherwise; the target's busiest resource at its ceiling on
/// every launch) over `total_ns` (point_method "memory-concurrency"), the interval holding the
/// ratio's point too, with a note. `sampled_ns` covers the profiled launches.
void apply_memory_concurrency(const KernelRecord& kernel, const config::Ceilings& source,
                              const config::Ceilings& target, const ResourceArray& source_times,
                              const ResourceArray& target_times, double sampled_ns, double total_ns,
                              Projection& p);

/// Under this share of a launch, the busiest SM's L1 is taken as not saturated: its blocks,
/// resident together in each wave, run as fast as their own chains of latencies allow
/// (docs/model.md, "SM concurrency").
inline constexpr double k_sm_concurrency_share = 0.8;

/// Most waves on either GPU for which a wave is taken as one step of latency-bound time: over
/// more, blocks start and finish out of step and the SM's rate takes over (docs/model.md, "SM
/// concurrency").
inline constexpr std::uint64_t k_sm_concurrency_waves = 2;

/// When `p`'s point is still a resource ratio, the source is L1-bound with its busiest SM's L1
/// (the L1 time over the waves' fill) under k_sm_concurrency_share of a launch and the grid takes
/// at most k_sm_concurrency_waves waves on each GPU, moves the point to max(`total_ns` x the
/// target's waves / the source's x the source's sustained SM clock / the target's x the target's
/// dependent-issue latency / the source's (issue_latency.hpp; 1 unless both are cited), the
/// target's busiest resource at its ceiling on every launch) (point_method "sm-concurrency"),
/// the interval holding the ratio's point too, with a note.
void apply_sm_concurrency(const KernelRecord& kernel, const config::Ceilings& source,
                          const config::Ceilings& target, const ResourceArray& source_times,
                          const ResourceArray& target_times, double sampled_ns, double total_ns,
                          Projection& p);

} // namespace irf::model

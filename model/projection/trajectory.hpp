// SPDX-License-Identifier: Apache-2.0
// Roofline scaling trajectories (docs/trajectories.md): the ceilings as functions of the active
// SM count, and each kernel's position on the Instruction Roofline as the application gets
// more SMs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/profile/profile.hpp"

namespace irf::model {

/// One kernel at one SM count.
struct TrajectoryPoint {
    int sms = 0;                        ///< SMs the run could use (gpu.sms_active, else gpu.sms)
    double time_ns = 0;                 ///< mean duration per launch in this run
    std::optional<double> gips_warp;    ///< warp instructions per launch / time_ns
    std::optional<double> gflops;       ///< FLOPs per launch / time_ns
    PerLevel ii;                        ///< warp instructions per 32-byte transaction
    PerLevel ai;                        ///< FLOPs per byte (hierarchical roofline Eq. 3)
    std::optional<double> ceiling_gips; ///< Instruction Roofline at `ii`, ceilings scaled to `sms`
    int counters_sms = 0;               ///< the run whose counters gave ii and work (its SM count)
};

/// How a kernel scales from the fewest to the most SMs (see classify_trajectory).
struct TrajectoryVerdict {
    std::string kind;      ///< ideal, saturating, degrading_intensity, not_scaling, sublinear,
                           ///< undecided
    std::string level;     ///< the intensity level compared: hbm, l2 or l1 ("" when none)
    double sm_ratio = 0;   ///< SMs at the last point / SMs at the first
    double speedup = 0;    ///< time at the first point / time at the last
    double efficiency = 0; ///< speedup / sm_ratio (1 = ideal)
    std::optional<double> intensity_change; ///< ii(last) / ii(first) - 1 at `level`
    std::optional<double> shared_use; ///< last point's traffic / the full-GPU ceiling of `level`
    std::string reason;               ///< the numbers behind the verdict, for people
};

/// One kernel's trajectory across the runs.
struct KernelTrajectory {
    std::string name;
    std::string mangled;
    LaunchConfig launch;
    std::vector<TrajectoryPoint> points; ///< by increasing SM count
    TrajectoryVerdict verdict;
};

/// Thresholds of the classification; the defaults are documented in docs/trajectories.md.
struct TrajectoryThresholds {
    double ideal_efficiency = 0.8;    ///< speedup / SM ratio at or above this scales ideally
    double intensity_tolerance = 0.1; ///< relative ii change still counted as steady
    double saturated_share = 0.6;     ///< traffic / full-GPU L2 or HBM ceiling that saturates it
    double flat_speedup = 1.1;        ///< a speedup below this is not scaling at all
};

/// The Instruction Roofline ceiling (GIPS) of a kernel with intensities `ii` on `ceilings`
/// scaled to `sms` of `total_sms` SMs: min(share x peak, min over levels of ii x share x GTXN/s)
/// (docs/model.md: IRM Eq. 2 with SLIDES' scaled ceilings); nullopt without a peak.
[[nodiscard]] std::optional<double> scaled_ceiling_gips(const CeilingsUsed& ceilings,
                                                        const PerLevel& ii, int sms, int total_sms);

/// Classifies a trajectory (points sorted by SM count, at least two) against the full-GPU
/// `ceilings`; `blocks` is the kernel's grid size (blocks per launch).
[[nodiscard]] TrajectoryVerdict classify_trajectory(const std::vector<TrajectoryPoint>& points,
                                                    const CeilingsUsed& ceilings, double blocks,
                                                    const TrajectoryThresholds& t = {});

/// Builds one trajectory per kernel (matched by demangled name and launch configuration) from
/// analysed profiles of the same application at different SM counts. A run without counters
/// for a kernel borrows them from the run with the most SMs that has them (counters cannot be
/// collected under MPS) and only its time is its own. Kernels seen in fewer than two runs are
/// left out, and so is a point whose kernel has no positive mean time. Throws
/// std::invalid_argument (message names the run) when a profile has no ceilings or no SM count,
/// ran on another GPU than the first run, or has more SMs active than its GPU.
[[nodiscard]] std::vector<KernelTrajectory>
build_trajectories(const std::vector<const Profile*>& runs, const TrajectoryThresholds& t = {});

} // namespace irf::model

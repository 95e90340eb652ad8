// SPDX-License-Identifier: Apache-2.0
// Projection with what was collected (issue 54 item 1; docs/model.md, "Projection", "Absent
// counters"): a kernel missing one level's counters is projected on the resources that are known,
// its interval widened to what the missing resource could do on each GPU.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "config/ceilings.hpp"
#include "model/profile/analysis.hpp"
#include "model/profile/profile.hpp"
#include "model/projection/resource_times.hpp"
#include "model/roofline/kernel_ceilings.hpp"

namespace irf::model {

/// The resources of k_resources whose counters were not collected, and those counters.
struct AbsentCounters {
    std::array<bool, std::size(k_resources)> resource{}; ///< by ResourceIndex
    std::vector<std::string> counters;                   ///< "sectors_global_ld/st", ...
    bool shared = false;                                 ///< the L1 side misses shared wavefronts
    bool l1_sectors = false;                             ///< the L1 side misses global sectors
    /// Resources absent, named ("l1, flops"); empty when every counter group is there.
    [[nodiscard]] std::string names() const;
    [[nodiscard]] bool any() const;
};

/// What `work` lacks: L1 (global sectors or shared wavefronts), L2 or DRAM sectors, and FP op
/// counters (no thread_{d,f,h}{add,mul,fma} triplet at all while the instruction mix, when known,
/// has FP instructions). The issue resource is never "absent": without inst_warp nothing is
/// projected.
[[nodiscard]] AbsentCounters absent_counters(const KernelWork& work);

/// The bytes each Eq. 9 level reads, with the parts whose counters are absent as 0, and which of
/// the levels L1 (Eq. 6: every part), L2 (Eq. 7: L2 and DRAM) and HBM (Eq. 8: DRAM) are complete.
struct PartialLevelBytes {
    LevelBytes bytes;
    std::array<bool, 3> complete{}; ///< L1, L2, HBM
};

/// level_bytes with absent parts as 0 (level_bytes itself needs every part).
[[nodiscard]] PartialLevelBytes partial_level_bytes(const Counters& counters);

/// Marks the FLOP time of `times` unknown when the FP counters are absent (it reads 0 otherwise).
void mark_absent_flops(const AbsentCounters& absent, ResourceArray& times);

/// `times` without the unknowns of absent resources: binding_resource of it is the binding one
/// among the known resources, when nothing else is unknown.
[[nodiscard]] ResourceArray known_only(const ResourceArray& times, const AbsentCounters& absent);

/// Widens `p` to hold, for each absent resource, t_s x its ceiling on the source / on the target
/// (the time if that resource binds on both GPUs; SM-side ones also by the waves' fill), sets
/// confidence low and adds a note naming the absent counters. `mix` chooses the FP precisions
/// (every FP class with a share; fp32 without a mix). `fills` are the source's and target's
/// (1 when the waves were not counted).
void widen_for_absent(const AbsentCounters& absent, const config::Ceilings& source,
                      const config::Ceilings& target, const std::map<std::string, double>& mix,
                      std::array<double, 2> fills, double total_ns, Projection& p);

/// One launch's duration without counters: the timed mean (`total_ns` / launches) where the
/// kernel's total covers every launch (counters slow a launch down), else `sampled_ns` over the
/// profiled launches.
[[nodiscard]] double timed_launch_ns(const KernelRecord& k, double sampled_ns, double total_ns);

/// One launch as the rules that compare a resource with the launch read it: its timed duration
/// (timed_launch_ns) and the busiest resource time on each GPU, per launch (the resource times
/// cover the profiled launches).
struct LaunchBusy {
    double launch_ns = 0;
    double source_ns = 0; ///< the source's busiest resource (0 when none is known)
    double target_ns = 0; ///< the target's
};

/// `k`'s LaunchBusy from its resource times on the source and the target.
[[nodiscard]] LaunchBusy launch_busy(const KernelRecord& k, const ResourceArray& source_times,
                                     const ResourceArray& target_times, double sampled_ns,
                                     double total_ns);

/// Moves `p`'s point to `at` ns of `total_ns` (its speedup with it), the interval widened to
/// hold it and so keeping the point it had; `method` becomes its point_method unless null (the
/// point is then no longer the resource ratio's), and `basis` its point_basis.
void move_point(Projection& p, double at, double total_ns, const char* method,
                PointBasis basis) noexcept;

/// A latency-bound kernel (its busiest resource under a tenth of its time; docs/model.md,
/// "Latency floor"): a launch of at most 4 launch floors takes t_s x the target's launch floor /
/// the source's (ceilings latency.launch_floor; point_method "latency-floor"); a longer one, or
/// one without a floor on both GPUs, t_s x waves on the target / on the source x the source's
/// sustained SM clock / the target's when both waves are counted ("latency-clock"). The interval
/// holds it and the resource ratio's point, with a note.
void apply_latency_floor(const config::Ceilings& source, const config::Ceilings& target,
                         double total_ns, double launch_ns, Projection& p);

/// One launch's time on the target when it is a fixed launch floor plus work (docs/model.md,
/// "Launch floor + work"): min(t, floor_s) x floor_t / floor_s + max(0, t - floor_s) x ratio.
[[nodiscard]] double floor_plus_work_ns(double launch_ns, double floor_s_ns, double floor_t_ns,
                                        double ratio);

/// When both GPUs' ceilings give a launch floor and the point is still a resource ratio's, moves
/// the point to floor_plus_work_ns over every launch (the interval holds both), with a note.
void apply_floor_plus_work(const config::Ceilings& source, const config::Ceilings& target,
                           double total_ns, double launch_ns, Projection& p);

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Dependent-issue latency across SM generations (docs/model.md, "Dependent-issue latency").
#pragma once

#include <optional>
#include <string>

#include "config/ceilings.hpp"
#include "model/profile/analysis.hpp"
#include "model/profile/profile.hpp"
#include "model/projection/resource_times.hpp"

namespace irf::model {

/// The cycles a warp waits before it can issue an instruction that depends on the arithmetic
/// one before it, on a GPU of compute capability `cc`, where a microbenchmark measured it: cc 3.x
/// (Kepler) 9, cc 5.x and 6.x (Maxwell, Pascal) 6, cc 7.x (Volta, Turing) 4 (the measurements
/// docs/model.md, "Dependent-issue latency", cites). nullopt for the others.
[[nodiscard]] std::optional<double> dependent_issue_latency_cycles(const std::string& cc);

/// When `p`'s point is still a resource ratio's, the source is bound on the SM side (issue,
/// FLOPs, L1) and both GPUs have a dependent-issue latency and they differ: the share of a
/// launch its busiest resource explains (`u`, at most 1) moves by the resource ratio, the rest,
/// the warps' waits on dependent instructions, by the SMs x sustained clocks and the latencies
/// in cycles, so t = total x (u x point / total + (1 - u) x SMs_s clock_s latency_t / (SMs_t
/// clock_t latency_s)) (point_method "issue-latency", a note; the interval holds the ratio's
/// point too). `sampled_ns` covers the profiled launches (LaunchBusy).
void apply_issue_latency(const KernelRecord& kernel, const config::Ceilings& source,
                         const config::Ceilings& target, const ResourceArray& source_times,
                         const ResourceArray& target_times, double sampled_ns, double total_ns,
                         Projection& p);

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Writers of roofline scaling trajectories: the irf.trajectory/v1 JSON (docs/output-schema.md) and
// a text table for people.
#pragma once

#include <string>
#include <vector>

#include "model/projection/trajectory.hpp"

namespace irf::model {

/// The irf.trajectory/v1 document: {"schema", "sms", "ceilings" {warp_gips, gtxn_per_s,
/// gflops} (the whole GPU's, for figures), "kernels": [{name, mangled, points: [{sms, time_ns,
/// gips_warp, gflops, ii, ai, ceiling_gips, counters_sms}], verdict}]}; absent values as null.
[[nodiscard]] std::string dump_trajectories(const std::vector<KernelTrajectory>& kernels,
                                            const CeilingsUsed& ceilings, int total_sms);

/// One row per kernel and point (SMs, time, GIPS, ceiling, HBM intensity) under the kernel's
/// verdict line; kernels in the given order, at most `top` of them.
[[nodiscard]] std::string trajectory_table(const std::vector<KernelTrajectory>& kernels,
                                           std::size_t top);

} // namespace irf::model

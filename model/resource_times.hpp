// SPDX-License-Identifier: Apache-2.0
// Time a kernel needs from each resource of a GPU at its peak: the issue slots, the FLOP units of
// each precision and the memory levels (docs/model.md: HRM Eq. 2-4; PROJ Eq. 2-4; IRM Eq. 2). The
// slowest resource binds the kernel.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/ceilings.hpp"
#include "model/profile.hpp"

namespace irf::model {

/// Names of the resources, in tie-break order (issue first, as in irm.bound).
inline constexpr const char* k_resources[] = {"issue", "flops", "l1", "l2", "hbm"};

/// Per-resource times in ns on one GPU. A resource is absent (nullopt) when a counter or a
/// ceiling it needs is unknown; 0 when the kernel does not use it.
struct ResourceTimes {
    std::map<std::string, std::optional<double>> ns; ///< keys of k_resources
    std::map<std::string, double> flops_ns;          ///< the terms of the FLOP sum, per precision
    std::vector<std::string> unknown;                ///< "flops: no fp64_fma ceiling", ...
};

/// What the resource times read from a kernel's counters, read once per kernel so that each GPU
/// it is timed on costs arithmetic only (14 targets read them 28 times: docs/performance.md,
/// "Tools on 100,000 kernels"). Holds `counters` by pointer: they must outlive it.
struct KernelWork {
    const Counters* counters = nullptr;  ///< for the FMA-mix ceilings of each GPU
    std::optional<double> inst_warp;     ///< warp instructions
    std::map<std::string, double> mix;   ///< issue_mix: the shares the pipe ceilings apply to
    std::map<std::string, double> flops; ///< flops_by_precision
    bool unmeasured_tensor = false;      ///< tensor instructions without tensor_ops_* counters
    std::optional<double> l1_sectors;    ///< instruction_roofline.hpp's l1_sectors
    std::optional<double> shared_wavefronts;
    std::optional<double> l2_transactions; ///< 32-byte sectors
    std::optional<double> hbm_transactions;
};

/// The work of a kernel with these counters and instruction mix (the analysis's, empty without).
[[nodiscard]] KernelWork kernel_work(const Counters& counters,
                                     const std::map<std::string, double>& mix = {});

/// The ceiling in GFLOP/s a precision's FLOPs run at on `ceilings`: Perf_ceil = active share x
/// Perf_mix (projection Eq. 2-3; fp_ceiling_share: the FP pipe's share, else `predication`) for
/// fp64/fp32/fp16, the dense tensor TFLOP/s x 1e3 for tensor_<type>. nullopt when unknown.
[[nodiscard]] std::optional<double> precision_ceiling_gflops(const Counters& counters,
                                                             const config::Ceilings& ceilings,
                                                             const std::string& precision,
                                                             double predication);

/// The pipe a precision's FLOPs run on: "fp64", "fma" (fp32 and fp16) or "tensor" (every
/// tensor_<type>).
[[nodiscard]] std::string flop_pipe(const std::string& precision);

/// Compute time = the longest over pipes of the sum of FLOPs_p / Perf_p of its precisions
/// (hierarchical Eq. 2-3, one roofline per precision; the FP64, FMA and tensor pipes run at
/// once). nullopt, with the reason in `unknown`, when a precision with FLOPs has no ceiling.
[[nodiscard]] std::optional<double>
flop_time_ns(const KernelWork& work, const config::Ceilings& ceilings, double predication,
             std::map<std::string, double>& terms, std::vector<std::string>& unknown);

/// All resource times of a kernel on a GPU: issue = inst_warp / peak warp GIPS (instruction-
/// roofline Eq. 2), or over the issue ceiling of `mix` when it is known (mix_issue_ceiling; the
/// analysis's instruction_mix, empty without one), flops = flop_time_ns, and each memory level =
/// its 32-byte transactions x 32 / the level's GB/s (the same transactions as the Instruction
/// Roofline's intensities).
[[nodiscard]] ResourceTimes resource_times(const KernelWork& work, const config::Ceilings& ceilings,
                                           double predication);

/// resource_times of kernel_work(counters, mix).
[[nodiscard]] ResourceTimes resource_times(const Counters& counters,
                                           const config::Ceilings& ceilings, double predication,
                                           const std::map<std::string, double>& mix = {});

/// The resource with the longest time, or "" when an unknown resource could be longer.
[[nodiscard]] std::string binding_resource(const ResourceTimes& times);

/// The longest known time (0 when none is known).
[[nodiscard]] double longest_time_ns(const ResourceTimes& times);

} // namespace irf::model

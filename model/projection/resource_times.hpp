// SPDX-License-Identifier: Apache-2.0
// Time a kernel needs from each resource of a GPU at its peak: the issue slots, the FLOP units of
// each precision and the memory levels (docs/model.md: HRM Eq. 2-4; PROJ Eq. 2-4; IRM Eq. 2). The
// slowest resource binds the kernel.
#pragma once

#include <array>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/ceilings.hpp"
#include "model/profile/profile.hpp"
#include "model/roofline/datapath_issue.hpp"
#include "model/roofline/flop_roofline.hpp"

namespace irf::model {

/// Names of the resources, in tie-break order (issue first, as in irm.bound).
inline constexpr const char* k_resources[] = {"issue", "flops", "l1", "l2", "hbm"};

/// Positions in k_resources (and in ResourceArray::ns).
enum ResourceIndex : std::size_t { k_issue, k_flops, k_l1, k_l2, k_hbm };

/// Per-resource times in ns on one GPU. A resource is absent (nullopt) when a counter or a
/// ceiling it needs is unknown; 0 when the kernel does not use it.
struct ResourceTimes {
    std::map<std::string, std::optional<double>> ns; ///< keys of k_resources
    std::map<std::string, double> flops_ns;          ///< the terms of the FLOP sum, per precision
    std::vector<std::string> unknown;                ///< "flops: no fp64_fma ceiling", ...
};

/// resource_times' times by index into k_resources, without the maps: a projection makes two per
/// target, 140,000 for 5,000 kernels on 14 targets (docs/performance.md, "Tools on 100,000
/// kernels").
struct ResourceArray {
    std::array<std::optional<double>, std::size(k_resources)> ns;
    std::vector<std::string> unknown; ///< as ResourceTimes::unknown
};

/// One precision's FLOPs and what its ceiling on each GPU reads from the counters.
struct FlopTerm {
    std::string precision; ///< a key of flops_by_precision
    double flops = 0;
    int pipe = 0; ///< index of flop_pipe(precision) among fp64, fma, tensor
    /// fp64/fp32/fp16: the FP thread counters (fma_counts) and the pipe's active share
    /// (fp_active_share); absent for tensor_<type>.
    std::optional<FmaCounts> fma;
    std::optional<double> active_share;
};

/// What the resource times read from a kernel's counters, read once per kernel so that each GPU
/// it is timed on costs arithmetic only (14 targets read them 28 times: docs/performance.md,
/// "Tools on 100,000 kernels"). Holds `counters` by pointer: they must outlive it.
struct KernelWork {
    const Counters* counters = nullptr; ///< the counters it was read from
    std::optional<double> inst_warp;    ///< warp instructions
    std::map<std::string, double> mix;  ///< issue_mix: the shares the pipe ceilings apply to
    /// mix's share of each class of pipe_of_class(), in its order (0 when absent): the issue
    /// ceiling of each GPU without a map look-up per class.
    std::array<double, 5> class_shares{};
    /// The SASS-class shares the datapath model schedules (datapath_issue.hpp); used instead of
    /// the pipe ceilings on a GPU whose ceilings describe its datapaths.
    std::optional<DatapathShares> datapath_shares;
    std::map<std::string, double> flops; ///< flops_by_precision
    std::vector<FlopTerm> flop_terms;    ///< flops' precisions with FLOPs > 0, in its order
    bool unmeasured_tensor = false;      ///< tensor instructions without tensor_ops_* counters
    std::optional<double> l1_sectors;    ///< instruction_roofline.hpp's l1_sectors
    std::optional<double> shared_wavefronts;
    std::optional<double> l2_transactions; ///< 32-byte sectors
    std::optional<double> hbm_transactions;
};

/// The work of a kernel with these counters and instruction mix (the analysis's, empty without).
[[nodiscard]] KernelWork kernel_work(const Counters& counters,
                                     const std::map<std::string, double>& mix = {});

/// Compute time = the longest over pipes of the sum of FLOPs_p / Perf_p of its precisions
/// (hierarchical Eq. 2-3, one roofline per precision; the FP64, FMA and tensor pipes run at
/// once). nullopt, with the reason in `unknown`, when a precision with FLOPs has no ceiling.
[[nodiscard]] std::optional<double>
flop_time_ns(const KernelWork& work, const config::Ceilings& ceilings, double predication,
             std::map<std::string, double>& terms, std::vector<std::string>& unknown);

/// All resource times of a kernel on a GPU: issue = inst_warp / peak warp GIPS (instruction-
/// roofline Eq. 2), or over the issue ceiling of the mix when it is known: on the GPU's datapaths
/// when its ceilings have them (datapath_issue_ceiling), else mix_issue_ceiling of `mix` (the
/// analysis's instruction_mix, empty without one), flops = flop_time_ns, and each memory level =
/// its 32-byte transactions x 32 / the level's GB/s (the same transactions as the Instruction
/// Roofline's intensities).
[[nodiscard]] ResourceTimes resource_times(const KernelWork& work, const config::Ceilings& ceilings,
                                           double predication);

/// resource_times as a ResourceArray (the same times and unknowns, no FLOP terms).
[[nodiscard]] ResourceArray resource_array(const KernelWork& work, const config::Ceilings& ceilings,
                                           double predication);

/// resource_times of kernel_work(counters, mix).
[[nodiscard]] ResourceTimes resource_times(const Counters& counters,
                                           const config::Ceilings& ceilings, double predication,
                                           const std::map<std::string, double>& mix = {});

/// The resource with the longest time, or "" when an unknown resource could be longer.
[[nodiscard]] std::string binding_resource(const ResourceTimes& times);

/// binding_resource of the same times.
[[nodiscard]] std::string binding_resource(const ResourceArray& times);

/// Divides the SM-side times of `times` (issue, FLOPs, L1) by `fill`, the share of the SMs'
/// time the grid keeps busy (docs/model.md, "Waves"); memory levels beyond the SM keep theirs.
void divide_sm_side(ResourceArray& times, double fill) noexcept;

/// Whether `resource` (a binding_resource name) is a memory level: "l1", "l2" or "hbm".
[[nodiscard]] bool memory_level(const std::string& resource) noexcept;

/// The longest known time (0 when none is known).
[[nodiscard]] double longest_time_ns(const ResourceArray& times);

/// The known times by resource name (the keys of ResourceTimes::ns that hold a value).
[[nodiscard]] std::map<std::string, double> known_times(const ResourceArray& times);

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Time a kernel needs from each resource of a GPU (docs/model.md: HRM Eq. 2-4;
// PROJ Eq. 2-4; IRM Eq. 2).
#include "model/resource_times.hpp"

#include <algorithm>

#include "model/counters.hpp"
#include "model/flop_roofline.hpp"
#include "model/instruction_roofline.hpp"
#include "model/kernel_ceilings.hpp"
#include "model/pipe_ceilings.hpp"
#include "model/predication.hpp"
#include "model/projection.hpp"

namespace irf::model {

namespace {

const char* const s_tensor_prefix = "tensor_";

// Time of `transactions` 32-byte transactions at `gbs`; nullopt when either is unknown.
std::optional<double> level_time(std::optional<double> transactions,
                                 const std::optional<config::Quantity>& gbs) {
    if (!transactions) {
        return std::nullopt;
    }
    if (*transactions <= 0) {
        return 0.0;
    }
    if (!gbs || gbs->value <= 0) {
        return std::nullopt;
    }
    return *transactions * 32.0 / gbs->value; // bytes / (1e9 B/s) = ns
}

// The L1/shared data path: sectors at the L1 rate plus 128-byte wavefronts at the shared rate
// (IRM's combined "global + 4 x shared" transactions assume the two rates equal, true on GV100
// but not on cc 8.6/8.9, where shared moves 128 B/clk and L1 64). Shared falls back to L1.
std::optional<double> l1_time(const KernelWork& work, const config::Ceilings& ceilings) {
    const auto sectors = level_time(work.l1_sectors, ceilings.l1_gbs);
    const auto& wavefronts = work.shared_wavefronts;
    const auto shared =
        level_time(wavefronts ? std::optional<double>(*wavefronts * 4.0) : std::nullopt,
                   ceilings.shared_gbs ? ceilings.shared_gbs : ceilings.l1_gbs);
    if (!sectors || !shared) {
        return std::nullopt;
    }
    return *sectors + *shared;
}

// Tensor work was seen but not measured (docs/metrics.md: the tensor_types group collects the
// ops).
bool tensor_unmeasured(const Counters& counters, const std::map<std::string, double>& flops) {
    double tensor_flops = 0;
    for (const auto& [precision, n] : flops) {
        tensor_flops += precision.rfind(s_tensor_prefix, 0) == 0 ? n : 0.0;
    }
    return issues_tensor_math(counters) && !(tensor_flops > 0);
}

} // namespace

std::string flop_pipe(const std::string& precision) {
    if (precision.rfind(s_tensor_prefix, 0) == 0) {
        return "tensor";
    }
    return precision == "fp64" ? "fp64" : "fma"; // FP32 and FP16 (HFMA2) share the FMA pipe
}

std::optional<double> precision_ceiling_gflops(const Counters& counters,
                                               const config::Ceilings& ceilings,
                                               const std::string& precision, double predication) {
    if (precision.rfind(s_tensor_prefix, 0) == 0) {
        const auto it = ceilings.tensor_tflops.find(precision.substr(7));
        if (it == ceilings.tensor_tflops.end() || it->second.value <= 0) {
            return std::nullopt;
        }
        return it->second.value * 1e3; // TFLOP/s -> GFLOP/s
    }
    const auto mix = fma_mix_ceiling(counters, ceilings, precision);
    if (!mix || !(*mix > 0)) {
        return std::nullopt;
    }
    // Projection Eq. 3 with the FP pipe's own active share when measured (docs/model.md).
    return perf_ceil(fp_ceiling_share(counters, precision, predication), *mix);
}

KernelWork kernel_work(const Counters& counters, const std::map<std::string, double>& mix) {
    KernelWork w;
    w.counters = &counters;
    w.inst_warp = counter(counters, "inst_warp");
    w.mix = issue_mix(counters, mix);
    w.flops = flops_by_precision(counters);
    w.unmeasured_tensor = tensor_unmeasured(counters, w.flops);
    w.l1_sectors = l1_sectors(counters);
    w.shared_wavefronts = shared_wavefronts(counters);
    w.l2_transactions = l2_transactions(counters);
    w.hbm_transactions = hbm_transactions(counters);
    return w;
}

std::optional<double> flop_time_ns(const KernelWork& work, const config::Ceilings& ceilings,
                                   double predication, std::map<std::string, double>& terms,
                                   std::vector<std::string>& unknown) {
    bool complete = true;
    if (work.unmeasured_tensor) {
        // Its time is unknown, so the bound is undecided and the projection says so with low
        // confidence.
        unknown.push_back("flops: tensor instructions without tensor_ops_* counters");
        complete = false;
    }
    std::map<std::string, double> per_pipe; // the pipes run concurrently, their precisions not
    for (const auto& [precision, n] : work.flops) {
        if (!(n > 0)) {
            continue;
        }
        const auto ceiling =
            precision_ceiling_gflops(*work.counters, ceilings, precision, predication);
        if (!ceiling) {
            unknown.push_back("flops: no " + precision + " ceiling");
            complete = false;
            continue;
        }
        terms[precision] = n / *ceiling; // FLOPs / (FLOPs per ns)
        per_pipe[flop_pipe(precision)] += terms[precision];
    }
    if (!complete) {
        return std::nullopt;
    }
    double longest = 0;
    for (const auto& [pipe, ns] : per_pipe) {
        longest = std::max(longest, ns);
    }
    return longest;
}

ResourceTimes resource_times(const KernelWork& work, const config::Ceilings& ceilings,
                             double predication) {
    ResourceTimes t;
    const auto& inst = work.inst_warp;
    // With the instruction mix, the busiest pipe may cap the issue rate below the schedulers'
    // (docs/model.md, "Pipe sub-ceilings").
    const double gips =
        mix_issue_ceiling(work.mix, warp_gips_of(ceilings), pipe_peaks(ceilings)).first;
    t.ns["issue"] = inst && gips > 0 ? std::optional<double>(*inst / gips) : std::nullopt;
    t.ns["flops"] = flop_time_ns(work, ceilings, predication, t.flops_ns, t.unknown);
    t.ns["l1"] = l1_time(work, ceilings);
    t.ns["l2"] = level_time(work.l2_transactions, ceilings.l2_gbs);
    t.ns["hbm"] = level_time(work.hbm_transactions, ceilings.hbm_gbs);
    for (const char* r : {"issue", "l1", "l2", "hbm"}) {
        if (!t.ns[r]) {
            t.unknown.push_back(std::string(r) + ": counters or ceiling unknown");
        }
    }
    return t;
}

ResourceTimes resource_times(const Counters& counters, const config::Ceilings& ceilings,
                             double predication, const std::map<std::string, double>& mix) {
    return resource_times(kernel_work(counters, mix), ceilings, predication);
}

double longest_time_ns(const ResourceTimes& times) {
    double longest = 0;
    for (const auto& [name, v] : times.ns) {
        if (v) {
            longest = std::max(longest, *v);
        }
    }
    return longest;
}

std::string binding_resource(const ResourceTimes& times) {
    if (!times.unknown.empty()) {
        return "";
    }
    std::string bound;
    double longest = -1;
    for (const char* r : k_resources) {
        const auto it = times.ns.find(r);
        if (it != times.ns.end() && it->second && *it->second > longest) {
            longest = *it->second;
            bound = r;
        }
    }
    return bound;
}

} // namespace irf::model

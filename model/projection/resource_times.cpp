// SPDX-License-Identifier: Apache-2.0
// Time a kernel needs from each resource of a GPU (docs/model.md: HRM Eq. 2-4;
// PROJ Eq. 2-4; IRM Eq. 2).
#include "model/projection/resource_times.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <utility>

#include "model/projection/projection.hpp"
#include "model/roofline/counters.hpp"
#include "model/roofline/flop_roofline.hpp"
#include "model/roofline/instruction_roofline.hpp"
#include "model/roofline/kernel_ceilings.hpp"
#include "model/roofline/pipe_ceilings.hpp"
#include "model/roofline/predication.hpp"

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

// The FP pipes of flop_pipe, by FlopTerm::pipe.
constexpr std::array<const char*, 3> s_flop_pipes{{"fp64", "fma", "tensor"}};

// precision_ceiling_gflops from the counters `term` holds (the same value).
std::optional<double> term_ceiling_gflops(const FlopTerm& term, const config::Ceilings& ceilings,
                                          double predication) {
    if (!term.fma) { // tensor_<type>: its ceiling reads no counter
        return precision_ceiling_gflops(Counters{}, ceilings, term.precision, predication);
    }
    const auto mix = fma_mix_ceiling(*term.fma, ceilings, term.precision);
    if (!mix || !(*mix > 0)) {
        return std::nullopt;
    }
    return perf_ceil(term.active_share.value_or(predication), *mix);
}

// mix_issue_ceiling(work.mix, warp_gips_of(c), pipe_peaks(c)).first without building the peaks'
// map: the same minimum over the same quotients (their order cannot change a minimum).
double issue_ceiling(const KernelWork& work, const config::Ceilings& c) {
    if (!c.datapaths.empty() && work.datapath_shares) { // docs/model.md, "Datapaths"
        return datapath_issue_ceiling(*work.datapath_shares, warp_gips_of(c), c.datapaths);
    }
    double ceiling = warp_gips_of(c);
    const auto& pipes = pipe_of_class();
    for (std::size_t i = 0; i < work.class_shares.size() && i < pipes.size(); ++i) {
        const double share = work.class_shares[i];
        const auto peak = c.pipe_gips.find(pipes[i].second);
        if (!(share > 0) || peak == c.pipe_gips.end() || !(peak->second.value > 0)) {
            continue;
        }
        if (peak->second.value / share < ceiling) {
            ceiling = peak->second.value / share;
        }
    }
    return ceiling;
}

} // namespace

KernelWork kernel_work(const Counters& counters, const std::map<std::string, double>& mix) {
    KernelWork w;
    w.counters = &counters;
    w.inst_warp = counter(counters, "inst_warp");
    w.mix = issue_mix(counters, mix);
    const auto& pipes = pipe_of_class();
    for (std::size_t i = 0; i < w.class_shares.size() && i < pipes.size(); ++i) {
        const auto share = w.mix.find(pipes[i].first);
        w.class_shares[i] = share == w.mix.end() ? 0.0 : share->second;
    }
    w.datapath_shares = datapath_shares(counters);
    w.flops = flops_by_precision(counters);
    for (const auto& [precision, n] : w.flops) {
        if (!(n > 0)) {
            continue;
        }
        FlopTerm term;
        term.precision = precision;
        term.flops = n;
        const std::string pipe = flop_pipe(precision);
        term.pipe = static_cast<int>(std::find(s_flop_pipes.begin(), s_flop_pipes.end(), pipe) -
                                     s_flop_pipes.begin());
        if (precision.rfind(s_tensor_prefix, 0) != 0) {
            term.fma = fma_counts(counters, precision);
            term.active_share = fp_active_share(counters, precision);
        }
        w.flop_terms.push_back(std::move(term));
    }
    w.unmeasured_tensor = tensor_unmeasured(counters, w.flops);
    w.l1_sectors = l1_sectors(counters);
    w.shared_wavefronts = shared_wavefronts(counters);
    w.l2_transactions = l2_transactions(counters);
    w.hbm_transactions = hbm_transactions(counters);
    return w;
}

namespace {

// flop_time_ns, its terms kept only when `terms` is set.
std::optional<double> flop_time(const KernelWork& work, const config::Ceilings& ceilings,
                                double predication, std::map<std::string, double>* terms,
                                std::vector<std::string>& unknown) {
    bool complete = true;
    if (work.unmeasured_tensor) {
        // Its time is unknown, so the bound is undecided and the projection says so with low
        // confidence.
        unknown.push_back("flops: tensor instructions without tensor_ops_* counters");
        complete = false;
    }
    std::array<double, s_flop_pipes.size()> per_pipe{}; // the pipes run concurrently, their
                                                        // precisions not
    for (const FlopTerm& term : work.flop_terms) {
        const auto ceiling = term_ceiling_gflops(term, ceilings, predication);
        if (!ceiling) {
            unknown.push_back("flops: no " + term.precision + " ceiling");
            complete = false;
            continue;
        }
        const double ns = term.flops / *ceiling; // FLOPs / (FLOPs per ns)
        if (terms != nullptr) {
            (*terms)[term.precision] = ns;
        }
        per_pipe[static_cast<std::size_t>(term.pipe)] += ns;
    }
    if (!complete) {
        return std::nullopt;
    }
    double longest = 0;
    for (const double ns : per_pipe) {
        longest = std::max(longest, ns);
    }
    return longest;
}

// The times in k_resources' order; the FLOP terms go to `terms` when set.
ResourceArray times_of(const KernelWork& work, const config::Ceilings& ceilings, double predication,
                       std::map<std::string, double>* terms) {
    ResourceArray t;
    const auto& inst = work.inst_warp;
    // With the instruction mix, the busiest pipe may cap the issue rate below the schedulers'
    // (docs/model.md, "Pipe sub-ceilings").
    const double gips = issue_ceiling(work, ceilings);
    t.ns[k_issue] = inst && gips > 0 ? std::optional<double>(*inst / gips) : std::nullopt;
    t.ns[k_flops] = flop_time(work, ceilings, predication, terms, t.unknown);
    t.ns[k_l1] = l1_time(work, ceilings);
    t.ns[k_l2] = level_time(work.l2_transactions, ceilings.l2_gbs);
    t.ns[k_hbm] = level_time(work.hbm_transactions, ceilings.hbm_gbs);
    for (const std::size_t r : {k_issue, k_l1, k_l2, k_hbm}) {
        if (!t.ns[r]) {
            t.unknown.push_back(std::string(k_resources[r]) + ": counters or ceiling unknown");
        }
    }
    return t;
}

} // namespace

std::optional<double> flop_time_ns(const KernelWork& work, const config::Ceilings& ceilings,
                                   double predication, std::map<std::string, double>& terms,
                                   std::vector<std::string>& unknown) {
    return flop_time(work, ceilings, predication, &terms, unknown);
}

ResourceTimes resource_times(const KernelWork& work, const config::Ceilings& ceilings,
                             double predication) {
    ResourceTimes t;
    ResourceArray a = times_of(work, ceilings, predication, &t.flops_ns);
    for (std::size_t r = 0; r < a.ns.size(); ++r) {
        t.ns[k_resources[r]] = a.ns[r];
    }
    t.unknown = std::move(a.unknown);
    return t;
}

ResourceArray resource_array(const KernelWork& work, const config::Ceilings& ceilings,
                             double predication) {
    return times_of(work, ceilings, predication, nullptr);
}

ResourceTimes resource_times(const Counters& counters, const config::Ceilings& ceilings,
                             double predication, const std::map<std::string, double>& mix) {
    return resource_times(kernel_work(counters, mix), ceilings, predication);
}

void divide_sm_side(ResourceArray& times, double fill) noexcept {
    for (const std::size_t resource : {k_issue, k_flops, k_l1}) {
        if (auto& v = times.ns[resource]) {
            *v /= fill;
        }
    }
}

bool memory_level(const std::string& resource) noexcept {
    return resource == "l1" || resource == "l2" || resource == "hbm";
}

double longest_time_ns(const ResourceArray& times) {
    double longest = 0;
    for (const auto& v : times.ns) {
        if (v) {
            longest = std::max(longest, *v);
        }
    }
    return longest;
}

std::string binding_resource(const ResourceTimes& times) {
    ResourceArray a;
    for (std::size_t r = 0; r < a.ns.size(); ++r) {
        if (const auto it = times.ns.find(k_resources[r]); it != times.ns.end()) {
            a.ns[r] = it->second;
        }
    }
    a.unknown = times.unknown;
    return binding_resource(a);
}

std::string binding_resource(const ResourceArray& times) {
    if (!times.unknown.empty()) {
        return "";
    }
    std::string bound;
    double longest = -1;
    for (std::size_t r = 0; r < times.ns.size(); ++r) {
        if (times.ns[r] && *times.ns[r] > longest) {
            longest = *times.ns[r];
            bound = k_resources[r];
        }
    }
    return bound;
}

std::map<std::string, double> known_times(const ResourceArray& times) {
    std::map<std::string, double> out;
    for (std::size_t r = 0; r < times.ns.size(); ++r) {
        if (times.ns[r]) {
            out.emplace(k_resources[r], *times.ns[r]);
        }
    }
    return out;
}

} // namespace irf::model

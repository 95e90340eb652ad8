// SPDX-License-Identifier: Apache-2.0
// Kernel-specific ceilings (docs/model.md: PROJ section 2, Eq. 1 and 3-8).
#include "model/roofline/kernel_ceilings.hpp"

#include <algorithm>

#include "model/roofline/counters.hpp"
#include "model/roofline/flop_roofline.hpp"
#include "model/roofline/instruction_roofline.hpp"
#include "model/roofline/predication.hpp"

namespace irf::model {

std::optional<LevelBytes> level_bytes(const Counters& counters) {
    const auto l1 = l1_sectors(counters);
    const auto shared = shared_wavefronts(counters);
    const auto l2 = counter_sum(
        counters, {"l2_sectors_read", "l2_sectors_write", "l2_sectors_atom", "l2_sectors_red"});
    const auto dram = counter_sum(counters, {"dram_sectors_read", "dram_sectors_write"});
    if (!l1 || !shared || !l2 || !dram) {
        return std::nullopt;
    }
    LevelBytes b;
    b.l1 = std::max(0.0, *l1 - *l2) * 32.0;
    b.shared = *shared * 128.0;
    b.l2 = std::max(0.0, *l2 - *dram) * 32.0;
    b.hbm = *dram * 32.0;
    return b;
}

Bandwidths bandwidths(const config::Ceilings& ceilings) {
    const auto value = [](const std::optional<config::Quantity>& q) {
        return q && q->value > 0 ? std::optional<double>(q->value) : std::nullopt;
    };
    Bandwidths bw{value(ceilings.l1_gbs), value(ceilings.shared_gbs), value(ceilings.l2_gbs),
                  value(ceilings.hbm_gbs)};
    if (!bw.shared) {
        bw.shared = bw.l1;
    }
    return bw;
}

double roofline(double oi, double bandwidth, double perf) {
    return std::min(bandwidth * oi, perf); // Eq. 1
}

double perf_ceil(double warp_usage, double perf_mix) {
    return warp_usage * perf_mix; // Eq. 3
}

std::optional<double> transfer_time_ns(double bytes, std::optional<double> gbs) {
    if (bytes <= 0) {
        return 0.0;
    }
    if (!gbs || *gbs <= 0) {
        return std::nullopt;
    }
    return bytes / *gbs; // Eq. 4: bytes / (1e9 B/s) = ns
}

std::optional<double> shared_time_ns(double wavefronts, std::optional<double> gbs) {
    return transfer_time_ns(wavefronts * 128.0, gbs); // Eq. 5
}

BandwidthCeilings bandwidth_ceilings(const LevelBytes& bytes, const Bandwidths& bw) {
    BandwidthCeilings c;
    const auto t_l1 = transfer_time_ns(bytes.l1, bw.l1);
    const auto t_sh = transfer_time_ns(bytes.shared, bw.shared);
    const auto t_l2 = transfer_time_ns(bytes.l2, bw.l2);
    const auto t_hbm = transfer_time_ns(bytes.hbm, bw.hbm);
    const auto set = [](std::optional<double>& b_out, std::optional<double>& g_out,
                        std::optional<double>& t_out, double n, std::optional<double> t) {
        if (n > 0 && t && *t > 0) {
            b_out = n;
            t_out = *t;
            g_out = n / *t;
        }
    };
    // Eq. 8
    set(c.bytes.hbm, c.gbs.hbm, c.time_ns.hbm, bytes.hbm, t_hbm);
    // Eq. 7
    if (t_l2 && t_hbm) {
        set(c.bytes.l2, c.gbs.l2, c.time_ns.l2, bytes.l2 + bytes.hbm, *t_l2 + *t_hbm);
    }
    // Eq. 6
    if (t_l1 && t_sh && t_l2 && t_hbm) {
        set(c.bytes.l1, c.gbs.l1, c.time_ns.l1, bytes.l1 + bytes.shared + bytes.l2 + bytes.hbm,
            *t_l1 + *t_sh + *t_l2 + *t_hbm);
    }
    return c;
}

std::map<std::string, double> kernel_ceilings(const Counters& counters,
                                              const config::Ceilings& ceilings,
                                              const KernelAnalysis& analysis) {
    std::map<std::string, double> out;
    if (analysis.flops && !analysis.flops->precision.empty()) {
        if (const auto mix = fma_mix_ceiling(counters, ceilings, analysis.flops->precision)) {
            out["perf_mix_gflops"] = *mix;
            // Eq. 3 with the active share of the FP pipe the precision issues on when
            // pipe_mix measured it, else the kernel-wide predication (docs/model.md).
            const auto fp_share = fp_active_share(counters, analysis.flops->precision);
            if (const auto share = fp_share ? fp_share : analysis.predication) {
                out["perf_ceil_gflops"] = perf_ceil(*share, *mix);
            }
        }
    }
    const auto bytes = level_bytes(counters);
    if (!bytes) {
        return out;
    }
    const Bandwidths bw = bandwidths(ceilings);
    const auto put = [&out](const char* key, std::optional<double> v) {
        if (v) {
            out[key] = *v;
        }
    };
    put("t_l1_ns", transfer_time_ns(bytes->l1, bw.l1));
    put("t_shared_ns", transfer_time_ns(bytes->shared, bw.shared));
    put("t_l2_ns", transfer_time_ns(bytes->l2, bw.l2));
    put("t_hbm_ns", transfer_time_ns(bytes->hbm, bw.hbm));
    const BandwidthCeilings c = bandwidth_ceilings(*bytes, bw);
    put("bw_ceil_l1_gbs", c.gbs.l1);
    put("bw_ceil_l2_gbs", c.gbs.l2);
    put("bw_ceil_hbm_gbs", c.gbs.hbm);
    return out;
}

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// Made-up but plausible ceilings for the tools' synthetic test profiles (H100-like source, two
// projection targets). Spec-sheet-like round numbers; not the shipped database.
#pragma once

#include <utility>
#include <vector>

#include "config/ceilings.hpp"

namespace irf::test {

/// A ceilings entry with the values the model reads (GB/s, GFLOP/s, dense tensor TFLOP/s).
inline config::Ceilings tools_ceilings(const char* key, int sms, double clock_mhz, double l1_gbs,
                                       double l2_gbs, double hbm_gbs, double fp64_fma,
                                       double fp32_fma, double tensor_fp16_tflops,
                                       std::uint64_t l2_bytes) {
    config::Ceilings c;
    c.gpu.key = key;
    c.gpu.name = key;
    c.gpu.sms = sms;
    c.gpu.schedulers_per_sm = 4;
    c.gpu.boost_clock_mhz = clock_mhz;
    c.gpu.l2_bytes = l2_bytes;
    c.source = std::string("test:") + key;
    const auto q = [](double v, const char* unit) {
        config::Quantity out;
        out.value = v;
        out.unit = unit;
        return out;
    };
    c.warp_gips = q(sms * 4 * clock_mhz / 1000.0, "warp-GIPS");
    c.l1_gbs = q(l1_gbs, "GB/s");
    c.shared_gbs = q(l1_gbs, "GB/s");
    c.l2_gbs = q(l2_gbs, "GB/s");
    c.hbm_gbs = q(hbm_gbs, "GB/s");
    c.gflops["fp64_fma"] = q(fp64_fma, "GFLOP/s");
    c.gflops["fp64_nofma"] = q(fp64_fma / 2, "GFLOP/s");
    c.gflops["fp32_fma"] = q(fp32_fma, "GFLOP/s");
    c.gflops["fp32_nofma"] = q(fp32_fma / 2, "GFLOP/s");
    c.gflops["fp16_fma"] = q(fp32_fma * 2, "GFLOP/s");
    c.gflops["fp16_nofma"] = q(fp32_fma, "GFLOP/s");
    c.tensor_tflops["fp16"] = q(tensor_fp16_tflops, "TFLOP/s");
    return c;
}

/// `c` with pipe peaks in warp GIPS (SMs x warp instructions per clock per SM x clock), as the
/// shipped entries state them: INT32 2, LD/ST 1 and FP16 4 per clock on every GPU here; FP32 and
/// FP64 as given (4 and 2 on H100 and B200, 2 and 1 on A100).
inline config::Ceilings with_pipes(config::Ceilings c, double fp32_per_clock,
                                   double fp64_per_clock) {
    const double ghz_sms = c.gpu.sms * c.gpu.boost_clock_mhz / 1000.0;
    for (const auto& [pipe, per_clock] : {std::pair<const char*, double>{"int32", 2.0},
                                          {"lsu", 1.0},
                                          {"fp16", 4.0},
                                          {"fp32", fp32_per_clock},
                                          {"fp64", fp64_per_clock}}) {
        c.pipe_gips[pipe].value = ghz_sms * per_clock;
        c.pipe_gips[pipe].unit = "warp-GIPS";
    }
    return c;
}

/// The GPU the synthetic profiles were "recorded" on.
inline config::Ceilings tools_source_ceilings() {
    return with_pipes(
        tools_ceilings("h100-test", 132, 1980, 33450, 10000, 3350, 66900, 66900, 989, 52428800), 4,
        2);
}

/// Projection targets of the synthetic profiles.
inline std::vector<config::Ceilings> tools_target_ceilings() {
    return {with_pipes(tools_ceilings("a100-test", 108, 1410, 19400, 5000, 2039, 19500, 19500, 312,
                                      41943040),
                       2, 1),
            with_pipes(tools_ceilings("b200-test", 148, 1965, 37500, 16000, 8000, 40000, 80000,
                                      2250, 134217728),
                       4, 2)};
}

} // namespace irf::test

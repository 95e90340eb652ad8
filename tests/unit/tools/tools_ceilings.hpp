// SPDX-License-Identifier: Apache-2.0
// Made-up but plausible ceilings for the tools' synthetic test profiles (H100-like source, two
// projection targets). Spec-sheet-like round numbers; not the shipped database.
#pragma once

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

/// The GPU the synthetic profiles were "recorded" on.
inline config::Ceilings tools_source_ceilings() {
    return tools_ceilings("h100-test", 132, 1980, 33450, 10000, 3350, 66900, 66900, 989, 52428800);
}

/// Projection targets of the synthetic profiles.
inline std::vector<config::Ceilings> tools_target_ceilings() {
    return {
        tools_ceilings("a100-test", 108, 1410, 19400, 5000, 2039, 19500, 19500, 312, 41943040),
        tools_ceilings("b200-test", 148, 1965, 37500, 16000, 8000, 40000, 80000, 2250, 134217728)};
}

} // namespace irf::test

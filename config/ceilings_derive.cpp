// SPDX-License-Identifier: Apache-2.0
// derive_ceilings: ceilings from device properties and per-SM rates per compute capability,
// used only when neither a measured file nor a shipped entry describes the GPU.
#include <cstdio>

#include "config/ceilings_rules.hpp"
#include "config/ceilings_yaml.hpp"
#include "config/gpu_database.hpp"
#include "config/sm_limits.hpp"

namespace irf::config {
namespace {

/// Per-SM, per-clock rates of one compute capability (CUDA C Programming Guide throughput
/// table, cross-checked against datasheet peaks in docs/ceilings.md).
struct SmRates {
    const char* cc;
    double fp32_lanes;
    double fp64_lanes;
    double int32_lanes;
    double fp16_flops;        ///< non-tensor half2 FMA flops/clk (0 = not published)
    double tensor_fp16_flops; ///< dense FP16 tensor flops/clk with FP32 accumulate
    double l1_bytes;          ///< L1 load B/clk (64 on cc 8.6/8.9: measured, gpu-benches)
    double ldst_lanes;        ///< LD/ST units per SM (docs/ceilings.md, "LD/ST pipe")
};

constexpr SmRates k_rates[] = {
    {"7.0", 64, 32, 64, 256, 1024, 128, 32},  {"8.0", 64, 32, 64, 512, 2048, 128, 32},
    {"8.6", 128, 2, 64, 256, 1024, 64, 16},   {"8.9", 128, 2, 64, 256, 1024, 64, 16},
    {"9.0", 128, 64, 64, 512, 4096, 128, 32}, {"10.0", 128, 64, 64, 0, 8192, 128, 32},
};

constexpr const char* k_source = "irf derive_ceilings (per-SM rates per compute capability)";

Quantity derived(double sms, double per_clock, double clock_mhz, const std::string& unit,
                 const std::string& what) {
    Quantity q;
    q.unit = unit;
    q.provenance = Provenance::derived;
    q.per_sm_per_clock = per_clock;
    q.clock_mhz = clock_mhz;
    q.value = sms * per_clock * clock_mhz / rules::per_clock_scale(unit);
    q.source = k_source;
    q.method = rules::format_double(sms) + " SMs x " + rules::format_double(per_clock) + " " +
               what + "/clk/SM x " + rules::format_double(clock_mhz) + " MHz";
    return q;
}

void add_rates(Ceilings& c, const SmRates& r, double sms, double clock) {
    // A warp instruction covers 32 lanes, so a pipe with L lanes issues L/32 per clock per SM.
    c.pipe_gips["fp32"] = derived(sms, r.fp32_lanes / 32, clock, "warp-GIPS", "warp-inst");
    c.pipe_gips["fp64"] = derived(sms, r.fp64_lanes / 32, clock, "warp-GIPS", "warp-inst");
    c.pipe_gips["int32"] = derived(sms, r.int32_lanes / 32, clock, "warp-GIPS", "warp-inst");
    c.pipe_gips["lsu"] = derived(sms, r.ldst_lanes / 32, clock, "warp-GIPS", "warp-inst");
    // FMA = 2 flops per lane; FADD/FMUL issue at the same rate with 1 flop.
    c.gflops["fp32_fma"] = derived(sms, r.fp32_lanes * 2, clock, "GFLOP/s", "flop");
    c.gflops["fp32_nofma"] = derived(sms, r.fp32_lanes, clock, "GFLOP/s", "flop");
    c.gflops["fp64_fma"] = derived(sms, r.fp64_lanes * 2, clock, "GFLOP/s", "flop");
    c.gflops["fp64_nofma"] = derived(sms, r.fp64_lanes, clock, "GFLOP/s", "flop");
    if (r.fp16_flops > 0) {
        // HFMA2: a warp instruction does 32 x 2 FMAs = 128 flops.
        c.pipe_gips["fp16"] = derived(sms, r.fp16_flops / 128, clock, "warp-GIPS", "warp-inst");
        c.gflops["fp16_fma"] = derived(sms, r.fp16_flops, clock, "GFLOP/s", "flop");
        c.gflops["fp16_nofma"] = derived(sms, r.fp16_flops / 2, clock, "GFLOP/s", "flop");
    }
    c.tensor_tflops["fp16"] = derived(sms, r.tensor_fp16_flops, clock, "TFLOP/s", "flop");
    c.tensor_tflops["bf16"] = derived(sms, r.tensor_fp16_flops, clock, "TFLOP/s", "flop");
    c.l1_gbs = derived(sms, r.l1_bytes, clock, "GB/s", "B");
    // Shared memory: 32 banks x 4 B per clock on every architecture since Volta.
    c.shared_gbs = derived(sms, 128, clock, "GB/s", "B");
}

} // namespace

Ceilings derive_ceilings(const std::string& name, const std::string& chip, const std::string& cc,
                         int sms, double clock_mhz, std::uint64_t l2_bytes) {
    Ceilings c;
    c.source = "derived";
    // Files that give only a compute capability and an SM count (an ncu details page whose
    // Device column is "0") still name the GPU they describe.
    c.gpu.name = !name.empty() ? name : "cc " + cc + " GPU with " + std::to_string(sms) + " SMs";
    c.gpu.key = "derived";
    c.gpu.chip = chip;
    c.gpu.cc = cc;
    c.gpu.sms = sms;
    c.gpu.schedulers_per_sm = 4;
    c.gpu.boost_clock_mhz = clock_mhz;
    c.gpu.l2_bytes = l2_bytes;
    c.gpu.sm_limits = sm_limits_for_cc(cc); // blocks per SM and waves (docs/model.md, Waves)
    const double n = sms;
    c.warp_gips = derived(n, 4, clock_mhz, "warp-GIPS", "warp-inst");
    c.warp_gips.method += " (4 schedulers, 1 warp-inst/clk each)";
    for (const auto& r : k_rates) {
        if (cc == r.cc) {
            add_rates(c, r, n, clock_mhz);
        }
    }
    // HBM, L2 and PCIe need the memory clock, bus width and L2 slice count: left unknown.
    validate_ceilings(c, "derived:" + c.gpu.name);
    return c;
}

} // namespace irf::config

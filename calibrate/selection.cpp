// SPDX-License-Identifier: Apache-2.0
// The benchmark list and --only parsing (no CUDA: runs before any device is touched).
#include <algorithm>
#include <stdexcept>

#include "calibrate/benchmarks.hpp"
#include "config/text_list.hpp"

namespace irf::calibrate {

const std::vector<BenchmarkSpec>& benchmark_specs() {
    static const std::vector<BenchmarkSpec> specs = {
        {"issue", "compute",
         "peak warp-instruction issue rate, FFMA + IADD interleaved -> warp_gips"},
        {"fp32", "compute", "FFMA chains -> pipe_gips.fp32, gflops.fp32_fma"},
        {"fp32_add", "compute", "FADD chains -> gflops.fp32_nofma"},
        {"fp64", "compute", "DFMA chains -> pipe_gips.fp64, gflops.fp64_fma"},
        {"fp64_add", "compute", "DADD chains -> gflops.fp64_nofma"},
        {"fp16", "compute", "HFMA2 chains -> pipe_gips.fp16, gflops.fp16_fma"},
        {"fp16_add", "compute", "HADD2 chains -> gflops.fp16_nofma"},
        {"int32", "compute", "IADD chains -> pipe_gips.int32"},
        {"tensor_fp16", "tensor", "mma.sync m16n8k16 f16 -> tensor_tflops.fp16 (sm_80+)"},
        {"tensor_bf16", "tensor", "mma.sync m16n8k16 bf16 -> tensor_tflops.bf16 (sm_80+)"},
        {"tensor_tf32", "tensor", "mma.sync m16n8k8 tf32 -> tensor_tflops.tf32 (sm_80+)"},
        {"tensor_int8", "tensor", "mma.sync m16n8k32 s8 -> tensor_tflops.int8 (sm_80+)"},
        {"tensor_fp8", "tensor", "mma.sync m16n8k32 e4m3 -> tensor_tflops.fp8 (sm_89+)"},
        {"tensor_fp64", "tensor", "mma.sync m8n8k4 f64 -> tensor_tflops.fp64 (sm_80+)"},
        {"tensor_wgmma", "tensor",
         "wgmma m64n256k16 f16 -> tensor_tflops.fp16 if above mma.sync (sm_90a builds, cc 9.0)"},
        {"l1", "memory", "16 KB per-SM slice, ld.global.ca 16 B -> l1_gbs"},
        {"shared", "memory", "ld.shared 16 B and 4 B stride ladder 1..32 -> shared_gbs, details"},
        {"l2", "memory", "ld.global.cg at 0.4 x and 0.8 x L2 -> l2_gbs (near), details.l2_full"},
        {"hbm", "memory", "read, write, copy, triad over >= 8 x L2 -> hbm_gbs, details"},
        {"pcie", "link", "pinned cudaMemcpy host<->device -> pcie_gbs, details"},
    };
    return specs;
}

std::vector<std::string> select_benchmarks(const std::string& only) {
    const auto& specs = benchmark_specs();
    const bool everything = only.empty() || only == "all";
    std::vector<bool> chosen(specs.size(), everything);
    for (const std::string& item :
         everything ? std::vector<std::string>{} : config::split(only, ',')) {
        if (item.empty()) {
            continue;
        }
        bool known = false;
        for (std::size_t i = 0; i < specs.size(); ++i) {
            if (specs[i].name == item || specs[i].group == item) {
                chosen[i] = true;
                known = true;
            }
        }
        if (!known) {
            throw std::invalid_argument("--only: unknown benchmark '" + item + "' (see --list)");
        }
    }
    std::vector<std::string> names;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        if (chosen[i]) {
            names.push_back(specs[i].name);
        }
    }
    return names;
}

} // namespace irf::calibrate

// SPDX-License-Identifier: Apache-2.0
// Hand-built ceilings and counters shared by the model unit tests.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>

#include "config/ceilings.hpp"
#include "model/profile/profile.hpp"
#include "tests/support/design_counters.hpp"

namespace irf::test {

/// A ceilings value with a unit (provenance is irrelevant to the model).
inline config::Quantity qty(double value, const char* unit) {
    config::Quantity q;
    q.value = value;
    q.unit = unit;
    return q;
}

/// The seed papers' V100: 80 SMs x 4 schedulers at 1.53 GHz (warp_gips left 0 so the model
/// derives 489.6), L1/shared 14,000, L2 2,996, HBM 828 GB/s, FP64/32/16 FMA 7,800/15,700/31,400
/// GFLOP/s, FP16 tensor 125 TFLOP/s, 6 MB L2.
inline config::Ceilings v100() {
    config::Ceilings c;
    c.gpu.name = "Tesla V100-SXM2-16GB";
    c.gpu.key = "v100";
    c.gpu.sms = 80;
    c.gpu.schedulers_per_sm = 4;
    c.gpu.boost_clock_mhz = 1530;
    c.gpu.l2_bytes = 6ull << 20;
    c.source = "test:v100";
    c.l1_gbs = qty(14000, "GB/s");
    c.shared_gbs = qty(14000, "GB/s");
    c.l2_gbs = qty(2996, "GB/s");
    c.hbm_gbs = qty(828, "GB/s");
    c.gflops["fp64_fma"] = qty(7800, "GFLOP/s");
    c.gflops["fp32_fma"] = qty(15700, "GFLOP/s");
    c.gflops["fp16_fma"] = qty(31400, "GFLOP/s");
    c.tensor_tflops["fp16"] = qty(125, "TFLOP/s");
    return c;
}

/// Every default canonical counter at 0, so a test only sets what its kernel does.
inline model::Counters zero_counters() {
    model::Counters c;
    for (const char* name : k_design_default_counters) {
        c[name] = 0;
    }
    return c;
}

/// Sectors a kernel moves through each level: global loads in L1, L2 reads and DRAM reads.
struct LevelReads {
    double l1 = 0;
    double l2 = 0;
    double hbm = 0;
};

/// zero_counters() of a kernel that ran `inst_warp` warp instructions in `time_ns` and read
/// `reads` (sectors_global_ld, l2_sectors_read, dram_sectors_read); the rest is the test's own.
inline model::Counters kernel_counters(double inst_warp, double time_ns, LevelReads reads = {}) {
    model::Counters c = zero_counters();
    c["inst_warp"] = inst_warp;
    c["time_ns"] = time_ns;
    c["sectors_global_ld"] = reads.l1;
    c["l2_sectors_read"] = reads.l2;
    c["dram_sectors_read"] = reads.hbm;
    return c;
}

/// A kernel of one launch over `blocks` blocks, `time_ns` long, with every counter at 0.
inline model::KernelRecord kernel_record(double time_ns, std::uint32_t blocks) {
    model::KernelRecord k;
    k.name = "k";
    k.launches = 1;
    k.profiled_launches = 1;
    k.time_ns.total = time_ns;
    k.launch.grid = {blocks, 1, 1};
    k.counters = zero_counters();
    k.counters["time_ns"] = time_ns;
    return k;
}

/// kernel_record(time_ns, blocks) of blocks of `threads` threads, with `counters` set (the rest
/// 0).
inline model::KernelRecord
grid_kernel(double time_ns, std::uint32_t blocks, std::uint32_t threads,
            std::initializer_list<std::pair<const char*, double>> counters) {
    model::KernelRecord k = kernel_record(time_ns, blocks);
    k.launch.block = {threads, 1, 1};
    for (const auto& [name, value] : counters) {
        k.counters[name] = value;
    }
    return k;
}

/// A DRAM stream: grid_kernel of `inst_warp` warp instructions whose `sectors` global load
/// sectors all read L2 and all miss to DRAM.
inline model::KernelRecord dram_stream_kernel(double time_ns, std::uint32_t blocks,
                                              std::uint32_t threads, double inst_warp,
                                              double sectors) {
    return grid_kernel(time_ns, blocks, threads,
                       {{"inst_warp", inst_warp},
                        {"sectors_global_ld", sectors},
                        {"l2_sectors_read", sectors},
                        {"dram_sectors_read", sectors}});
}

/// Whether one of the projection's notes contains `text`.
inline bool has_note(const model::Projection& p, const std::string& text) {
    for (const std::string& n : p.notes) {
        if (n.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

/// cc 9.0 limits (docs/ceilings.md, "SM limits"): 2048 threads = 64 warps, 32 blocks, 64 K
/// registers in 256-register warp units, 228 KB shared per SM, 227 KB per block + 1 KB reserved
/// per block, 128-byte shared units.
inline config::SmLimits cc90() {
    config::SmLimits l;
    l.max_threads_per_sm = 2048;
    l.max_warps_per_sm = 64;
    l.max_blocks_per_sm = 32;
    l.max_threads_per_block = 1024;
    l.registers_per_sm = 65536;
    l.max_registers_per_thread = 255;
    l.register_alloc_unit = 256;
    l.shared_bytes_per_sm = 228 * 1024;
    l.shared_bytes_per_block = 227 * 1024;
    l.shared_reserved_per_block = 1024;
    l.shared_alloc_unit = 128;
    l.source = "test";
    return l;
}

/// cc 7.0: 96 KB shared per SM and per block, no reserve, 256-byte units.
inline config::SmLimits cc70() {
    config::SmLimits l = cc90();
    l.shared_bytes_per_sm = 96 * 1024;
    l.shared_bytes_per_block = 96 * 1024;
    l.shared_reserved_per_block = 0;
    l.shared_alloc_unit = 256;
    return l;
}

/// v100() as `key`, with its cc 7.0 SM limits (so waves are counted) and a sustained SM clock.
inline config::Ceilings v100_with_limits(const char* key, double sustained_mhz) {
    config::Ceilings c = v100();
    c.gpu.key = key;
    c.gpu.sm_limits = cc70();
    c.clocks["sustained"] = qty(sustained_mhz, "MHz");
    return c;
}

} // namespace irf::test

// SPDX-License-Identifier: Apache-2.0
// Per-SM residency limits by compute capability: the CUDA C++ Programming Guide's table of
// technical specifications per compute capability, as copied in docs/ceilings.md ("SM limits").
#include "config/sm_limits.hpp"

namespace irf::config {
namespace {

struct CcLimits {
    const char* cc;
    int threads;          ///< max threads per SM
    int blocks;           ///< max blocks per SM
    int shared_kb;        ///< shared memory per SM at the largest carveout, KB
    int shared_block_kb;  ///< largest opt-in shared memory per block, KB
    int reserved_bytes;   ///< shared memory reserved per block (cc >= 8.0: 1 KB)
    int shared_unit;      ///< shared allocation granularity (256 B on cc 7.x, 128 B after)
    int registers_k = 64; ///< 32-bit registers per SM, K (cc 3.7: 128)
    int registers_per_thread = 255; ///< most registers a thread (cc 3.0: 63)
    const char* source = nullptr;   ///< where the row is not the guide's table
};

// cc 10.3 and 12.0 are not in the guide's table: the toolkit's occupancy calculator gives their
// blocks an SM, shared memory sizes and units, CCCL's architecture traits their threads an SM.
constexpr const char* k_toolkit_source =
    "CUDA 13.0 toolkit include/cuda_occupancy.h and NVIDIA/cccl@004ad198 "
    "libcudacxx/include/cuda/__device/arch_traits.h (docs/ceilings.md)";

// Every architecture here has 256-register warp allocation units and 1024 threads per block.
constexpr CcLimits k_table[] = {
    {"3.0", 2048, 16, 48, 48, 0, 256, 64, 63},
    {"3.5", 2048, 16, 48, 48, 0, 256},
    {"3.7", 2048, 16, 112, 48, 0, 256, 128, 255},
    {"5.2", 2048, 32, 96, 48, 0, 256},
    {"6.1", 2048, 32, 96, 48, 0, 256},
    {"7.0", 2048, 32, 96, 96, 0, 256},
    {"7.5", 1024, 16, 64, 64, 0, 256},
    {"8.0", 2048, 32, 164, 163, 1024, 128},
    {"8.6", 1536, 16, 100, 99, 1024, 128},
    {"8.9", 1536, 24, 100, 99, 1024, 128},
    {"9.0", 2048, 32, 228, 227, 1024, 128},
    {"10.0", 2048, 32, 228, 227, 1024, 128},
    {"10.3", 2048, 32, 228, 227, 1024, 128, 64, 255, k_toolkit_source},
    {"12.0", 1536, 24, 100, 99, 1024, 128, 64, 255, k_toolkit_source},
};

constexpr const char* k_sm_limits_source =
    "CUDA C++ Programming Guide, technical specifications per compute "
    "capability (docs/ceilings.md)";

} // namespace

std::optional<SmLimits> sm_limits_for_cc(const std::string& cc) {
    for (const CcLimits& row : k_table) {
        if (cc != row.cc) {
            continue;
        }
        SmLimits l;
        l.max_threads_per_sm = row.threads;
        l.max_warps_per_sm = row.threads / 32;
        l.max_blocks_per_sm = row.blocks;
        l.max_threads_per_block = 1024;
        l.registers_per_sm = row.registers_k * 1024;
        l.max_registers_per_thread = row.registers_per_thread;
        l.register_alloc_unit = 256;
        l.shared_bytes_per_sm = row.shared_kb * 1024;
        l.shared_bytes_per_block = row.shared_block_kb * 1024;
        l.shared_reserved_per_block = row.reserved_bytes;
        l.shared_alloc_unit = row.shared_unit;
        l.source = row.source != nullptr ? row.source : k_sm_limits_source;
        return l;
    }
    return std::nullopt;
}

const std::vector<std::pair<std::string, int SmLimits::*>>& sm_limit_fields() {
    static const std::vector<std::pair<std::string, int SmLimits::*>> fields = {
        {"max_threads_per_sm", &SmLimits::max_threads_per_sm},
        {"max_warps_per_sm", &SmLimits::max_warps_per_sm},
        {"max_blocks_per_sm", &SmLimits::max_blocks_per_sm},
        {"max_threads_per_block", &SmLimits::max_threads_per_block},
        {"registers_per_sm", &SmLimits::registers_per_sm},
        {"max_registers_per_thread", &SmLimits::max_registers_per_thread},
        {"register_alloc_unit", &SmLimits::register_alloc_unit},
        {"shared_bytes_per_sm", &SmLimits::shared_bytes_per_sm},
        {"shared_bytes_per_block", &SmLimits::shared_bytes_per_block},
        {"shared_reserved_per_block", &SmLimits::shared_reserved_per_block},
        {"shared_alloc_unit", &SmLimits::shared_alloc_unit}};
    return fields;
}

} // namespace irf::config

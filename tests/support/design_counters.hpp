// SPDX-License-Identifier: Apache-2.0
// Test helper: the default canonical counters of docs/metrics.md, typed out once so that tests
// check the product's tables against the contract rather than against the tables themselves.
#pragma once

#include <array>

namespace irf::test {

/// The 25 core and 9 FP counters every chip collects by default (no optional groups).
inline constexpr std::array<const char*, 34> k_design_default_counters = {
    "inst_warp",
    "inst_thread",
    "inst_global_ld",
    "inst_global_st",
    "inst_local_ld",
    "inst_local_st",
    "inst_shared_ld",
    "inst_shared_st",
    "sectors_global_ld",
    "sectors_global_st",
    "sectors_local_ld",
    "sectors_local_st",
    "wavefronts_shared_ld",
    "wavefronts_shared_st",
    "l2_sectors_read",
    "l2_sectors_write",
    "l2_sectors_atom",
    "l2_sectors_red",
    "dram_sectors_read",
    "dram_sectors_write",
    "sysmem_sectors_read",
    "sysmem_sectors_write",
    "inst_tensor",
    "time_ns",
    "clock_hz",
    "thread_dadd",
    "thread_dmul",
    "thread_dfma",
    "thread_fadd",
    "thread_fmul",
    "thread_ffma",
    "thread_hadd",
    "thread_hmul",
    "thread_hfma",
};

} // namespace irf::test

// SPDX-License-Identifier: Apache-2.0
// Host-callable launchers of the calibration kernels (defined in the .cu files). Plain C++ types
// only, so host code includes this without CUDA headers.
#pragma once

#include <cstdint>
#include <string>

namespace irf::calibrate {

/// Written by thread 0 of block 0 at the start and end of its work: SM cycles (clock64) and
/// nanoseconds (globaltimer), so the host knows the clock the kernel really ran at.
struct ClockSample {
    std::uint64_t cycles_begin = 0;
    std::uint64_t cycles_end = 0;
    std::uint64_t ns_begin = 0;
    std::uint64_t ns_end = 0;
    /// Set to 1 by a kernel whose instruction is missing from the code the device ran (e.g. an
    /// sm_80 cubin on an sm_89 device has no FP8 mma): the timing is then meaningless.
    std::uint32_t unsupported = 0;
};

/// What one enqueued launch was: its grid (to count work) or why it could not run.
struct LaunchInfo {
    std::string error;       ///< "" when launched
    std::int64_t blocks = 0; ///< grid size actually used
    int threads = 0;         ///< threads per block
};

/// Arithmetic microbenchmarks: 8 independent dependent chains per thread (issue_mix: 8 FFMA +
/// 8 IADD chains interleaved), unrolled so loop overhead is about 2% of instructions.
enum class ComputeOp {
    issue_mix,
    fp32_fma,
    fp32_add,
    fp64_fma,
    fp64_add,
    fp16_fma,
    fp16_add,
    int32_add
};

/// Warp instructions each warp issues per loop iteration of `op` (the counted work).
[[nodiscard]] int compute_insts_per_iter(ComputeOp op);

/// Enqueues one compute launch on all SMs at full occupancy, `iters` loop iterations.
[[nodiscard]] LaunchInfo launch_compute(ComputeOp op, int sms, std::int64_t iters,
                                        ClockSample* clock, float* sink);

/// Tensor-core microbenchmarks with mma.sync (4 independent accumulators per warp).
enum class TensorOp { fp16, bf16, tf32, int8, fp8, fp64 };

/// Flops (or integer ops) of one warp-level mma.sync of `op`: 2 x M x N x K.
[[nodiscard]] double tensor_ops_per_mma(TensorOp op);

/// mma.sync instructions each warp issues per loop iteration.
[[nodiscard]] int tensor_mmas_per_iter();

/// Lowest compute capability (major x 10 + minor) whose mma.sync has `op`'s input type.
[[nodiscard]] int tensor_min_cc(TensorOp op);

/// Enqueues one tensor launch on all SMs.
[[nodiscard]] LaunchInfo launch_tensor(TensorOp op, int sms, std::int64_t iters, ClockSample* clock,
                                       float* sink);

/// Hopper wgmma.mma_async m64n256k16 FP16 -> FP32 (one warpgroup per block, operands from
/// shared memory). Only built when CMAKE_CUDA_ARCHITECTURES has 90 (compiled for sm_90a);
/// runs on compute capability 9.0 only.
[[nodiscard]] LaunchInfo launch_wgmma(int sms, std::int64_t iters, ClockSample* clock, float* sink);

/// wgmma instructions each warpgroup issues per loop iteration.
[[nodiscard]] int wgmma_per_iter();

/// Memory microbenchmarks. Bytes per launch are computed by the host from the arguments.
enum class MemoryOp { l1_read, l2_read, dram_read, dram_write, dram_copy, dram_triad };

/// Enqueues one memory launch over `elements` 16-byte vectors of `a` (and `b`, `c` for copy and
/// triad), `reps` passes. l1_read: each of `sms` blocks re-reads its own slice of `elements`
/// / sms vectors (16 KB, L1-resident); l2_read uses ld.global.cg (L2, not L1).
[[nodiscard]] LaunchInfo launch_memory(MemoryOp op, int sms, std::int64_t elements, int reps,
                                       void* a, void* b, void* c, ClockSample* clock, float* sink);

/// Shared-memory loads of 4-byte words at a stride of `stride` words (bank conflicts:
/// gcd(stride, 32)-way), or 16-byte loads when `vector` is true. Bytes per warp-instruction:
/// 128 (512 for vector); `loads` is the number of warp load instructions per warp per rep.
[[nodiscard]] LaunchInfo launch_shared(int stride, bool vector, int sms, int reps,
                                       ClockSample* clock, float* sink, int& loads);

/// Bytes of 16-byte vectors each l1_read block owns (must stay L1-resident).
[[nodiscard]] std::int64_t l1_slice_bytes();

} // namespace irf::calibrate

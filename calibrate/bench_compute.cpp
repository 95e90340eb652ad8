// SPDX-License-Identifier: Apache-2.0
// Compute and tensor benchmark runners: warp-instruction counts -> GIPS, FLOP/s, TFLOP/s.
#include <stdexcept>

#include "calibrate/bench_context.hpp"
#include "calibrate/kernels.hpp"

namespace irf::calibrate {
namespace {

/// One compute benchmark: the kernel, what a warp instruction is worth, where it is stored.
struct ComputeCase {
    const char* name;
    ComputeOp op;
    const char* pipe;   ///< pipe_gips key ("" = none)
    const char* gflops; ///< gflops key ("" = none)
    double flops_per_thread_inst;
    const char* what;
};

constexpr ComputeCase k_compute[] = {
    {"issue", ComputeOp::issue_mix, "", "", 0, "fma.rn.f32 + add.u32 interleaved 1:1"},
    {"fp32", ComputeOp::fp32_fma, "fp32", "fp32_fma", 2, "fma.rn.f32"},
    {"fp32_add", ComputeOp::fp32_add, "", "fp32_nofma", 1, "add.rn.f32"},
    {"fp64", ComputeOp::fp64_fma, "fp64", "fp64_fma", 2, "fma.rn.f64"},
    {"fp64_add", ComputeOp::fp64_add, "", "fp64_nofma", 1, "add.rn.f64"},
    {"fp16", ComputeOp::fp16_fma, "fp16", "fp16_fma", 4, "fma.rn.f16x2 (2 FMAs per lane)"},
    {"fp16_add", ComputeOp::fp16_add, "", "fp16_nofma", 2, "add.rn.f16x2 (2 adds per lane)"},
    {"int32", ComputeOp::int32_add, "int32", "", 0, "add.u32"},
};

/// Warp instructions one launch executed: blocks x warps x iterations x per-iteration count.
double warp_insts(const LaunchInfo& info, std::int64_t iters, int per_iter) {
    return static_cast<double>(info.blocks) * (info.threads / 32) * static_cast<double>(iters) *
           per_iter;
}

std::string method_text(const char* what, const Measurement& m) {
    return std::string(what) + ", 8 independent chains/thread, full occupancy, all SMs, " +
           std::to_string(m.iters) + " x " + "16 steps/launch; PTX instruction count";
}

} // namespace

void run_compute(Context& ctx, const std::string& name) {
    for (const auto& c : k_compute) {
        if (name != c.name) {
            continue;
        }
        const int per_iter = compute_insts_per_iter(c.op);
        const auto m = ctx.harness.measure(
            [&](std::int64_t iters, ClockSample* clock) {
                return launch_compute(c.op, ctx.device.sms, iters, clock, ctx.harness.sink());
            },
            [&](const LaunchInfo& info, std::int64_t iters) {
                return warp_insts(info, iters, per_iter);
            },
            16);
        const auto method = method_text(c.what, m);
        if (name == "issue") {
            ctx.out.warp_gips = ctx.quantity(m, 1e9, "warp-GIPS", method);
            ctx.report("warp_gips", ctx.out.warp_gips);
            return;
        }
        if (*c.pipe != '\0') {
            ctx.out.pipe_gips[c.pipe] = ctx.quantity(m, 1e9, "warp-GIPS", method);
            ctx.report(std::string("pipe.") + c.pipe, ctx.out.pipe_gips[c.pipe]);
        }
        if (*c.gflops != '\0') {
            // Each warp instruction is 32 lanes x flops per lane.
            ctx.out.gflops[c.gflops] =
                ctx.quantity(m, 1e9 / (32 * c.flops_per_thread_inst), "GFLOP/s", method);
            ctx.report(c.gflops, ctx.out.gflops[c.gflops]);
        }
        return;
    }
    throw std::invalid_argument("not a compute benchmark");
}

namespace {

/// wgmma (Hopper): the datasheet's tensor path. Kept in details and promoted to
/// tensor_tflops.fp16 when it beats mma.sync, as it does on H100.
void run_wgmma(Context& ctx) {
#ifdef IRF_HAVE_WGMMA
    if (ctx.device.cc_number() != 90) {
        throw std::runtime_error("wgmma needs compute capability 9.0 (sm_90a code)");
    }
    const double per_wgmma = 2.0 * 64 * 256 * 16; // m64n256k16
    const auto m = ctx.harness.measure(
        [&](std::int64_t iters, ClockSample* clock) {
            return launch_wgmma(ctx.device.sms, iters, clock, ctx.harness.sink());
        },
        [&](const LaunchInfo& info, std::int64_t iters) {
            // One warpgroup (4 warps) per block issues wgmma_per_iter() per iteration.
            return static_cast<double>(info.blocks) * static_cast<double>(iters) *
                   wgmma_per_iter() * per_wgmma;
        },
        16);
    auto q = ctx.quantity(m, 1e12, "TFLOP/s",
                          "wgmma.mma_async m64n256k16 f32.f16.f16, A and B from shared memory, "
                          "1 warpgroup per block, 8 wgmma per commit group, random operands, " +
                              std::to_string(m.iters) + " iterations");
    ctx.out.details["tensor_fp16_wgmma"] = q;
    ctx.report("tensor.fp16 wgmma", q);
    const auto it = ctx.out.tensor_tflops.find("fp16");
    if (it == ctx.out.tensor_tflops.end() || it->second.value < q.value) {
        ctx.out.tensor_tflops["fp16"] = q;
    }
#else
    (void)ctx;
    throw std::runtime_error("not built: CMAKE_CUDA_ARCHITECTURES has no 90 (sm_90a)");
#endif
}

} // namespace

void run_tensor(Context& ctx, const std::string& name) {
    if (name == "tensor_wgmma") {
        run_wgmma(ctx);
        return;
    }
    static const std::pair<const char*, TensorOp> cases[] = {
        {"tensor_fp16", TensorOp::fp16}, {"tensor_bf16", TensorOp::bf16},
        {"tensor_tf32", TensorOp::tf32}, {"tensor_int8", TensorOp::int8},
        {"tensor_fp8", TensorOp::fp8},   {"tensor_fp64", TensorOp::fp64}};
    for (const auto& tensor_case : cases) {
        if (name != tensor_case.first) {
            continue;
        }
        // Not a structured binding: C++17 lambdas cannot capture one (Clang refuses it).
        const TensorOp op = tensor_case.second;
        if (ctx.device.cc_number() < tensor_min_cc(op)) {
            throw std::runtime_error("needs compute capability " +
                                     std::to_string(tensor_min_cc(op) / 10) + "." +
                                     std::to_string(tensor_min_cc(op) % 10) + " or newer");
        }
        const double per_mma = tensor_ops_per_mma(op);
        const auto m = ctx.harness.measure(
            [&](std::int64_t iters, ClockSample* clock) {
                return launch_tensor(op, ctx.device.sms, iters, clock, ctx.harness.sink());
            },
            [&](const LaunchInfo& info, std::int64_t iters) {
                return warp_insts(info, iters, tensor_mmas_per_iter()) * per_mma;
            },
            16);
        const std::string key = name.substr(7); // after "tensor_"
        const bool integer = op == TensorOp::int8;
        ctx.out.tensor_tflops[key] =
            ctx.quantity(m, 1e12, integer ? "TOPS" : "TFLOP/s",
                         "mma.sync (warp-level MMA), 4 accumulators/warp, random operands in "
                         "registers, " +
                             std::to_string(static_cast<int>(per_mma)) + " ops per mma, " +
                             std::to_string(m.iters) + " iterations");
        ctx.report("tensor." + key, ctx.out.tensor_tflops[key]);
        if (key == "fp16") {
            ctx.out.details["tensor_fp16_mma_sync"] = ctx.out.tensor_tflops[key];
        }
        return;
    }
    throw std::invalid_argument("not a tensor benchmark");
}

} // namespace irf::calibrate

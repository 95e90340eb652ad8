// SPDX-License-Identifier: Apache-2.0
// Memory and link benchmark runners: L1, shared (+ bank-conflict ladder), L2 near / full,
// DRAM read / write / copy / triad, and pinned host<->device copies.
#include <algorithm>
#include <climits>
#include <stdexcept>

#include <cuda_runtime_api.h>

#include "calibrate/bench_context.hpp"
#include "calibrate/kernels.hpp"

namespace irf::calibrate {
namespace {

/// cudaMalloc'd (or pinned host) bytes, freed on scope exit.
class Buffer {
public:
    Buffer(std::uint64_t bytes, bool pinned_host) : m_pinned(pinned_host) {
        const auto err = pinned_host ? cudaMallocHost(&m_ptr, bytes) : cudaMalloc(&m_ptr, bytes);
        check_cuda(err, "allocating " + std::to_string(bytes >> 20) + " MiB");
        if (!pinned_host) {
            check_cuda(cudaMemset(m_ptr, 0, bytes), "cudaMemset");
        }
    }
    ~Buffer() {
        if (m_pinned) {
            cudaFreeHost(m_ptr);
        } else {
            cudaFree(m_ptr);
        }
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    [[nodiscard]] void* get() const { return m_ptr; }

private:
    void* m_ptr = nullptr;
    bool m_pinned = false;
};

int as_reps(std::int64_t iters) {
    return static_cast<int>(std::min<std::int64_t>(iters, INT_MAX));
}

/// Measures `op` over `elements` 16-byte vectors; `streams` = vectors moved per element.
Measurement measure_memory(Context& ctx, MemoryOp op, std::int64_t elements, double streams,
                           void* a, void* b, void* c) {
    return ctx.harness.measure(
        [&](std::int64_t iters, ClockSample* clock) {
            return launch_memory(op, ctx.device.sms, elements, as_reps(iters), a, b, c, clock,
                                 ctx.harness.sink());
        },
        [&](const LaunchInfo&, std::int64_t iters) {
            return static_cast<double>(elements) * 16.0 * streams * as_reps(iters);
        });
}

void run_l1(Context& ctx) {
    const std::int64_t slice = l1_slice_bytes();
    Buffer buf(static_cast<std::uint64_t>(slice) * ctx.device.sms, false);
    const auto m = ctx.harness.measure(
        [&](std::int64_t iters, ClockSample* clock) {
            return launch_memory(MemoryOp::l1_read, ctx.device.sms, 0, as_reps(iters), buf.get(),
                                 nullptr, nullptr, clock, ctx.harness.sink());
        },
        [&](const LaunchInfo& info, std::int64_t iters) {
            // Each thread issues 16 loads of 16 B per rep.
            return static_cast<double>(info.blocks) * info.threads * 16.0 * 16.0 * as_reps(iters);
        },
        64);
    auto q = ctx.quantity(m, 1e9, "GB/s",
                          "ld.global.ca.v4 re-reading a 16 KB slice per block, 1 block of 1024 "
                          "threads per SM");
    q.working_set_bytes = static_cast<std::uint64_t>(slice) * ctx.device.sms;
    ctx.out.l1_gbs = q;
    ctx.report("l1", q);
}

config::Quantity shared_case(Context& ctx, int stride, bool vector) {
    int loads = 0;
    const auto m = ctx.harness.measure(
        [&](std::int64_t iters, ClockSample* clock) {
            return launch_shared(stride, vector, ctx.device.sms, as_reps(iters), clock,
                                 ctx.harness.sink(), loads);
        },
        [&](const LaunchInfo& info, std::int64_t iters) {
            // Useful bytes: 32 lanes x 4 B (x 4 for 16-byte loads) per warp instruction.
            return static_cast<double>(info.blocks) * (info.threads / 32) * loads *
                   (vector ? 512.0 : 128.0) * as_reps(iters);
        },
        64);
    return ctx.quantity(m, 1e9, "GB/s",
                        vector ? std::string("ld.shared.v4.u32, conflict-free")
                               : "ld.shared.u32 at a stride of " + std::to_string(stride) +
                                     " words (" + std::to_string(std::min(stride, 32)) +
                                     "-way bank conflict)");
}

void run_shared(Context& ctx) {
    const auto vec = shared_case(ctx, 1, true);
    ctx.out.details["shared_v4"] = vec;
    ctx.report("shared_v4", vec);
    config::Quantity best = vec;
    for (int stride : {1, 2, 4, 8, 16, 32}) {
        const auto q = shared_case(ctx, stride, false);
        ctx.out.details["shared_stride_" + std::to_string(stride)] = q;
        ctx.report("shared_stride_" + std::to_string(stride), q);
        if (q.value > best.value) {
            best = q;
        }
    }
    ctx.out.shared_gbs = best;
}

void run_l2(Context& ctx) {
    const auto l2 = ctx.device.l2_bytes;
    if (l2 < (1u << 20)) {
        throw std::runtime_error("L2 size unknown or under 1 MiB");
    }
    Buffer buf(l2, false);
    config::Quantity near;
    for (const auto& [label, fraction] : {std::pair<const char*, double>{"l2_near", 0.4},
                                          std::pair<const char*, double>{"l2_full", 0.8}}) {
        const auto elements = static_cast<std::int64_t>(static_cast<double>(l2) * fraction / 16);
        const auto m =
            measure_memory(ctx, MemoryOp::l2_read, elements, 1.0, buf.get(), nullptr, nullptr);
        auto q = ctx.quantity(m, 1e9, "GB/s",
                              std::string("ld.global.cg.v4 grid-stride over ") +
                                  (fraction < 0.5 ? "0.4" : "0.8") + " x L2, 4 loads in flight");
        q.working_set_bytes = static_cast<std::uint64_t>(elements) * 16;
        ctx.out.details[label] = q;
        ctx.report(label, q);
        if (fraction < 0.5) {
            near = q;
        }
    }
    ctx.out.l2_gbs = near; // the roofline's L2 ceiling: data within one partition
}

void run_hbm(Context& ctx) {
    // >= 8 x L2 and >= 1 GiB per array, within 80% of free memory for three arrays.
    std::uint64_t bytes = std::max<std::uint64_t>(8 * ctx.device.l2_bytes, 1ull << 30);
    bytes = std::min<std::uint64_t>(bytes, ctx.device.free_bytes / 10 * 8 / 3) & ~0xFFFull;
    if (bytes < (64u << 20)) {
        throw std::runtime_error("not enough free device memory");
    }
    Buffer a(bytes, false);
    Buffer b(bytes, false);
    Buffer c(bytes, false);
    const auto elements = static_cast<std::int64_t>(bytes / 16);
    config::Quantity best;
    const std::tuple<const char*, MemoryOp, double, const char*> cases[] = {
        {"hbm_read", MemoryOp::dram_read, 1.0, "ld.global.cg.v4 read, 4 loads in flight"},
        {"hbm_write", MemoryOp::dram_write, 1.0, "16-byte stores"},
        {"hbm_copy", MemoryOp::dram_copy, 2.0, "b = a, 16-byte vectors (2 x bytes counted)"},
        {"hbm_triad", MemoryOp::dram_triad, 3.0, "a = b + s x c, 16-byte vectors (3 x bytes)"}};
    for (const auto& [label, op, streams, what] : cases) {
        const auto m = measure_memory(ctx, op, elements, streams, a.get(), b.get(), c.get());
        auto q = ctx.quantity(m, 1e9, "GB/s",
                              std::string(what) + ", grid-stride, full occupancy, " +
                                  std::to_string(bytes >> 20) + " MiB per array");
        q.working_set_bytes = bytes * static_cast<std::uint64_t>(streams);
        q.per_sm_per_clock = 0; // DRAM bandwidth does not scale with SMs x SM clock
        ctx.out.details[label] = q;
        ctx.report(label, q);
        if (q.value > best.value) {
            best = q;
        }
    }
    best.method = "best of read/write/copy/triad: " + best.method;
    ctx.out.hbm_gbs = best;
}

void run_pcie(Context& ctx) {
    const std::uint64_t bytes = (ctx.settings.quick ? 64ull : 256ull) << 20;
    Buffer host(bytes, true);
    Buffer dev(bytes, false);
    config::Quantity best;
    for (const bool h2d : {true, false}) {
        const auto ms = ctx.harness.time_ops(
            [&] {
                check_cuda(
                    h2d ? cudaMemcpyAsync(dev.get(), host.get(), bytes, cudaMemcpyHostToDevice)
                        : cudaMemcpyAsync(host.get(), dev.get(), bytes, cudaMemcpyDeviceToHost),
                    "cudaMemcpyAsync");
            },
            ctx.settings.samples);
        Measurement m;
        for (double t : ms) {
            m.rates.push_back(static_cast<double>(bytes) / (t * 1e-3));
        }
        summarize(m);
        auto q = ctx.quantity(m, 1e9, "GB/s",
                              std::string("cudaMemcpyAsync pinned ") +
                                  (h2d ? "host-to-device " : "device-to-host ") +
                                  std::to_string(bytes >> 20) + " MiB (copy engine)");
        q.working_set_bytes = bytes;
        const char* label = h2d ? "pcie_h2d" : "pcie_d2h";
        ctx.out.details[label] = q;
        ctx.report(label, q);
        if (q.value > best.value) {
            best = q;
        }
    }
    ctx.out.pcie_gbs = best;
}

} // namespace

void run_memory(Context& ctx, const std::string& name) {
    if (name == "l1") {
        run_l1(ctx);
    } else if (name == "shared") {
        run_shared(ctx);
    } else if (name == "l2") {
        run_l2(ctx);
    } else if (name == "hbm") {
        run_hbm(ctx);
    } else if (name == "pcie") {
        run_pcie(ctx);
    } else {
        throw std::invalid_argument("not a memory benchmark");
    }
}

} // namespace irf::calibrate

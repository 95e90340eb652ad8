// SPDX-License-Identifier: Apache-2.0
// The model's cost: analysing a profile of 10,000 kernels against one source and two targets,
// and writing it as JSON (docs/performance.md, "Model").
#include <benchmark/benchmark.h>

#include "model/analyze.hpp"
#include "model/profile/profile_json.hpp"
#include "model/summary/text_summary.hpp"

namespace bench_model {
namespace {

using irf::config::Ceilings;
using irf::config::Quantity;

Quantity qty(double v) {
    Quantity q;
    q.value = v;
    return q;
}

Ceilings ceilings(const char* key, double hbm) {
    Ceilings c;
    c.gpu.key = key;
    c.gpu.sms = 80;
    c.gpu.boost_clock_mhz = 1530;
    c.gpu.l2_bytes = 6u << 20;
    c.l1_gbs = qty(14000);
    c.shared_gbs = qty(14000);
    c.l2_gbs = qty(2996);
    c.hbm_gbs = qty(hbm);
    c.gflops["fp64_fma"] = qty(7800);
    c.gflops["fp32_fma"] = qty(15700);
    c.tensor_tflops["fp16"] = qty(125);
    return c;
}

// 10,000 kernels with every canonical counter, varied so each takes a different branch mix.
irf::model::Profile profile(std::size_t kernels) {
    irf::model::Profile p;
    for (std::size_t i = 0; i < kernels; ++i) {
        irf::model::KernelRecord k;
        const double s = 1.0 + static_cast<double>(i % 97);
        k.name = "kernel_" + std::to_string(i) + "(float*, int)";
        k.launch.grid = {static_cast<std::uint32_t>(1 + i % 500), 1, 1};
        k.launches = 1 + i % 7;
        k.profiled_launches = 1;
        k.time_ns.total = 1e4 * s * static_cast<double>(k.launches);
        k.counters = {{"time_ns", 1e4 * s},
                      {"inst_warp", 1e6 * s},
                      {"inst_thread", 2.4e7 * s},
                      {"inst_global_ld", 1e5 * s},
                      {"inst_global_st", 5e4},
                      {"inst_local_ld", 0},
                      {"inst_local_st", 0},
                      {"inst_shared_ld", 2e4 * s},
                      {"inst_shared_st", 1e4},
                      {"sectors_global_ld", 4e5 * s},
                      {"sectors_global_st", 2e5},
                      {"sectors_local_ld", 0},
                      {"sectors_local_st", 0},
                      {"wavefronts_shared_ld", 4e4 * s},
                      {"wavefronts_shared_st", 1e4},
                      {"l2_sectors_read", 3e5 * s},
                      {"l2_sectors_write", 2e5},
                      {"l2_sectors_atom", 0},
                      {"l2_sectors_red", 0},
                      {"dram_sectors_read", 1e5 * s},
                      {"dram_sectors_write", 1e5},
                      {"thread_dadd", 1e5},
                      {"thread_dmul", 1e5},
                      {"thread_dfma", 1e6 * s},
                      {"thread_fadd", 0},
                      {"thread_fmul", 0},
                      {"thread_ffma", 1e5},
                      {"thread_hadd", 0},
                      {"thread_hmul", 0},
                      {"thread_hfma", 0},
                      {"inst_pipe_alu", 4e5 * s},
                      {"inst_pipe_fma", 2e5 * s},
                      {"inst_pipe_fp64", 1e5 * s},
                      {"inst_pipe_lsu", 1.5e5 * s}};
        p.kernels.push_back(std::move(k));
    }
    return p;
}

void bm_analyze_10k(benchmark::State& state) {
    const irf::model::Profile base = profile(10000);
    const Ceilings source = ceilings("source", 828);
    const std::vector<Ceilings> targets{ceilings("t1", 1656), ceilings("t2", 3350)};
    for (auto _ : state) {
        state.PauseTiming(); // the copy of 10,000 counter maps is not the model's cost
        irf::model::Profile p = base;
        state.ResumeTiming();
        irf::model::analyze(p, source, targets);
        benchmark::DoNotOptimize(p.kernels.back().analysis);
    }
    state.SetItemsProcessed(state.iterations() * 10000);
}
BENCHMARK(bm_analyze_10k)->Unit(benchmark::kMillisecond);

void bm_analyze_and_write_10k(benchmark::State& state) {
    const irf::model::Profile base = profile(10000);
    const Ceilings source = ceilings("source", 828);
    const std::vector<Ceilings> targets{ceilings("t1", 1656), ceilings("t2", 3350)};
    for (auto _ : state) {
        state.PauseTiming();
        irf::model::Profile p = base;
        state.ResumeTiming();
        irf::model::analyze(p, source, targets);
        const std::string json = irf::model::dump_profile(p);
        const std::string text = irf::model::text_summary(p);
        benchmark::DoNotOptimize(json.size() + text.size());
    }
    state.SetItemsProcessed(state.iterations() * 10000);
}
BENCHMARK(bm_analyze_and_write_10k)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace bench_model

BENCHMARK_MAIN();

// SPDX-License-Identifier: Apache-2.0
// Host cost of an NVTX push + pop as irf captures them (intercept/nvtx_stack.hpp), for range
// paths seen before: no lock, no allocation. Goal (issue 55): <= 300 ns per push + pop with
// emit_nvtx's strings, and no allocation after warm-up (docs/performance.md, "NVTX ranges").
// The program fails when a measured loop allocated.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "config/nvtx_expr.hpp"
#include "intercept/nvtx_stack.hpp"
#include "nvtx_stream.hpp"

namespace {

/// Allocations made by the calling thread (every operator new below counts here).
thread_local std::uint64_t t_allocations = 0;
std::atomic<bool> s_allocated_in_loop{false};

void* counted(std::size_t size) {
    ++t_allocations;
    if (void* p = std::malloc(size == 0 ? 1 : size)) {
        return p;
    }
    throw std::bad_alloc();
}

} // namespace

void* operator new(std::size_t size) {
    return counted(size);
}
void* operator new[](std::size_t size) {
    return counted(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    ++t_allocations;
    return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
    ++t_allocations;
    return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}

namespace irf::intercept {
namespace {

/// Fails the program (and marks the run) when the measured loop of `state` allocated.
void check_allocations(benchmark::State& state, std::uint64_t before) {
    const std::uint64_t made = t_allocations - before;
    state.counters["allocs"] = static_cast<double>(made);
    if (made > 0) {
        s_allocated_in_loop.store(true);
        state.SkipWithError("the measured loop allocated");
    }
}

/// A PyTorch-like operator name (emit_nvtx names carry the operator and a sequence number).
const char* const k_name = "aten::convolution, seq = 1234";

void push_pop(benchmark::State& state) {
    nvtx::push(nvtx::k_default_domain, "train_step"); // one enclosing range, like a real job
    nvtx::push(nvtx::k_default_domain, k_name);       // warm-up: the path is interned
    nvtx::pop_domain(nvtx::k_default_domain);
    const std::uint64_t before = t_allocations;
    for (auto _ : state) {
        benchmark::DoNotOptimize(nvtx::push(nvtx::k_default_domain, k_name));
        benchmark::DoNotOptimize(nvtx::pop_domain(nvtx::k_default_domain));
    }
    check_allocations(state, before);
    nvtx::pop_domain(nvtx::k_default_domain);
}
BENCHMARK(push_pop)->ThreadRange(1, 4)->UseRealTime();

/// Cycling through many distinct names (all seen before): the lookup walks other buckets.
void push_pop_many_names(benchmark::State& state) {
    std::vector<std::string> names;
    for (int i = 0; i < 10000; ++i) {
        names.push_back("op" + std::to_string(i)); // distinct: emit_nvtx's seq = N is stripped
        nvtx::push(nvtx::k_default_domain, names.back());
        nvtx::pop();
    }
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(nvtx::push(nvtx::k_default_domain, names[i]));
        benchmark::DoNotOptimize(nvtx::pop());
        i = i + 1 == names.size() ? 0 : i + 1;
    }
}
BENCHMARK(push_pop_many_names);

/// One eager training step under emit_nvtx (tests/data/nvtx/emit-nvtx-step.txt) replayed with
/// new seq and op_id numbers at every step, through the calls irf's NVTX injection makes
/// (push, pop_domain). One step was replayed before timing: paths are interned. The figure is
/// the CPU time per push + pop on each thread (`per_push_pop`); `allocs` must stay 0.
void emit_nvtx_step(benchmark::State& state) {
    const bench::NvtxStream stream = bench::load_nvtx_stream(IRF_NVTX_STREAM, 8);
    if (stream.steps.empty()) {
        state.SkipWithError(("cannot read " + std::string(IRF_NVTX_STREAM)).c_str());
        return;
    }
    bench::replay(stream, 0);
    const std::uint64_t before = t_allocations;
    std::size_t step = 1;
    for (auto _ : state) {
        bench::replay(stream, step);
        step = step + 1 == stream.steps.size() ? 0 : step + 1;
    }
    check_allocations(state, before);
    state.counters["per_push_pop"] =
        benchmark::Counter(static_cast<double>(stream.pushes),
                           benchmark::Counter::kIsIterationInvariantRate |
                               benchmark::Counter::kAvgThreads | benchmark::Counter::kInvert);
    state.counters["depth_left"] = nvtx::depth();
}
BENCHMARK(emit_nvtx_step)->ThreadRange(1, 2);

/// Worst case of the NVTX filter (issue #39 item 2): `*/*/*/*/*/ZZ/` against a full 128-deep
/// stack. Before the table, more than 30 s per match; now parts x depth steps.
void nvtx_filter_many_stars(benchmark::State& state) {
    std::vector<config::NvtxExpr> exprs;
    std::string problem;
    (void)config::parse_nvtx_list("*/*/*/*/*/ZZ/", exprs, problem);
    const std::vector<config::NvtxRange> stack(128, config::NvtxRange{"", "A"});
    for (auto _ : state) {
        benchmark::DoNotOptimize(config::nvtx_matches(exprs.at(0), stack, {}));
    }
}
BENCHMARK(nvtx_filter_many_stars);

} // namespace
} // namespace irf::intercept

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    if (s_allocated_in_loop.load()) {
        std::fprintf(stderr, "bench_nvtx: a push or pop allocated after warm-up\n");
        return 1;
    }
    return 0;
}

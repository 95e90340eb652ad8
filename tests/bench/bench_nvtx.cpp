// SPDX-License-Identifier: Apache-2.0
// Host cost of an NVTX push + pop as irf captures them (intercept/nvtx_stack.hpp), for a range
// path seen before: no lock, no allocation. Target < 50 ns per push + pop (docs/performance.md).
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "config/nvtx_expr.hpp"
#include "intercept/nvtx_stack.hpp"

namespace irf::intercept {
namespace {

/// A PyTorch-like operator name (emit_nvtx names carry the operator and a sequence number).
const char* const k_name = "aten::convolution, seq = 1234";

void push_pop(benchmark::State& state) {
    nvtx::push(nvtx::k_default_domain, "train_step"); // one enclosing range, like a real job
    for (auto _ : state) {
        benchmark::DoNotOptimize(nvtx::push(nvtx::k_default_domain, k_name));
        benchmark::DoNotOptimize(nvtx::pop());
    }
    nvtx::pop();
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

BENCHMARK_MAIN();

# SPDX-License-Identifier: Apache-2.0
# Launch hot path benchmark (docs/performance.md, "Launch hot path"); run briefly as a test.
find_package(benchmark REQUIRED)
add_executable(bench_launch bench_launch.cpp)
target_link_libraries(bench_launch PRIVATE irf_intercept benchmark::benchmark)
irf_target_warnings(bench_launch)
add_test(NAME bench.launch COMMAND bench_launch --benchmark_min_time=0.01)
set_tests_properties(bench.launch PROPERTIES LABELS bench TIMEOUT 300)

# NVTX push/pop cost (docs/performance.md, "NVTX ranges").
add_executable(bench_nvtx bench_nvtx.cpp)
target_link_libraries(bench_nvtx PRIVATE irf_intercept benchmark::benchmark)
irf_target_warnings(bench_nvtx)
add_test(NAME bench.nvtx COMMAND bench_nvtx --benchmark_min_time=0.01)
set_tests_properties(bench.nvtx PROPERTIES LABELS bench TIMEOUT 300)

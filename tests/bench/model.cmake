# SPDX-License-Identifier: Apache-2.0
# Model benchmark (docs/performance.md, "Model"): analysis of 10,000 kernels; run briefly as a test.
find_package(benchmark REQUIRED)
add_executable(bench_model ${CMAKE_CURRENT_SOURCE_DIR}/bench_model.cpp)
target_link_libraries(bench_model PRIVATE irf_model benchmark::benchmark)
irf_target_warnings(bench_model)
add_test(NAME bench.model COMMAND bench_model --benchmark_min_time=0.01)
set_tests_properties(bench.model PROPERTIES LABELS bench TIMEOUT 300)

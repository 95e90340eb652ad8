# SPDX-License-Identifier: Apache-2.0
# reliability integration tests: the fault matrix (docs/reliability.md). The fault harness is an
# application that loads libirf.so like the CUDA driver and then ends in every way there is.
add_executable(irf_fault_harness fault_harness.cpp)
target_link_libraries(irf_fault_harness PRIVATE ${CMAKE_DL_LIBS} Threads::Threads)
irf_target_warnings(irf_fault_harness)

irf_add_gtest(NAME test_fault_inject LABEL integration
    SOURCES test_fault_config.cpp test_fault_output.cpp test_fault_exit.cpp
            test_fault_process.cpp test_fault_env.cpp test_fault_security.cpp
            test_fault_hostile_text.cpp
    LIBS nlohmann_json::nlohmann_json
    DEFS IRF_FAULT_HARNESS_BIN="$<TARGET_FILE:irf_fault_harness>"
         IRF_LIBIRF="$<TARGET_FILE:irf_inject>" IRF_HARNESS_BIN="$<TARGET_FILE:irf_fault_harness>"
    TIMEOUT 300)
add_dependencies(test_fault_inject irf_fault_harness irf_inject)

# Hostile input to the offline tools (irf-report subcommands, irf-plot).
irf_add_gtest(NAME test_fault_tools LABEL integration
    SOURCES test_fault_tools.cpp
    LIBS nlohmann_json::nlohmann_json
    DEFS IRF_REPORT_BIN="$<TARGET_FILE:irf-report>" IRF_PLOT_BIN="${PROJECT_BINARY_DIR}/tools/irf-plot"
    TIMEOUT 300)
add_dependencies(test_fault_tools irf-report)

# libFuzzer targets for the loaders, built with Debian's clang-14 as a separate small project
# (tests/fuzz) and run for a bounded time each. Absent without clang++-14 (the test says so).
find_program(IRF_CLANGXX_14 clang++-14)
if(IRF_CLANGXX_14 AND NOT IRF_SANITIZE)
    set(IRF_FUZZ_SECONDS 20 CACHE STRING "Seconds each libFuzzer target runs in integration.fuzz")
    add_test(NAME integration.fuzz_loaders
             COMMAND ${PROJECT_SOURCE_DIR}/tests/fuzz/run-fuzz.sh ${IRF_CLANGXX_14}
                     ${PROJECT_BINARY_DIR}/fuzz ${IRF_FUZZ_SECONDS})
    set_tests_properties(integration.fuzz_loaders PROPERTIES LABELS integration TIMEOUT 1200)
endif()

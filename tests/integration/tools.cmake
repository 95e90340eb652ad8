# SPDX-License-Identifier: Apache-2.0
# tools area integration tests: irf-report as a program, irf-plot, and `irf run` under mpirun.
irf_add_gtest(NAME test_tools_cli LABEL integration
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_tools_cli.cpp
    LIBS nlohmann_json::nlohmann_json
    DEFS IRF_REPORT_BIN="$<TARGET_FILE:irf-report>")
add_dependencies(test_tools_cli irf-report)

irf_add_gtest(NAME test_tools_plot LABEL integration
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_tools_plot.cpp
    DEFS IRF_PLOT_BIN="${IRF_PLOT_WRAPPER}"
    TIMEOUT 300)

# `irf run` under mpirun needs libirf.so (irf_inject) and the injection harness (irf_harness),
# both from the intercept area; without them this test is not built.
find_program(IRF_MPIRUN_PROGRAM NAMES mpirun mpiexec)
if(TARGET irf_inject AND TARGET irf_harness)
    irf_add_gtest(NAME test_tools_mpi LABEL integration
        SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_tools_mpi.cpp
        LIBS nlohmann_json::nlohmann_json
        DEFS IRF_BIN="$<TARGET_FILE:irf>" IRF_REPORT_BIN="$<TARGET_FILE:irf-report>"
             IRF_HARNESS_BIN="$<TARGET_FILE:irf_harness>"
             IRF_MPIRUN="${IRF_MPIRUN_PROGRAM}"
        TIMEOUT 300)
    add_dependencies(test_tools_mpi irf irf-report irf_inject irf_harness)
endif()

# `irf trajectory` with stub MPS control and application programs (no GPU, no MPS).
irf_add_gtest(NAME test_tools_trajectory LABEL integration
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_tools_trajectory.cpp
    LIBS irf_launcher irf_model nlohmann_json::nlohmann_json
    DEFS IRF_BIN="$<TARGET_FILE:irf>")
add_dependencies(test_tools_trajectory irf irf-report)

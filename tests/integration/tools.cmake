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

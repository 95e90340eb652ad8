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

# irf-plot's Python tests (tests/integration/plot/): temporaries, hostile input, figure data,
# the irf.load module; and a bounded random-input run of its loader (fixed seed, time bound).
find_program(IRF_PYTHON3 NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(IRF_PYTHON3)
    set(IRF_PLOT_TEST_ENV "PYTHONPATH=${PROJECT_SOURCE_DIR}/tools/irf_plot"
        "IRF_PLOT=${IRF_PLOT_WRAPPER}" "IRF_TEST_DATA_DIR=${PROJECT_SOURCE_DIR}/tests/data")
    add_test(NAME integration.plot_python
        COMMAND ${IRF_PYTHON3} -m unittest discover -s ${CMAKE_CURRENT_SOURCE_DIR}/plot
                -p "test_*.py" -v)
    add_test(NAME integration.plot_fuzz
        COMMAND ${IRF_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/plot/fuzz_irf_plot.py
                --seed 22 --seconds 30)
    set_tests_properties(integration.plot_python integration.plot_fuzz PROPERTIES
        LABELS integration ENVIRONMENT "${IRF_PLOT_TEST_ENV}" TIMEOUT 600)
endif()

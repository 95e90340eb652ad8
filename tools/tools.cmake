# SPDX-License-Identifier: Apache-2.0
# tools area: the `irf` launcher, irf-report merge/compare/csv, and irf-plot (Python).

# The launcher's logic is a static library so unit tests can call it without exec'ing.
add_library(irf_launcher STATIC ${CMAKE_CURRENT_SOURCE_DIR}/irf/launch.cpp)
target_include_directories(irf_launcher PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(irf_launcher PUBLIC irf_config)
irf_target_warnings(irf_launcher)

add_executable(irf ${CMAKE_CURRENT_SOURCE_DIR}/irf/main.cpp)
target_link_libraries(irf PRIVATE irf_launcher irf_model CLI11::CLI11)
irf_target_warnings(irf)
# An installed irf finds <prefix>/<libdir>/libirf.so from its own location; a build-tree irf
# falls back to the library target's file (whichever name the inject part gives it).
target_compile_definitions(irf PRIVATE IRF_INSTALL_LIBDIR="${CMAKE_INSTALL_LIBDIR}")
foreach(candidate irf_inject inject irf_lib libirf)
    if(TARGET ${candidate})
        target_compile_definitions(irf PRIVATE IRF_BUILD_TREE_LIB="$<TARGET_FILE:${candidate}>")
        set(IRF_TOOLS_INJECT_TARGET ${candidate})
        break()
    endif()
endforeach()
install(TARGETS irf RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# irf-plot: a Python 3 script (matplotlib) behind a small sh wrapper that prefers
# /usr/bin/python3 (Debian's python3-matplotlib). The build-tree wrapper runs the source script;
# the installed one runs <prefix>/share/irf/irf_plot/irf_plot.py.
set(IRF_PLOT_SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR}/irf_plot)
set(IRF_PLOT_INSTALL_REL ${CMAKE_INSTALL_DATADIR}/irf/irf_plot)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/irf_plot/irf-plot.in ${CMAKE_CURRENT_BINARY_DIR}/irf-plot
    @ONLY FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
    WORLD_READ WORLD_EXECUTE)
set(IRF_PLOT_WRAPPER ${CMAKE_CURRENT_BINARY_DIR}/irf-plot CACHE INTERNAL "irf-plot wrapper in the build tree")
install(PROGRAMS ${CMAKE_CURRENT_BINARY_DIR}/irf-plot DESTINATION ${CMAKE_INSTALL_BINDIR})
install(PROGRAMS ${CMAKE_CURRENT_SOURCE_DIR}/irf_plot/irf_plot.py
    DESTINATION ${CMAKE_INSTALL_DATADIR}/irf/irf_plot)
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/irf_plot/irfplot
    DESTINATION ${CMAKE_INSTALL_DATADIR}/irf/irf_plot FILES_MATCHING PATTERN "*.py")

# irf-report subcommands of this area (each registers itself; see irf_report/command.hpp).
target_sources(irf-report PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/irf_report/tools_common.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/irf_report/tools_merge.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/irf_report/cmd_merge.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/irf_report/tools_compare.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/irf_report/cmd_compare.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/irf_report/tools_csv.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/irf_report/tools_csv_regions.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/irf_report/cmd_csv.cpp)

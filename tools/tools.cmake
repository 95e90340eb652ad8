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

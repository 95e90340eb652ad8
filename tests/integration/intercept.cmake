# SPDX-License-Identifier: Apache-2.0
# intercept integration tests: the harness dlopens libirf.so and drives it through IRF_* only.
add_executable(irf_harness harness.cpp)
target_link_libraries(irf_harness PRIVATE ${CMAKE_DL_LIBS})
# Export main & co. so call sites in the profile name the harness's frames.
set_target_properties(irf_harness PROPERTIES ENABLE_EXPORTS ON)
irf_target_warnings(irf_harness)

irf_add_gtest(NAME test_inject_fake LABEL integration
    SOURCES test_inject_fake.cpp test_inject_lifecycle.cpp test_inject_regions.cpp
    LIBS irf_model nlohmann_json::nlohmann_json
    DEFS IRF_HARNESS_BIN="$<TARGET_FILE:irf_harness>" IRF_LIBIRF="$<TARGET_FILE:irf_inject>"
    TIMEOUT 300)
add_dependencies(test_inject_fake irf_harness irf_inject)

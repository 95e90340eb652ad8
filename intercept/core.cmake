# SPDX-License-Identifier: Apache-2.0
# irf_intercept: launch events, filters, sampler, aggregation, call sites (static, no CUDA).
# irf_fake (BUILD_TESTING only): the scripted backend selected by IRF_BACKEND=fake:FILE.
add_library(irf_intercept STATIC
    ${CMAKE_CURRENT_LIST_DIR}/log.cpp
    ${CMAKE_CURRENT_LIST_DIR}/kernel_filter.cpp
    ${CMAKE_CURRENT_LIST_DIR}/sampler.cpp
    ${CMAKE_CURRENT_LIST_DIR}/call_site.cpp
    ${CMAKE_CURRENT_LIST_DIR}/collector.cpp
    ${CMAKE_CURRENT_LIST_DIR}/collector_profile.cpp
    ${CMAKE_CURRENT_LIST_DIR}/nvtx_stack.cpp
    ${CMAKE_CURRENT_LIST_DIR}/nvtx_filter.cpp)
target_include_directories(irf_intercept PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(irf_intercept PUBLIC irf_config irf_model Threads::Threads
                      PRIVATE PkgConfig::LIBUNWIND ${CMAKE_DL_LIBS})
irf_target_warnings(irf_intercept)

if(BUILD_TESTING)
    add_library(irf_fake STATIC
        ${CMAKE_CURRENT_LIST_DIR}/fake/fake_script.cpp
        ${CMAKE_CURRENT_LIST_DIR}/fake/fake_backend.cpp)
    target_link_libraries(irf_fake PUBLIC irf_intercept nlohmann_json::nlohmann_json)
    irf_target_warnings(irf_fake)
endif()

# SPDX-License-Identifier: Apache-2.0
# cupti area: metric sets validated per chip with the real CUPTI host API (no GPU needed).
if(TARGET irf_cupti AND TARGET irf-report)
    irf_add_gtest(NAME test_metrics_host LABEL integration SOURCES test_metrics_host.cpp
        LIBS irf_cupti irf_config
        DEFS IRF_REPORT_BIN="$<TARGET_FILE:irf-report>")
    add_dependencies(test_metrics_host irf-report)
endif()
if(TARGET irf_cupti)
    irf_add_gtest(NAME test_metrics_backend_nogpu LABEL integration
        SOURCES test_metrics_backend_nogpu.cpp LIBS irf_cupti)
endif()
if(TARGET irf_cupti)
    irf_add_gtest(NAME test_metrics_backend_callbacks LABEL integration
        SOURCES test_metrics_backend_callbacks.cpp LIBS irf_cupti Threads::Threads)
    target_include_directories(test_metrics_backend_callbacks SYSTEM PRIVATE
        ${CUDAToolkit_INCLUDE_DIRS})
endif()
if(TARGET irf_cupti)
    irf_add_gtest(NAME test_cupti_sampled_path LABEL integration
        SOURCES test_cupti_sampled_path.cpp LIBS irf_cupti Threads::Threads)
    target_include_directories(test_cupti_sampled_path SYSTEM PRIVATE
        ${CUDAToolkit_INCLUDE_DIRS})
endif()

# SPDX-License-Identifier: Apache-2.0
# cupti area: metric tables, counter mapping and CUPTI record/params decoding (no GPU needed).
irf_add_gtest(NAME test_metric_sets LABEL unit SOURCES test_metric_sets.cpp LIBS irf_config)
if(TARGET irf_cupti)
    irf_add_gtest(NAME test_metric_sets_cupti LABEL unit SOURCES test_metric_sets_cupti.cpp
        LIBS irf_cupti)
endif()
if(TARGET test_metric_sets_cupti)
    target_include_directories(test_metric_sets_cupti SYSTEM PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
endif()

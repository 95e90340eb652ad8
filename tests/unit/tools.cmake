# SPDX-License-Identifier: Apache-2.0
# tools area unit tests: the launcher's option handling and the analysed test profiles.
irf_add_gtest(NAME test_tools_launcher LABEL unit
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_tools_launcher.cpp
    LIBS irf_launcher)
irf_add_gtest(NAME test_tools_profiles LABEL unit
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_tools_profiles.cpp
    LIBS irf_model irf_config)
irf_add_gtest(NAME test_tools_report LABEL unit
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_tools_report.cpp
            ${CMAKE_CURRENT_SOURCE_DIR}/test_tools_regions.cpp
            ${PROJECT_SOURCE_DIR}/tools/irf_report/tools_common.cpp
            ${PROJECT_SOURCE_DIR}/tools/irf_report/tools_merge.cpp
            ${PROJECT_SOURCE_DIR}/tools/irf_report/tools_compare.cpp
            ${PROJECT_SOURCE_DIR}/tools/irf_report/tools_csv.cpp
            ${PROJECT_SOURCE_DIR}/tools/irf_report/tools_csv_regions.cpp
    LIBS irf_model irf_config CLI11::CLI11)

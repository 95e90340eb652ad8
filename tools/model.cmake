# SPDX-License-Identifier: Apache-2.0
# model area: `irf-report analyze`.
target_sources(irf-report PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/irf_report/cmd_analyze.cpp)

# SPDX-License-Identifier: Apache-2.0
# ceilings area: `irf-report ceilings [NAME|FILE]`.
target_sources(irf-report PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/irf_report/cmd_ceilings.cpp)

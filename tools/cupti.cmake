# SPDX-License-Identifier: Apache-2.0
# cupti area: `irf-report metrics` (links irf_cupti's host-API facade; an accepted exception to
# tools -> model, config, see docs/metrics.md).
target_sources(irf-report PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/irf_report/cmd_metrics.cpp)
target_link_libraries(irf-report PRIVATE irf_cupti)

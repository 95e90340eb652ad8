# SPDX-License-Identifier: Apache-2.0
# cupti area: the canonical-counter -> CUPTI metric tables (plain data, no CUPTI headers).
target_sources(irf_config PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/metric_sets.cpp)

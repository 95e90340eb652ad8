# SPDX-License-Identifier: Apache-2.0
# `irf-report analyze` end to end on hand-written profiles (tests/data/model/).
irf_add_gtest(NAME test_model_analyze LABEL integration
    SOURCES test_model_analyze.cpp
    LIBS nlohmann_json::nlohmann_json
    DEFS IRF_REPORT_BIN="$<TARGET_FILE:irf-report>")
add_dependencies(test_model_analyze irf-report)

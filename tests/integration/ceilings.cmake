# SPDX-License-Identifier: Apache-2.0
# ceilings: irf-calibrate without a device (one-line error, --help, --list, --only) and
# `irf-report ceilings`.
irf_add_gtest(NAME test_ceilings_cli LABEL integration SOURCES test_ceilings_cli.cpp
    LIBS irf_config
    DEFS IRF_CALIBRATE_BIN="$<TARGET_FILE:irf-calibrate>" IRF_REPORT_BIN="$<TARGET_FILE:irf-report>")
add_dependencies(test_ceilings_cli irf-calibrate irf-report)

# SPDX-License-Identifier: Apache-2.0
# reliability unit tests: collector under concurrent and late launches, atomic output against
# planted symlinks and full disks, bounded reads, and source checks (no shelling out, no
# environment text as a format string).
irf_add_gtest(NAME test_fault_unit LABEL unit
    SOURCES test_fault_collector.cpp test_fault_file_io.cpp test_fault_source.cpp
    LIBS irf_intercept irf_model)

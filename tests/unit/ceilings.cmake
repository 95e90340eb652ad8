# SPDX-License-Identifier: Apache-2.0
# ceilings: schema parser/validator/writer and the shipped GPU database.
irf_add_gtest(NAME test_ceilings_yaml LABEL unit SOURCES test_ceilings_yaml.cpp test_ceilings_hostile.cpp
    LIBS irf_config)
irf_add_gtest(NAME test_ceilings_database LABEL unit SOURCES test_ceilings_database.cpp
    LIBS irf_config)
# irf-calibrate's host logic that needs no device (selection, identity), built from its sources.
irf_add_gtest(NAME test_ceilings_calibrate LABEL unit
    SOURCES test_ceilings_calibrate.cpp
            ${PROJECT_SOURCE_DIR}/calibrate/selection.cpp
            ${PROJECT_SOURCE_DIR}/calibrate/identity.cpp
    LIBS irf_config)

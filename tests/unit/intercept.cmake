# SPDX-License-Identifier: Apache-2.0
# intercept unit tests: IRF_* parsing and stems, filters, sampler, collector, fake script.
irf_add_gtest(NAME test_env LABEL unit SOURCES test_env.cpp test_env_stem.cpp LIBS irf_config)
irf_add_gtest(NAME test_intercept LABEL unit
    SOURCES test_intercept_filter.cpp test_intercept_sampler.cpp test_intercept_collector.cpp
        test_intercept_collector_hazards.cpp test_intercept_default_exclude.cpp
    LIBS irf_intercept)
if(TARGET irf_fake)
    irf_add_gtest(NAME test_intercept_fake LABEL unit
        SOURCES test_intercept_fake_script.cpp LIBS irf_fake)
endif()

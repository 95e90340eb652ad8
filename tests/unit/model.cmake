# SPDX-License-Identifier: Apache-2.0
# Unit tests of the model (formulas against hand-computed values, JSON, text summary).
irf_add_gtest(NAME test_model LABEL unit
    SOURCES test_model_irm.cpp test_model_walls.cpp test_model_flops.cpp
            test_model_projection.cpp test_model_json.cpp test_model_regions.cpp
    LIBS irf_model)

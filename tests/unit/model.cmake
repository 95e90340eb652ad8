# SPDX-License-Identifier: Apache-2.0
# Unit tests of the model (formulas against hand-computed values, JSON, text summary).
irf_add_gtest(NAME test_model LABEL unit
    SOURCES test_model_irm.cpp test_model_walls.cpp test_model_flops.cpp
            test_model_projection.cpp test_model_projection_binding.cpp
            test_model_measured_ceilings.cpp test_model_tensor.cpp test_model_json.cpp
    LIBS irf_model)
# Issue 18's findings on the shipped ceilings (needs the config library and the source tree).
irf_add_gtest(NAME test_model_findings LABEL unit SOURCES test_model_findings.cpp
    LIBS irf_model irf_config)

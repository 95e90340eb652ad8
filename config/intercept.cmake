# SPDX-License-Identifier: Apache-2.0
# config part of the intercept area: the IRF_* environment (option table, parsing, stems).
target_sources(irf_config PRIVATE env.cpp env_stem.cpp nvtx_expr.cpp)

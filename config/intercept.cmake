# SPDX-License-Identifier: Apache-2.0
# config part of the intercept area: the IRF_* environment (option table, parsing, stems) and
# the RE2 kernel-name regex shared by IRF_KERNELS/IRF_EXCLUDE and the tools' -k.
target_sources(irf_config PRIVATE env.cpp env_stem.cpp kernel_regex.cpp)
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
target_link_libraries(irf_config PUBLIC PkgConfig::RE2)

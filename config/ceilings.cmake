# SPDX-License-Identifier: Apache-2.0
# ceilings: the irf.ceilings/v1 schema (parser, validator, writer), the shipped database
# (gpus/*.yaml, installed to share/irf/gpus) and the fallback derivation.
target_sources(irf_config PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/ceilings_yaml.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/yaml_guard.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/ceilings_rules.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/ceilings_emit.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/ceilings_derive.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/gpu_database.cpp)
# The source tree's database is the last entry of the search path (gpus_dirs), so tools run
# from a build directory find it without installing.
set_property(SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/gpu_database.cpp APPEND PROPERTY
    COMPILE_DEFINITIONS IRF_SOURCE_GPUS_DIR="${CMAKE_CURRENT_SOURCE_DIR}/gpus")
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/gpus/ DESTINATION ${CMAKE_INSTALL_DATADIR}/irf/gpus
    FILES_MATCHING PATTERN "*.yaml")

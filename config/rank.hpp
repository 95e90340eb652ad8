// SPDX-License-Identifier: Apache-2.0
// The MPI rank of this process, read from the launcher's environment (MPI is never linked).
#pragma once

#include <optional>
#include <string>

#include "common/environment.hpp"

namespace irf::config {

/// Looks up an environment variable (common::process_env by default).
using EnvLookup = common::EnvLookup;

/// Variables that carry the rank, in the order they are tried.
inline constexpr const char* k_rank_variables[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                                   "SLURM_PROCID", "MV2_COMM_WORLD_RANK"};

/// The first rank variable holding a non-negative integer, or nullopt outside a parallel job.
[[nodiscard]] std::optional<int> detect_rank(const EnvLookup& env);

/// detect_rank over the process environment.
[[nodiscard]] std::optional<int> detect_rank();

} // namespace irf::config

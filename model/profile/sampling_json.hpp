// SPDX-License-Identifier: Apache-2.0
// A kernel's optional timing and sampling fields in irf.profile/v1 (docs/output-schema.md):
// time_ns.first and .imputed, replay, duration_clusters, sampled_time_share, no_counters,
// collective.
#pragma once

#include <nlohmann/json.hpp>

#include "model/profile/json_reader.hpp"
#include "model/profile/profile.hpp"

namespace irf::model {

/// Writes the fields that say something into `out` (a kernel object with its time_ns).
void add_sampling_fields(const KernelRecord& k, nlohmann::json& out);

/// Reads what add_sampling_fields writes (sampled_time_share is derived, not read).
void read_sampling_fields(const JsonNode& n, KernelRecord& k);

} // namespace irf::model

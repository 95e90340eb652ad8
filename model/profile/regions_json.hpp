// SPDX-License-Identifier: Apache-2.0
// JSON form of NVTX regions (internal to model/; used by profile_json.cpp).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "model/profile/json_reader.hpp"
#include "model/profile/region_types.hpp"

namespace irf::model {

/// A kernel's `regions` array.
[[nodiscard]] nlohmann::json kernel_regions_to_json(const std::vector<KernelRegion>& regions);

/// Reads a kernel's `regions` array.
[[nodiscard]] std::vector<KernelRegion> kernel_regions_from_json(const JsonNode& node);

/// The profile's top-level `regions` array.
[[nodiscard]] nlohmann::json regions_to_json(const std::vector<RegionRecord>& regions);

/// Reads the profile's top-level `regions` array.
[[nodiscard]] std::vector<RegionRecord> regions_from_json(const JsonNode& node);

} // namespace irf::model

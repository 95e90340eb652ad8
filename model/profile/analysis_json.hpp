// SPDX-License-Identifier: Apache-2.0
// JSON form of the analysis records (internal to model/; used by profile_json.cpp).
#pragma once

#include <nlohmann/json.hpp>

#include "model/profile/analysis.hpp"
#include "model/profile/json_reader.hpp"

namespace irf::model {

/// A finite number, or null (the writer never emits NaN or infinity).
[[nodiscard]] nlohmann::json finite_or_null(double value);

/// An optional number: finite_or_null of it, null when absent.
[[nodiscard]] nlohmann::json opt(const std::optional<double>& value);

/// {"l1", "l2", "hbm"} of optional numbers.
[[nodiscard]] nlohmann::json per_level(const PerLevel& levels);

/// Reads {"l1", "l2", "hbm"} (absent or null -> nullopt).
[[nodiscard]] PerLevel per_level_from(const JsonNode& node);

/// One GPU's waves ({blocks, blocks_per_sm, limiter, ..., fill}), or null when not counted.
[[nodiscard]] nlohmann::json one_gpu_waves(const std::optional<WaveCount>& waves);

/// Reads `parent[key]` as one GPU's waves (absent or null: nullopt).
[[nodiscard]] std::optional<WaveCount> one_gpu_waves_from(const JsonNode& parent,
                                                          const std::string& key);

/// A projection's `waves` object: {source, target}, each null when not counted.
[[nodiscard]] nlohmann::json waves_json(const Projection& projection);

/// Reads a projection's `waves` object into `projection` (absent or null: nothing).
void waves_from(const JsonNode& projection_node, Projection& projection);

/// A projection's `l2` object, or null.
[[nodiscard]] nlohmann::json l2_fit_json(const std::optional<L2Fit>& fit);

/// Reads a projection's `l2` object (absent or null: nullopt).
[[nodiscard]] std::optional<L2Fit> l2_fit_from(const JsonNode& projection_node);

/// The `analysis` object of a kernel; absent verdicts are null.
[[nodiscard]] nlohmann::json analysis_to_json(const KernelAnalysis& analysis);

/// Parses an `analysis` object; throws FormatError naming the path.
[[nodiscard]] KernelAnalysis analysis_from_json(const JsonNode& node);

/// The top-level `ceilings_used` object.
[[nodiscard]] nlohmann::json ceilings_used_to_json(const CeilingsUsed& used);

/// Parses `ceilings_used`; throws FormatError naming the path.
[[nodiscard]] CeilingsUsed ceilings_used_from_json(const JsonNode& node);

} // namespace irf::model

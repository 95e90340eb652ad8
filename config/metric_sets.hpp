// SPDX-License-Identifier: Apache-2.0
// Canonical counter -> CUPTI metric names per chip family (plain data, no CUPTI types).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace irf::config {

/// Chip families whose metric names differ (CUPTI 13.0 metric database).
enum class ChipFamily : std::uint8_t { gv100, tu10x, ga100, ga10x, ad10x, gh100, gb100, gb20x };

/// Metric groups: core (hardware counters) and sass (SASS-patched: FP ops, instruction classes,
/// requested bytes, LDSM/LDGSTS/atomic traffic) form the default set; pipe_mix and tensor_types
/// are optional.
enum class MetricGroup : std::uint8_t { core, sass, pipe_mix, tensor_types };

/// One canonical counter (docs/metrics.md) and the CUPTI metrics whose sum gives it.
struct MetricBinding {
    std::string canonical;
    std::vector<std::string> metrics; ///< summed; usually one name
    MetricGroup group = MetricGroup::core;
};

/// The family of a CUPTI chip name ("GH100", "GA102", ...); nullopt when irf has no map for it.
[[nodiscard]] std::optional<ChipFamily> chip_family(std::string_view chip);

/// Short name of a family ("gh100", "ga10x", ...).
[[nodiscard]] std::string_view family_name(ChipFamily family);

/// One CUPTI chip name per family, the chips the metric-set test runs over.
[[nodiscard]] std::vector<std::string> reference_chips();

/// Group name as used on the command line ("core", "sass", "pipe_mix", "tensor_types").
[[nodiscard]] std::string_view group_name(MetricGroup group);

/// The bindings of one group for a family (a canonical counter absent on that chip is omitted).
[[nodiscard]] std::vector<MetricBinding> group_bindings(ChipFamily family, MetricGroup group);

/// The default set (core + fp) plus the optional groups asked for.
[[nodiscard]] std::vector<MetricBinding> metric_bindings(ChipFamily family, bool pipe_mix,
                                                         bool tensor_types);

/// Every CUPTI metric name of `bindings`, each once, in first-use order.
[[nodiscard]] std::vector<std::string> metric_names(const std::vector<MetricBinding>& bindings);

} // namespace irf::config

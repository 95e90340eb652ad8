// SPDX-License-Identifier: Apache-2.0
// The one wording of a whole-number range error, shared by the CLI, IRF_* and YAML checks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace irf::common {

/// "must be a whole number between `min` and `max`", or "must be a whole number, `min` or more"
/// when `max` is absent: the range as people write it, in every tool and variable alike.
[[nodiscard]] std::string whole_number_rule(std::int64_t min,
                                            std::optional<std::uint64_t> max = std::nullopt);

} // namespace irf::common

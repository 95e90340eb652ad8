// SPDX-License-Identifier: Apache-2.0
// Folding identical messages: each distinct text once with how often it came ("... (x12)"), in
// libirf's log, the profile's warnings and the tools' output.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace irf::common {

/// Each distinct text of `texts` once, in the order first seen, with its number of occurrences.
[[nodiscard]] std::vector<std::pair<std::string, std::size_t>>
count_repeats(const std::vector<std::string>& texts);

/// " (xN)" for a text that came N > 1 times, "" for one that came once.
[[nodiscard]] std::string repeat_suffix(std::size_t times);

} // namespace irf::common

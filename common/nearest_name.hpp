// SPDX-License-Identifier: Apache-2.0
// "did you mean ...?" for a mistyped name: one rule for GPU entries, subcommands and options.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace irf::common {

/// `s` with ASCII letters in lower case (case-blind matching of names).
[[nodiscard]] std::string lowercase(std::string s);

/// Edits (insert, delete, substitute one character) that turn `a` into `b`, case-blind.
[[nodiscard]] std::size_t edit_distance(const std::string& a, const std::string& b);

/// "; did you mean NAME?" for a mistyped `item`: the known names that begin with it (up to
/// three: "h200" -> h200-sxm, "h100" -> "h100-pcie or h100-sxm5"), else the nearest one by
/// edits (at most a third of its characters off, and at least two allowed), else "".
[[nodiscard]] std::string did_you_mean(const std::string& item,
                                       const std::vector<std::string>& known);

} // namespace irf::common

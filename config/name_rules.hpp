// SPDX-License-Identifier: Apache-2.0
// Internal to config/: the shapes of names and small fields in a ceilings YAML, checked with
// plain character loops. std::regex recursed once per character and overflowed the stack on a
// 50,000-character key (issue #39 item 1, docs/reliability.md), so none is used here.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace irf::config::rules {

/// The longest gpu.key or ceilings.details name accepted (names in the shipped database are
/// under 40 characters).
inline constexpr std::size_t k_max_name_length = 64;

/// True for a gpu.key: [a-z0-9][a-z0-9.-]*, at most k_max_name_length characters.
[[nodiscard]] bool is_gpu_key(std::string_view text) noexcept;

/// True for a ceilings.details name: [a-z][a-z0-9_]*, at most k_max_name_length characters.
[[nodiscard]] bool is_detail_name(std::string_view text) noexcept;

/// True for a compute capability: [0-9]{1,2}\.[0-9] ("9.0", "10.0").
[[nodiscard]] bool is_compute_capability(std::string_view text) noexcept;

/// True for an ISO date: YYYY-MM or YYYY-MM-DD (digits only, no range check).
[[nodiscard]] bool is_iso_date(std::string_view text) noexcept;

/// True for 1 to `max_digits` decimal digits and nothing else.
[[nodiscard]] bool is_digits(std::string_view text, std::size_t max_digits) noexcept;

/// `text` quoted for an error line: at most 80 characters, then "..." and the full length, so
/// a hostile 50,000-character value never floods the one line that names it.
[[nodiscard]] std::string quoted_for_error(std::string_view text);

} // namespace irf::config::rules

// SPDX-License-Identifier: Apache-2.0
// Parts of the HTML page's data shared by its two source files (html_page_data.cpp,
// html_page_figures.cpp); not used elsewhere.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/irf_report/html_page.hpp"

namespace irf::report {

/// The value at JSON pointer `pointer` in `j`, or null when any step of it is absent.
inline nlohmann::json json_at(const nlohmann::json& j, const char* pointer) {
    const nlohmann::json::json_pointer p(pointer);
    return j.contains(p) ? j.at(p) : nlohmann::json();
}

/// Characters of a kernel name the page keeps: the tools match names on their first 4096
/// (docs/tools.md, "Kernel regexes"), so a filter matches there as in irf run -k.
inline constexpr std::size_t k_page_name_chars = 4096;

/// `name` cut to k_page_name_chars UTF-8 characters (a 4 MiB name made a 16 MiB page).
std::string page_name(const std::string& name);

/// Rounds every non-integer number in `j` to `digits` significant digits (the page shows 3).
void round_numbers(nlohmann::json& j, int digits);

/// Adds `projection`, `ranks`, `regions` and `trajectory` to `data` from the profile JSON `p`;
/// `order` lists kernel indices longest first (a kernel's row is its position there).
void add_figure_data(nlohmann::json& data, const nlohmann::json& p,
                     const std::vector<std::size_t>& order,
                     const std::optional<nlohmann::json>& trajectory, const PageLimits& limits);

} // namespace irf::report

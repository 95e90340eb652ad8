// SPDX-License-Identifier: Apache-2.0
#include "config/name_rules.hpp"

#include "common/text_safety.hpp"

namespace irf::config::rules {
namespace {

bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}
bool is_lower(char c) noexcept {
    return c >= 'a' && c <= 'z';
}

// True when every character of `text` from `from` on is a digit, a lower-case letter or one of
// `extra`.
bool rest_is(std::string_view text, std::size_t from, std::string_view extra) noexcept {
    for (std::size_t i = from; i < text.size(); ++i) {
        const char c = text[i];
        if (!is_digit(c) && !is_lower(c) && extra.find(c) == std::string_view::npos) {
            return false;
        }
    }
    return true;
}

} // namespace

bool is_gpu_key(std::string_view text) noexcept {
    return !text.empty() && text.size() <= k_max_name_length &&
           (is_digit(text[0]) || is_lower(text[0])) && rest_is(text, 1, ".-");
}

bool is_detail_name(std::string_view text) noexcept {
    return !text.empty() && text.size() <= k_max_name_length && is_lower(text[0]) &&
           rest_is(text, 1, "_");
}

bool is_digits(std::string_view text, std::size_t max_digits) noexcept {
    if (text.empty() || text.size() > max_digits) {
        return false;
    }
    for (const char c : text) {
        if (!is_digit(c)) {
            return false;
        }
    }
    return true;
}

bool is_compute_capability(std::string_view text) noexcept {
    const auto dot = text.find('.');
    return dot != std::string_view::npos && is_digits(text.substr(0, dot), 2) &&
           text.size() == dot + 2 && is_digit(text[dot + 1]);
}

bool is_iso_date(std::string_view text) noexcept {
    const bool month = text.size() >= 7 && is_digits(text.substr(0, 4), 4) && text[4] == '-' &&
                       is_digits(text.substr(5, 2), 2);
    if (!month || text.size() == 7) {
        return month;
    }
    return text.size() == 10 && text[7] == '-' && is_digits(text.substr(8, 2), 2);
}

std::string quoted_for_error(std::string_view text) {
    constexpr std::size_t k_shown = 80;
    if (common::utf8_length(text) <= k_shown) {
        return "'" + std::string(text) + "'";
    }
    return "'" + common::utf8_prefix(text, k_shown) + "...' (" + std::to_string(text.size()) +
           " bytes)";
}

} // namespace irf::config::rules

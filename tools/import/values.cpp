// SPDX-License-Identifier: Apache-2.0
// Cell values of ncu and nvprof exports (docs/import.md, "Quirks" and "Units").
#include "tools/import/values.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

namespace irf::import {
namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// "4,621,492" -> "4621492": each separator must be followed by exactly three digits, so a
// list such as "1,2" is not taken for a number.
std::optional<std::string> without_separators(std::string_view text) {
    std::string out;
    std::size_t digits_since_comma = 0;
    bool seen_comma = false;
    bool in_fraction = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == ',') {
            if (in_fraction || (seen_comma && digits_since_comma != 3) || digits_since_comma == 0) {
                return std::nullopt;
            }
            seen_comma = true;
            digits_since_comma = 0;
            continue;
        }
        if (c == '.' || c == 'e' || c == 'E') {
            if (seen_comma && !in_fraction && digits_since_comma != 3) {
                return std::nullopt;
            }
            in_fraction = true;
        }
        digits_since_comma += is_digit(c) ? 1 : 0;
        out += c;
    }
    if (seen_comma && !in_fraction && digits_since_comma != 3) {
        return std::nullopt;
    }
    return out;
}

// Skips the digits at text[i]; returns how many there were.
std::size_t skip_digits(std::string_view text, std::size_t& i) {
    const std::size_t start = i;
    while (i < text.size() && is_digit(text[i])) {
        ++i;
    }
    return i - start;
}

// [sign] digits [. digits] [(e|E) [sign] digits], digits on at least one side of the point:
// strtod alone would also read "0x10" as 16, and "inf" or "nan" (issue 52 item 5).
bool is_decimal(std::string_view text) {
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
        ++i;
    }
    std::size_t digits = skip_digits(text, i);
    if (i < text.size() && text[i] == '.') {
        ++i;
        digits += skip_digits(text, i);
    }
    if (digits == 0) {
        return false;
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
            ++i;
        }
        if (skip_digits(text, i) == 0) {
            return false;
        }
    }
    return i == text.size();
}

std::string_view trimmed_value(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
        text.remove_suffix(1);
    }
    return text;
}

using Factors = std::map<std::string, double, std::less<>>;

const Factors& time_factors() {
    static const Factors f = {{"nsecond", 1},   {"ns", 1},   {"usecond", 1e3}, {"us", 1e3},
                              {"msecond", 1e6}, {"ms", 1e6}, {"second", 1e9},  {"s", 1e9}};
    return f;
}

const Factors& byte_factors() {
    // ncu's prefixes are decimal (Kbyte = 1000 bytes); nvprof writes B, KB, MB, GB.
    static const Factors f = {{"byte", 1},    {"Kbyte", 1e3},  {"Mbyte", 1e6},
                              {"Gbyte", 1e9}, {"Tbyte", 1e12}, {"B", 1},
                              {"KB", 1e3},    {"MB", 1e6},     {"GB", 1e9}};
    return f;
}

const Factors& frequency_factors() {
    static const Factors f = {{"hz", 1},
                              {"Hz", 1},
                              {"Khz", 1e3},
                              {"kHz", 1e3},
                              {"Mhz", 1e6},
                              {"MHz", 1e6},
                              {"Ghz", 1e9},
                              {"GHz", 1e9},
                              {"cycle/second", 1},
                              {"cycle/msecond", 1e3},
                              {"cycle/usecond", 1e6},
                              {"cycle/nsecond", 1e9}};
    return f;
}

std::optional<double> count_factor(std::string_view unit) {
    // Counts carry their thing as unit ("inst", "sector", "warp"), which ncu may scale with a
    // prefix ("Kinst", "Msector"). Anything else (a rate, share, time or size, "Kbyte" too, or
    // a unit irf does not know) is not a count: taken as x1 it would be a wrong number.
    static const std::set<std::string_view> things = {
        "inst",  "instruction", "sector", "request",     "wavefront", "warp", "thread",
        "block", "cycle",       "op",     "transaction", "event",     "count"};
    static const std::map<char, double> prefixes = {
        {'K', 1e3}, {'M', 1e6}, {'G', 1e9}, {'T', 1e12}};
    if (things.count(unit) > 0) {
        return 1.0;
    }
    if (unit.size() > 1 && things.count(unit.substr(1)) > 0) {
        if (const auto it = prefixes.find(unit[0]); it != prefixes.end()) {
            return it->second;
        }
    }
    return std::nullopt;
}

std::optional<double> look_up(const Factors& factors, std::string_view unit) {
    const auto it = factors.find(unit);
    return it == factors.end() ? std::nullopt : std::optional<double>(it->second);
}

} // namespace

CellValue parse_cell(std::string_view text) {
    text = trimmed_value(text);
    if (text.empty() || text == "n/a" || text == "N/A" || text == "-") {
        return {CellValue::Status::absent, 0};
    }
    const auto plain = without_separators(text);
    if (!plain || !is_decimal(*plain)) {
        return {};
    }
    errno = 0;
    char* end = nullptr;
    const double value = std::strtod(plain->c_str(), &end);
    if (end != plain->c_str() + plain->size() || errno == ERANGE || !std::isfinite(value)) {
        return {};
    }
    return {CellValue::Status::number, value};
}

std::optional<double> unit_factor(config::ForeignKind kind, std::string_view unit) {
    unit = trimmed_value(unit);
    if (unit.empty()) {
        return 1.0;
    }
    switch (kind) {
    case config::ForeignKind::time:
        return look_up(time_factors(), unit);
    case config::ForeignKind::bytes:
        return look_up(byte_factors(), unit);
    case config::ForeignKind::frequency:
        return look_up(frequency_factors(), unit);
    case config::ForeignKind::count:
        return count_factor(unit);
    case config::ForeignKind::percent:
        return unit == "%" ? std::optional<double>(1.0) : std::nullopt;
    }
    return std::nullopt;
}

std::optional<std::array<std::uint32_t, 3>> parse_dim3(std::string_view text) {
    text = trimmed_value(text);
    if (!text.empty() && (text.front() == '(' || text.front() == '[')) {
        text.remove_prefix(1);
        if (text.empty() || (text.back() != ')' && text.back() != ']')) {
            return std::nullopt;
        }
        text.remove_suffix(1);
    }
    std::array<std::uint32_t, 3> dims{1, 1, 1};
    std::size_t index = 0;
    while (true) {
        const std::size_t comma = text.find(',');
        const std::string_view part = trimmed_value(text.substr(0, comma));
        if (index >= 3 || part.empty() || part.size() > 10) {
            return std::nullopt;
        }
        std::uint64_t value = 0;
        for (const char c : part) {
            if (!is_digit(c)) {
                return std::nullopt;
            }
            value = value * 10 + static_cast<std::uint64_t>(c - '0');
        }
        if (value == 0 || value > 0xffffffffull) {
            return std::nullopt;
        }
        dims[index++] = static_cast<std::uint32_t>(value);
        if (comma == std::string_view::npos) {
            return dims;
        }
        text.remove_prefix(comma + 1);
    }
}

} // namespace irf::import

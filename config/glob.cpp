// SPDX-License-Identifier: Apache-2.0
#include "config/glob.hpp"

#include <cstddef>

namespace irf::config {
namespace {

/// Where the bracket expression starting at pattern[at] == '[' ends (one past its ']'), or 0
/// when it has no ']' (then '[' is a literal). A ']' right after '[' or '[!' is a member.
std::size_t bracket_end(std::string_view pattern, std::size_t at) noexcept {
    std::size_t i = at + 1;
    if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) {
        ++i;
    }
    if (i < pattern.size() && pattern[i] == ']') {
        ++i;
    }
    for (; i < pattern.size(); ++i) {
        if (pattern[i] == '\\' && i + 1 < pattern.size()) {
            ++i;
        } else if (pattern[i] == ']') {
            return i + 1;
        }
    }
    return 0;
}

/// True when byte `c` is in the bracket expression pattern[at, end).
bool in_bracket(std::string_view pattern, std::size_t at, std::size_t end, char c) noexcept {
    std::size_t i = at + 1;
    const bool negated = pattern[i] == '!' || pattern[i] == '^';
    i += negated ? 1 : 0;
    bool found = false;
    for (bool first = true; i + 1 < end; first = false) {
        if (pattern[i] == ']' && !first) {
            break;
        }
        char low = pattern[i] == '\\' ? pattern[++i] : pattern[i];
        ++i;
        char high = low;
        if (i + 1 < end && pattern[i] == '-' && pattern[i + 1] != ']') {
            high = pattern[i + 1] == '\\' && i + 2 < end ? pattern[i + 2] : pattern[i + 1];
            i += pattern[i + 1] == '\\' ? 3 : 2;
        }
        const auto u = static_cast<unsigned char>(c);
        found = found ||
                (u >= static_cast<unsigned char>(low) && u <= static_cast<unsigned char>(high));
    }
    return found != negated;
}

/// Matches one pattern element (a literal, '?', '\x' or a bracket) at pattern[p] against `c`;
/// returns the position after the element, or 0 when `c` does not match.
std::size_t match_one(std::string_view pattern, std::size_t p, char c) noexcept {
    const char head = pattern[p];
    if (head == '?') {
        return p + 1;
    }
    if (head == '[') {
        const std::size_t end = bracket_end(pattern, p);
        if (end != 0) {
            return in_bracket(pattern, p, end, c) ? end : 0;
        }
    }
    if (head == '\\') { // a trailing '\' escapes nothing and matches nothing, as in fnmatch
        return p + 1 < pattern.size() && pattern[p + 1] == c ? p + 2 : 0;
    }
    return head == c ? p + 1 : 0;
}

} // namespace

bool glob_matches(std::string_view pattern, std::string_view text) noexcept {
    // The classic one-star backtrack: on a mismatch only the last '*' takes one more byte.
    // Earlier stars never need to, so the cost is at most pattern x text steps.
    std::size_t p = 0;
    std::size_t t = 0;
    std::size_t star = std::string_view::npos;
    std::size_t star_text = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star = ++p;
            star_text = t;
            continue;
        }
        const std::size_t next = p < pattern.size() ? match_one(pattern, p, text[t]) : 0;
        if (next != 0) {
            p = next;
            ++t;
        } else if (star != std::string_view::npos) {
            p = star;
            t = ++star_text;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') {
        ++p;
    }
    return p == pattern.size();
}

} // namespace irf::config

// SPDX-License-Identifier: Apache-2.0
// UTF-8 validation, replacement, terminal escaping and safe truncation.
#include "common/text_safety.hpp"

#include <algorithm>

#include <cstdint>
#include <cstdio>

namespace irf::common {
namespace {

bool continuation(unsigned char c) noexcept {
    return (c & 0xC0u) == 0x80u;
}

/// The code point of the valid sequence of `length` bytes at `pos`.
std::uint32_t decode(std::string_view text, std::size_t pos, std::size_t length) noexcept {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[pos + i]); };
    if (length == 1) {
        return byte(0);
    }
    std::uint32_t cp = byte(0) & (0xFFu >> (length + 1));
    for (std::size_t i = 1; i < length; ++i) {
        cp = (cp << 6) | (byte(i) & 0x3Fu);
    }
    return cp;
}

/// Characters a terminal would act on rather than show: C0 controls, DEL, C1 controls (which
/// some terminals take as CSI/OSC), the Unicode line and paragraph separators and the
/// bidirectional embedding/override/isolate controls (text that reads differently than it is).
bool needs_escape(std::uint32_t cp) noexcept {
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/// "\xNN" for a byte, "\uNNNN" for a code point.
std::string hex_escape(std::uint32_t value, bool byte) {
    char buffer[16];
    if (byte) {
        std::snprintf(buffer, sizeof buffer, "\\x%02X", static_cast<unsigned>(value));
    } else {
        std::snprintf(buffer, sizeof buffer, "\\u%04X", static_cast<unsigned>(value));
    }
    return buffer;
}

std::string escape(std::uint32_t cp) {
    switch (cp) {
    case '\n':
        return "\\n";
    case '\r':
        return "\\r";
    case '\t':
        return "\\t";
    default:
        break;
    }
    return hex_escape(cp, cp < 0x80);
}

} // namespace

std::size_t utf8_sequence_length(std::string_view text, std::size_t pos) noexcept {
    const auto c = static_cast<unsigned char>(text[pos]);
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF; // allowed range of the second byte
    if (c < 0x80) {
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        length = 3;
        low = c == 0xE0 ? 0xA0 : 0x80;  // no overlong forms
        high = c == 0xED ? 0x9F : 0xBF; // no UTF-16 surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
        length = 4;
        low = c == 0xF0 ? 0x90 : 0x80;  // no overlong forms
        high = c == 0xF4 ? 0x8F : 0xBF; // nothing above U+10FFFF
    } else {
        return 0;
    }
    if (pos + length > text.size()) {
        return 0;
    }
    const auto second = static_cast<unsigned char>(text[pos + 1]);
    if (second < low || second > high) {
        return 0;
    }
    for (std::size_t i = 2; i < length; ++i) {
        if (!continuation(static_cast<unsigned char>(text[pos + i]))) {
            return 0;
        }
    }
    return length;
}

std::string valid_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_sequence_length(text, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
            ++i;
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_sequence_length(text, i);
        if (n == 0) {
            out += hex_escape(static_cast<unsigned char>(text[i]), true); // invalid byte
            ++i;
            continue;
        }
        const std::uint32_t cp = decode(text, i, n);
        if (needs_escape(cp)) {
            out += escape(cp);
        } else {
            out.append(text.substr(i, n));
        }
        i += n;
    }
    return out;
}

std::string utf8_prefix(std::string_view text, std::size_t max_chars) {
    std::size_t end = 0;
    for (std::size_t chars = 0; end < text.size() && chars < max_chars; ++chars) {
        const std::size_t n = utf8_sequence_length(text, end);
        end += n == 0 ? 1 : n;
    }
    return std::string(text.substr(0, end));
}

std::size_t utf8_length(std::string_view text) noexcept {
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size(); ++chars) {
        const std::size_t n = utf8_sequence_length(text, i);
        i += n == 0 ? 1 : n;
    }
    return chars;
}

std::string markdown_text(std::string_view text) {
    // Backslash escapes work for any ASCII punctuation in CommonMark and GFM: '|' would end a
    // table cell, '`' open a code span, '<' start HTML, '&' an entity, '\' escape the next one.
    std::string out;
    for (const char c : printable(text)) {
        if (c == '\\' || c == '`' || c == '|' || c == '<' || c == '&') {
            out += '\\';
        }
        out += c;
    }
    return out;
}

std::string markdown_code(std::string_view text) {
    // A code span shows its content as it is ('<', '*', '_' stay literal). Its fence is one
    // backtick longer than the longest run inside; '|' still needs "\|" inside a GFM table.
    const std::string shown = printable(text);
    std::size_t longest = 0;
    std::size_t run = 0;
    std::string body;
    for (const char c : shown) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
        body += c == '|' ? std::string("\\|") : std::string(1, c);
    }
    const std::string fence(longest + 1, '`');
    const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
    return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

} // namespace irf::common

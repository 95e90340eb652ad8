// SPDX-License-Identifier: Apache-2.0
// Text from the outside (names, argv, environment, file names) made safe for the places irf
// writes it: JSON (valid UTF-8), terminals and logs (no control characters), fixed-width
// columns (no cut inside a UTF-8 sequence). Pure C++17, no dependencies.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace irf::common {

/// Length in bytes of the valid UTF-8 sequence starting at `text[pos]` (1 to 4), or 0 when the
/// bytes there are not valid UTF-8 (stray continuation, overlong form, surrogate, > U+10FFFF,
/// truncated sequence).
[[nodiscard]] std::size_t utf8_sequence_length(std::string_view text, std::size_t pos) noexcept;

/// `text` with every byte that is not part of valid UTF-8 replaced by U+FFFD, as JSON needs.
[[nodiscard]] std::string valid_utf8(std::string_view text);

/// `text` safe to print on one terminal or log line: control characters (C0, DEL, C1), line
/// and paragraph separators, bidirectional overrides and invalid bytes are written as escapes
/// (`\n`, `\r`, `\t`, `\xNN`, `\uNNNN`); printable UTF-8 is kept as it is.
[[nodiscard]] std::string printable(std::string_view text);

/// The longest prefix of `text` with at most `max_chars` UTF-8 characters, never ending inside
/// a sequence (invalid bytes count as one character each).
[[nodiscard]] std::string utf8_prefix(std::string_view text, std::size_t max_chars);

/// Number of characters of `text` as utf8_prefix counts them.
[[nodiscard]] std::size_t utf8_length(std::string_view text) noexcept;

/// `text` for a Markdown table cell or line: printable(), then '\\', '`', '|', '<' and '&'
/// backslash-escaped, so a name can neither end the cell nor open a code span, HTML or entity.
[[nodiscard]] std::string markdown_text(std::string_view text);

/// `text` as a Markdown code span for a table cell: printable(), '|' as "\\|", fenced by one
/// backtick more than the longest run of backticks inside (CommonMark code spans).
[[nodiscard]] std::string markdown_code(std::string_view text);

} // namespace irf::common

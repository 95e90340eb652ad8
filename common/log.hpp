// SPDX-License-Identifier: Apache-2.0
// irf's stderr log: one "[irf] " line per message, filtered by IRF_LOG.
#pragma once

#include <cstdint>
#include <string>

namespace irf::common {

/// How much irf logs to stderr (every line prefixed "[irf] ").
enum class LogLevel : std::uint8_t { error, warn, info, debug };

/// Sets the most verbose level that is printed (IRF_LOG).
void set_log_level(LogLevel level) noexcept;

/// Prints nothing from now on, at any level (stderr no longer goes where it went at start).
void mute_log() noexcept;

/// True when a message at `level` would be printed.
[[nodiscard]] bool log_enabled(LogLevel level) noexcept;

/// Writes "[irf] message\n" ("[irf] error: message\n" at LogLevel::error) to stderr in one
/// write(2) when `level` is enabled; a message that already starts with "[irf] " (or "error: ")
/// is not prefixed twice; control characters and invalid UTF-8 in it are escaped (printable,
/// common/text_safety.hpp), so it stays one line. A warning or error identical to one already
/// written is only counted (log_repeats prints the counts). Never throws.
void log_line(LogLevel level, const std::string& message) noexcept;

/// Writes "[irf] message (xN)" once for each warning or error that came N > 1 times since the
/// last call, then forgets them (libirf calls it at exit). Never throws.
void log_repeats() noexcept;

} // namespace irf::common

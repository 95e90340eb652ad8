// SPDX-License-Identifier: Apache-2.0
// Atomic file output: readers never see a half-written profile.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace irf::common {

/// The one writer of every file irf and its tools write (DESIGN.md section 7). A new name or a
/// regular file is written via a temporary in the same directory and rename(2), so the file
/// either keeps its old content or has the new one; the temporary is created with O_EXCL (never
/// through a planted symlink) and the process umask. What exists and is not a regular file is
/// never replaced: /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are written to that
/// descriptor; a FIFO or character device (also behind a symlink) is written through, opened
/// without blocking, given up (an error) when its reader is absent, goes away (no SIGPIPE) or
/// takes nothing for 2 s, or after 30 s in all; any other symlink, a socket or a block device is
/// refused. Returns "" on success, otherwise a one-line reason naming the path. Never throws.
/// `on_temporary`, when given, is told the temporary's name once it exists and nullptr once it is
/// gone (renamed or removed), so that a signal handler abandoning the write can remove it.
[[nodiscard]] std::string write_file_atomic(const std::string& path, const std::string& content,
                                            void (*on_temporary)(const char*) = nullptr) noexcept;

/// Takes one part of a file's content (write_file_atomic_streamed).
using EmitPart = std::function<void(std::string_view part)>;

/// write_file_atomic for content made in parts: `produce` calls its argument with each part in
/// order. A regular file is written part by part, so the whole content is never in memory (a
/// profile of 100,000 kernels is gigabytes of text); a descriptor, FIFO or device gets the parts
/// joined. The same guarantees and one-line errors; an exception of `produce` fails the write
/// and leaves nothing behind. Never throws.
[[nodiscard]] std::string
write_file_atomic_streamed(const std::string& path,
                           const std::function<void(const EmitPart&)>& produce,
                           void (*on_temporary)(const char*) = nullptr) noexcept;

/// Reads a whole regular file into `out`; returns "" on success, otherwise a one-line reason.
/// Files larger than `max_bytes` are refused (bounded memory for hostile input); FIFOs, sockets
/// and devices are refused without blocking ("not a regular file").
[[nodiscard]] std::string read_file_bounded(const std::string& path, std::string& out,
                                            std::size_t max_bytes = 1ull << 30) noexcept;

} // namespace irf::common

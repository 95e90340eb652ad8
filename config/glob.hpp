// SPDX-License-Identifier: Apache-2.0
// Shell-style globs for NVTX range names (docs/regions.md): '*', '?', '[...]' and '\' escapes,
// matched in O(pattern x text) time without recursion. glibc's fnmatch tries every split for
// each '*' and takes exponential time on patterns such as '*a*a*a*a*b' (issue #39 item 2).
#pragma once

#include <string_view>

namespace irf::config {

/// True when `pattern` matches the whole of `text`, byte by byte, as fnmatch(3) with no flags
/// does: '*' any bytes ('/' included), '?' one byte, '[a-z]' / '[!a-z]' / '[^a-z]' one byte of
/// (not of) the set, '\x' the byte x. A '[' without its ']' is a literal '['; a trailing '\'
/// matches nothing.
[[nodiscard]] bool glob_matches(std::string_view pattern, std::string_view text) noexcept;

} // namespace irf::config

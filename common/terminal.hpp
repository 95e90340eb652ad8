// SPDX-License-Identifier: Apache-2.0
// How wide the terminal a table is printed to is (issue #53 item 10: the kernel table fits it).
#pragma once

#include <cstddef>

namespace irf::common {

/// The width to fit text written to `fd`: $COLUMNS when set to a whole number (0 = no limit),
/// else the terminal's width when `fd` is a terminal, else 0 (a file or a pipe: no limit).
[[nodiscard]] std::size_t terminal_columns(int fd);

} // namespace irf::common

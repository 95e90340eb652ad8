// SPDX-License-Identifier: Apache-2.0
// printf-style formatting into a std::string of any length (tables whose rows grow with the
// name column's width).
#pragma once

#include <string>

namespace irf::common {

/// `fmt` formatted with the arguments, as std::snprintf would, however long the result.
[[nodiscard]] std::string string_printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

} // namespace irf::common

// SPDX-License-Identifier: Apache-2.0
#include "common/string_printf.hpp"

#include <cstdarg>
#include <cstdio>

namespace irf::common {

std::string string_printf(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    va_list again;
    va_copy(again, args);
    const int length = std::vsnprintf(nullptr, 0, fmt, args);
    va_end(args);
    std::string out;
    if (length > 0) {
        out.resize(static_cast<std::size_t>(length) + 1);
        std::vsnprintf(out.data(), out.size(), fmt, again);
        out.resize(static_cast<std::size_t>(length));
    }
    va_end(again);
    return out;
}

} // namespace irf::common

// SPDX-License-Identifier: Apache-2.0
// Kernel symbol names as people read them.
#pragma once

#include <string>

namespace irf::common {

/// The demangled form of a kernel symbol (abi::__cxa_demangle); the input itself when it is not
/// a mangled C++ name; "<unknown>" for null or empty input.
[[nodiscard]] std::string demangle(const char* mangled);

} // namespace irf::common

// SPDX-License-Identifier: Apache-2.0
// Kernel symbol names as people read them.
#pragma once

#include <string>

namespace irf::common {

/// The demangled form of a kernel symbol (abi::__cxa_demangle) when it starts with "_Z"; the input
/// itself otherwise (extern "C" names) or when it does not demangle; "<unknown>" for null or "".
[[nodiscard]] std::string demangle(const char* mangled);

} // namespace irf::common

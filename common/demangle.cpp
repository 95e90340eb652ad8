// SPDX-License-Identifier: Apache-2.0
// Kernel symbol demangling.
#include "common/demangle.hpp"

#include <cstdlib>
#include <cstring>
#include <memory>

#include <cxxabi.h>

namespace irf::common {

std::string demangle(const char* mangled) {
    if (mangled == nullptr || *mangled == '\0') {
        return "<unknown>";
    }
    // __cxa_demangle also accepts bare type encodings: an extern "C" kernel "f" would read
    // "float", "Sa" "std::allocator". Only "_Z" names are mangled functions (Itanium C++ ABI).
    if (std::strncmp(mangled, "_Z", 2) != 0) {
        return mangled;
    }
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> out(
        abi::__cxa_demangle(mangled, nullptr, nullptr, &status), &std::free);
    return status == 0 && out ? std::string(out.get()) : std::string(mangled);
}

} // namespace irf::common

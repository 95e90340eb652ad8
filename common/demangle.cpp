// SPDX-License-Identifier: Apache-2.0
// Kernel symbol demangling.
#include "common/demangle.hpp"

#include <cstdlib>
#include <memory>

#include <cxxabi.h>

namespace irf::common {

std::string demangle(const char* mangled) {
    if (mangled == nullptr || *mangled == '\0') {
        return "<unknown>";
    }
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> out(
        abi::__cxa_demangle(mangled, nullptr, nullptr, &status), &std::free);
    return status == 0 && out ? std::string(out.get()) : std::string(mangled);
}

} // namespace irf::common

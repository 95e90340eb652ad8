// SPDX-License-Identifier: Apache-2.0
// Kernel name filters and demangling.
#include "intercept/kernel_filter.hpp"

#include <cstdlib>
#include <memory>

#include <cxxabi.h>

namespace irf::intercept {

std::string demangle(const char* mangled) {
    if (mangled == nullptr || *mangled == '\0') {
        return "<unknown>";
    }
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> out(
        abi::__cxa_demangle(mangled, nullptr, nullptr, &status), &std::free);
    return status == 0 && out ? std::string(out.get()) : std::string(mangled);
}

KernelFilter::KernelFilter(const std::string& kernels, const std::string& exclude) {
    if (!kernels.empty()) {
        m_kernels.emplace(kernels, std::regex::ECMAScript | std::regex::optimize);
    }
    if (!exclude.empty()) {
        m_exclude.emplace(exclude, std::regex::ECMAScript | std::regex::optimize);
    }
}

bool KernelFilter::selects(const std::string& demangled) const {
    if (m_kernels && !std::regex_search(demangled, *m_kernels)) {
        return false;
    }
    return !(m_exclude && std::regex_search(demangled, *m_exclude));
}

} // namespace irf::intercept

// SPDX-License-Identifier: Apache-2.0
// Kernel name filters.
#include "intercept/kernel_filter.hpp"

namespace irf::intercept {

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

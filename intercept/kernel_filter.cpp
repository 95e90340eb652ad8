// SPDX-License-Identifier: Apache-2.0
// Kernel name filters.
#include "intercept/kernel_filter.hpp"

#include <stdexcept>

#include "config/env.hpp"

namespace irf::intercept {

namespace {

std::optional<config::KernelRegex> compile_filter(const std::string& pattern) {
    if (pattern.empty()) {
        return std::nullopt;
    }
    config::KernelRegex re(pattern);
    if (!re.ok()) {
        throw std::invalid_argument(pattern + ": " + re.problem());
    }
    return re;
}

} // namespace

KernelFilter::KernelFilter(const std::string& kernels, const std::string& exclude)
    : m_collectives(config::k_default_exclude), m_kernels(compile_filter(kernels)),
      m_exclude(compile_filter(exclude)) {}

bool KernelFilter::selects(const std::string& demangled) const {
    return refusal(demangled) == Refusal::none;
}

KernelFilter::Refusal KernelFilter::refusal(const std::string& demangled) const {
    if (m_kernels && !m_kernels->search(demangled)) {
        return Refusal::not_matched;
    }
    return m_exclude && m_exclude->search(demangled) ? Refusal::excluded : Refusal::none;
}

bool KernelFilter::collective(const std::string& demangled) const {
    return m_collectives.search(demangled);
}

} // namespace irf::intercept

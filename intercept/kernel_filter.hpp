// SPDX-License-Identifier: Apache-2.0
// Which kernels may be profiled (IRF_KERNELS / IRF_EXCLUDE), decided once per function.
#pragma once

#include <optional>
#include <regex>
#include <string>

namespace irf::intercept {

/// IRF_KERNELS and IRF_EXCLUDE compiled once. Off the hot path: the collector asks once per
/// distinct function and caches the answer.
class KernelFilter {
public:
    /// Empty `kernels` selects every kernel; empty `exclude` excludes none. Throws
    /// std::regex_error on an invalid expression (parse_env has already refused those).
    KernelFilter(const std::string& kernels, const std::string& exclude);

    /// True when `demangled` may be profiled: it matches `kernels` (searched anywhere in the
    /// name) and does not match `exclude`.
    [[nodiscard]] bool selects(const std::string& demangled) const;

private:
    std::optional<std::regex> m_kernels;
    std::optional<std::regex> m_exclude;
};

} // namespace irf::intercept

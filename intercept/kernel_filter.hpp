// SPDX-License-Identifier: Apache-2.0
// Which kernels may be profiled (IRF_KERNELS / IRF_EXCLUDE), decided once per function.
#pragma once

#include <optional>
#include <string>

#include "config/kernel_regex.hpp"

namespace irf::intercept {

/// IRF_KERNELS and IRF_EXCLUDE compiled once. Off the hot path: the collector asks once per
/// distinct function and caches the answer.
class KernelFilter {
public:
    /// Empty `kernels` selects every kernel; empty `exclude` excludes none. Throws
    /// std::invalid_argument on an invalid RE2 expression (parse_env has already refused those).
    KernelFilter(const std::string& kernels, const std::string& exclude);

    /// True when `demangled` may be profiled: `kernels` occurs in its first
    /// config::k_max_matched_name bytes and `exclude` does not. Linear time, no recursion.
    [[nodiscard]] bool selects(const std::string& demangled) const;

    /// Why `demangled` is not selected: the filter that refuses it.
    enum class Refusal { none, not_matched, excluded };
    [[nodiscard]] Refusal refusal(const std::string& demangled) const;

    /// True for a communication kernel: IRF_EXCLUDE's default list (config/env.hpp) matches,
    /// whatever IRF_EXCLUDE is set to.
    [[nodiscard]] bool collective(const std::string& demangled) const;

private:
    config::KernelRegex m_collectives;
    std::optional<config::KernelRegex> m_kernels;
    std::optional<config::KernelRegex> m_exclude;
};

} // namespace irf::intercept

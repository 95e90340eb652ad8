// SPDX-License-Identifier: Apache-2.0
// IRF_NVTX_INCLUDE / IRF_NVTX_EXCLUDE on the launch path: the answer for a push/pop path is
// computed once and cached in the path itself, so a launch pays one load.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "config/nvtx_expr.hpp"

namespace irf::intercept {

/// Decides whether a launch under an NVTX path may be profiled.
class NvtxFilter {
public:
    /// Parses both lists (already validated by parse_env; a bad one here selects nothing).
    NvtxFilter(const std::string& include, const std::string& exclude);

    /// True when a launch under `path` (an nvtx path id) may be profiled.
    [[nodiscard]] bool allows(std::uint32_t path) const noexcept;

private:
    [[nodiscard]] bool compute(std::uint32_t path) const noexcept;

    std::vector<config::NvtxExpr> m_include, m_exclude;
    bool m_active = false;  ///< any expression at all
    bool m_dynamic = false; ///< a start/end expression: the answer depends on the moment
    bool m_valid = true;
    std::uint32_t m_id; ///< tags cached answers, so another filter never reads them
    mutable std::atomic<std::uint32_t> m_root_cache{0};
};

} // namespace irf::intercept

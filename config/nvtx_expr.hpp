// SPDX-License-Identifier: Apache-2.0
// IRF_NVTX_INCLUDE / IRF_NVTX_EXCLUDE expressions: the subset of ncu's --nvtx-include syntax that
// irf supports (docs/regions.md). Pure strings, no NVTX headers.
#pragma once

#include <string>
#include <vector>

namespace irf::config {

/// One parsed expression.
struct NvtxExpr {
    bool push_pop = false;          ///< ends with '/' or ']'; else a start/end range name
    bool bottom = false;            ///< leading '[': the first range is the outermost one
    bool top = false;               ///< trailing ']': the last range is the innermost one
    std::string domain;             ///< "domain@" prefix; "" = the default domain
    std::vector<std::string> parts; ///< range names (globs, config/glob.hpp); "*" = any ranges
};

/// One open push/pop range of a thread's stack.
struct NvtxRange {
    std::string domain; ///< "" = default domain
    std::string name;
};

/// Parses a ';'-separated list; false with `problem` set on a malformed expression.
bool parse_nvtx_list(const std::string& text, std::vector<NvtxExpr>& out, std::string& problem);

/// True when `expr` matches a launch under `stack` (outermost first) while the start/end ranges
/// labelled `open` ("domain@name" or "name") are open.
[[nodiscard]] bool nvtx_matches(const NvtxExpr& expr, const std::vector<NvtxRange>& stack,
                                const std::vector<std::string>& open);

} // namespace irf::config

// SPDX-License-Identifier: Apache-2.0
// Kernel names as every tool and figure shows them (one function, so that irf-report, the
// summary and irf-plot never disagree about what a kernel is called).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace irf::common {

/// How a kernel is named in text output, like ncu's --print-kernel-base.
enum class NameMode {
    function,  ///< innermost name, template arguments folded to "<...>" (the default)
    demangled, ///< the whole demangled signature
    mangled,   ///< the symbol as the driver reported it
};

/// The mode called `text` ("function", "demangled", "mangled"); nullopt for anything else.
[[nodiscard]] std::optional<NameMode> parse_name_mode(std::string_view text);

/// The names of one kernel as a profile stores them.
struct KernelNames {
    std::string demangled;
    std::string mangled; ///< may be empty (then `demangled` stands in for it)
    std::string variant; ///< what tells records of one symbol apart ("g132 b256"); may be empty
};

/// `demangled` reduced to its innermost name with the return type, parameter list and
/// template arguments dropped: "void at::native::(anonymous namespace)::k<float, 4>(float*)"
/// -> "k<...>". Not escaped; use display_names for output.
[[nodiscard]] std::string function_name(std::string_view demangled);

/// One display name per kernel in `mode`, escaped for a terminal and at most `max_chars`
/// characters (0: no limit). The function mode shows the innermost name with the template
/// arguments that tell instances apart ("vectorized_elementwise_kernel<silu>"). Distinct names
/// never share a display name: a colliding group shows more of its names (enclosing scopes,
/// whole template arguments, parameters) until they differ, and records of one symbol get
/// their variant (" [g132 b256]"), then " #n" where that is shared or absent.
[[nodiscard]] std::vector<std::string> display_names(const std::vector<KernelNames>& kernels,
                                                     NameMode mode, std::size_t max_chars = 0);

} // namespace irf::common

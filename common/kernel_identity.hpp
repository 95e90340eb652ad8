// SPDX-License-Identifier: Apache-2.0
// One spelling of a kernel's demangled name, so that the names Nsight Compute and nvprof print
// and the C++ ABI demangler's (libirf, c++filt) of one symbol compare equal (issue #53 item 1;
// docs/tools.md, "Which kernels are the same").
#pragma once

#include <string>
#include <string_view>

namespace irf::common {

/// `demangled` in one canonical spelling, for comparison only (never shown): "<unnamed>" reads
/// "(anonymous namespace)", "[lambda(int) (instance 1)]" reads "{lambda(int)#1}", integer and
/// boolean template arguments lose ncu's casts ("(int)128" -> "128", "(bool)0" -> "false"),
/// ncu's template-parameter placeholders in a parameter list ("T1") become the template's own
/// arguments, a leading "const" moves behind its type ("const float *" -> "float const*"),
/// "__restrict__" goes, and spaces stay only between two identifier characters.
[[nodiscard]] std::string canonical_kernel_name(std::string_view demangled);

/// canonical_kernel_name without the parameter list and return type: the qualified name with
/// its template arguments ("void ns::k<float, 1>(float*)" -> "ns::k<float,1>").
[[nodiscard]] std::string canonical_qualified_name(std::string_view demangled);

} // namespace irf::common

// SPDX-License-Identifier: Apache-2.0
// The parts of a demangled C++ name: scopes, template arguments and the tokens that tell one
// instance of a template from another (issue #41 item 4: names people recognise).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace irf::common {

/// +1 for a character that opens a nesting level of a demangled name ('<', '(', '{', '['),
/// -1 for one that closes it, 0 otherwise.
[[nodiscard]] int nesting(char c);

/// The qualified name of a demangled signature without its return type and parameter list:
/// "void ns::f<int>(float*)" -> "ns::f<int>".
[[nodiscard]] std::string_view qualified_name(std::string_view text);

/// The scopes of a qualified name, split at "::" outside any nesting:
/// "a::(anonymous namespace)::b<c::d>" -> {"a", "(anonymous namespace)", "b<c::d>"}.
[[nodiscard]] std::vector<std::string> scopes(std::string_view name);

/// The top-level arguments of the first template argument list of `scope`, trimmed:
/// "k<4, f<a, b>, x>" -> {"4", "f<a, b>", "x"}; empty when `scope` has no template arguments.
[[nodiscard]] std::vector<std::string> template_arguments(std::string_view scope);

/// `scope` without its template arguments and parameter list: "k<int>(float)" -> "k".
[[nodiscard]] std::string bare_name(std::string_view scope);

/// The tokens of a template argument list that tell instances apart, in order and without
/// repeats: element types ("float", "bf16"), functor and operation names ("silu", "GeluBackward",
/// "FusedAdamMathFunctor"), and generated kernel names that carry tile and layout
/// ("cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4"). Numbers, booleans, namespaces and
/// plumbing types (argument arrays, offset calculators, parameter structs) are left out.
[[nodiscard]] std::vector<std::string> distinguishing_tokens(const std::vector<std::string>& args);

} // namespace irf::common

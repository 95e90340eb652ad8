// SPDX-License-Identifier: Apache-2.0
#include "common/demangled_parts.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace irf::common {
namespace {

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && text.front() == ' ') {
        text.remove_prefix(1);
    }
    while (!text.empty() && text.back() == ' ') {
        text.remove_suffix(1);
    }
    return text;
}

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// "float const*", "const T&" -> "float", "T": qualifiers and pointers say nothing about which
// instance a kernel is.
std::string_view unqualified(std::string_view arg) {
    for (bool changed = true; changed;) {
        changed = false;
        arg = trimmed(arg);
        for (std::string_view suffix : {"*", "&", " const", " volatile", " __restrict__"}) {
            if (ends_with(arg, suffix)) {
                arg.remove_suffix(suffix.size());
                changed = true;
            }
        }
        if (starts_with(arg, "const ")) {
            arg.remove_prefix(6);
            changed = true;
        }
    }
    return arg;
}

// Integer and boolean arguments ("4", "64u", "-1", "(char)1", "true"): tile sizes and flags
// whose meaning the name does not carry.
bool is_value(std::string_view arg) {
    if (arg == "true" || arg == "false") {
        return true;
    }
    if (!arg.empty() && arg.front() == '(') { // an enumerator printed as a cast: "(MODE)1"
        const std::size_t close = arg.find(')');
        arg = close == std::string_view::npos ? std::string_view{} : arg.substr(close + 1);
    }
    if (!arg.empty() && arg.front() == '-') {
        arg.remove_prefix(1);
    }
    return !arg.empty() && std::isdigit(static_cast<unsigned char>(arg.front())) != 0;
}

// "unsigned int", "long", "float": built-in types are kept as they are written.
bool is_builtin_type(std::string_view arg) {
    static constexpr std::array<std::string_view, 9> k_words{
        "unsigned", "signed", "char", "short", "int", "long", "float", "double", "__int128"};
    std::size_t start = 0;
    while (start < arg.size()) {
        std::size_t end = arg.find(' ', start);
        end = end == std::string_view::npos ? arg.size() : end;
        if (std::find(k_words.begin(), k_words.end(), arg.substr(start, end - start)) ==
            k_words.end()) {
            return false;
        }
        start = end + 1;
    }
    return !arg.empty();
}

// The short element-type names of the libraries' own number types (PyTorch c10, CUDA, CUTLASS).
std::string element_type(std::string_view name) {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 14> k_types{{
        {"Half", "half"},
        {"__half", "half"},
        {"half_t", "half"},
        {"BFloat16", "bf16"},
        {"__nv_bfloat16", "bf16"},
        {"bfloat16_t", "bf16"},
        {"tfloat32_t", "tf32"},
        {"float_e4m3_t", "fp8e4m3"},
        {"__nv_fp8_e4m3", "fp8e4m3"},
        {"Float8_e4m3fn", "fp8e4m3"},
        {"float_e5m2_t", "fp8e5m2"},
        {"__nv_fp8_e5m2", "fp8e5m2"},
        {"Float8_e5m2", "fp8e5m2"},
        {"complex", "complex"},
    }};
    for (const auto& [library, shown] : k_types) {
        if (name == library) {
            return std::string(shown);
        }
    }
    return {};
}

// Argument arrays, offset calculators, parameter and metadata structs: the plumbing of a
// kernel, the same for every operation that uses it.
bool is_plumbing(std::string_view name) {
    static constexpr std::array<std::string_view, 13> k_names{"Array",
                                                              "LoadWithoutCast",
                                                              "StoreWithoutCast",
                                                              "LoadWithCast",
                                                              "StoreWithCast",
                                                              "tuple",
                                                              "integral_constant",
                                                              "C",
                                                              "Int",
                                                              "Shape",
                                                              "Stride",
                                                              "Layout",
                                                              "bool"};
    static constexpr std::array<std::string_view, 6> k_suffixes{
        "Params", "ParamsEx", "Metadata", "Calculator", "Arguments", "SizeStride"};
    return name.empty() || std::find(k_names.begin(), k_names.end(), name) != k_names.end() ||
           std::any_of(k_suffixes.begin(), k_suffixes.end(),
                       [&](std::string_view s) { return ends_with(name, s); });
}

// "silu_kernel", "GeluBackwardCUDAKernelImpl", "CUDAFunctor_add" -> "silu", "GeluBackward",
// "add": PyTorch's naming pattern around the operation's own name.
std::string operation_name(std::string name) {
    for (std::string_view prefix : {"CUDAFunctorOnSelf_", "CUDAFunctorOnOther_", "CUDAFunctor_"}) {
        if (starts_with(name, prefix) && name.size() > prefix.size()) {
            name.erase(0, prefix.size());
        }
    }
    for (std::string_view suffix :
         {"CUDAKernelImpl", "KernelImpl", "_kernel_cuda", "_kernel_impl", "_kernel"}) {
        if (ends_with(name, suffix) && name.size() > suffix.size()) {
            name.erase(name.size() - suffix.size());
            break;
        }
    }
    return name;
}

// "{lambda(int)#1}" (the C++ ABI demangler) or "[lambda(int) (instance 1)]" (Nsight Compute's
// and nvcc's own form, as ncu exports print names).
bool is_lambda(std::string_view part) {
    return starts_with(part, "{lambda") || starts_with(part, "[lambda");
}

std::string token(std::string_view argument);

// PyTorch's generic launchers (gpu_kernel_impl, gpu_kernel_impl_nocast) own the lambda of every
// elementwise operation: the operation is their first template argument that names one.
std::string launcher_operation(const std::string& owner) {
    if (!starts_with(bare_name(owner), "gpu_kernel")) {
        return {};
    }
    for (const std::string& arg : template_arguments(owner)) {
        std::string t = token(arg);
        if (!t.empty() && !is_builtin_type(t) && element_type(t).empty()) {
            return t;
        }
    }
    return {};
}

// The function that encloses the first lambda of `parts`: the lambda of an elementwise
// kernel is named after the operation that defines it.
std::string lambda_owner(const std::vector<std::string>& parts) {
    const auto lambda =
        std::find_if(parts.begin(), parts.end(), [](const std::string& p) { return is_lambda(p); });
    for (auto it = lambda; it != parts.begin();) {
        --it;
        if (!starts_with(*it, "operator") && !starts_with(*it, "{") && !starts_with(*it, "[") &&
            !starts_with(*it, "(")) {
            std::string operation = launcher_operation(*it);
            return operation.empty() ? operation_name(bare_name(*it)) : operation;
        }
    }
    return {};
}

// The token of one template argument; empty when it tells nothing apart.
std::string token(std::string_view argument) {
    const std::string_view arg = unqualified(argument);
    if (arg.empty() || is_value(arg)) {
        return {};
    }
    if (is_builtin_type(arg)) {
        return std::string(arg);
    }
    const std::vector<std::string> parts = scopes(arg);
    if (std::any_of(parts.begin(), parts.end(),
                    [](const std::string& p) { return is_lambda(p); })) {
        return lambda_owner(parts);
    }
    const std::string name = bare_name(parts.back());
    if (std::string type = element_type(name); !type.empty()) {
        return type;
    }
    return is_plumbing(name) ? std::string{} : operation_name(name);
}

} // namespace

int nesting(char c) {
    switch (c) {
    case '<':
    case '(':
    case '{':
    case '[':
        return 1;
    case '>':
    case ')':
    case '}':
    case ']':
        return -1;
    default:
        return 0;
    }
}

std::string_view qualified_name(std::string_view text) {
    // Parentheses balance in demangled names, so the parameter list is the group that closes
    // at the end.
    if (!text.empty() && text.back() == ')') {
        int depth = 0;
        for (std::size_t i = text.size(); i-- > 0;) {
            depth += text[i] == ')' ? 1 : text[i] == '(' ? -1 : 0;
            if (depth == 0) {
                if (i > 0) {
                    text = text.substr(0, i);
                }
                break;
            }
        }
    }
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        depth += nesting(text[i]);
        if (depth == 0 && text[i] == ' ') {
            start = i + 1; // the return type ends at the last space outside any nesting
        }
    }
    return text.substr(start);
}

std::vector<std::string> scopes(std::string_view name) {
    std::vector<std::string> out;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        depth += nesting(name[i]);
        if (depth == 0 && name.compare(i, 2, "::") == 0) {
            out.emplace_back(name.substr(start, i - start));
            start = i + 2;
            ++i;
        }
    }
    out.emplace_back(name.substr(start));
    return out;
}

std::vector<std::string> template_arguments(std::string_view scope) {
    std::vector<std::string> out;
    int depth = 0;
    std::size_t start = std::string_view::npos;
    for (std::size_t i = 0; i < scope.size(); ++i) {
        const char c = scope[i];
        if (depth == 0 && c == '<' && start == std::string_view::npos) {
            start = i + 1;
        } else if (depth == 1 && start != std::string_view::npos && (c == ',' || c == '>')) {
            out.emplace_back(trimmed(scope.substr(start, i - start)));
            start = i + 1;
            if (c == '>') {
                return out;
            }
        }
        depth += nesting(c);
    }
    return {}; // unbalanced: no arguments to trust
}

std::string bare_name(std::string_view scope) {
    if (!scope.empty() && (scope.front() == '(' || scope.front() == '{' || scope.front() == '[')) {
        return std::string(scope); // "(anonymous namespace)", "{lambda(int)#1}", "[lambda...]"
    }
    std::string out;
    int depth = 0;
    for (char c : scope) {
        const int change = nesting(c);
        if (depth == 0 && change == 0) {
            out += c;
        }
        depth += change;
    }
    return std::string(trimmed(out));
}

std::vector<std::string> distinguishing_tokens(const std::vector<std::string>& args) {
    std::vector<std::string> out;
    for (const std::string& arg : args) {
        std::string t = token(arg);
        if (!t.empty() && std::find(out.begin(), out.end(), t) == out.end()) {
            out.push_back(std::move(t));
        }
    }
    return out;
}

} // namespace irf::common

// SPDX-License-Identifier: Apache-2.0
#include "common/kernel_identity.hpp"

#include <array>
#include <cctype>
#include <utility>
#include <vector>

#include "common/demangled_parts.hpp"

namespace irf::common {
namespace {

bool is_ident(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

bool is_digit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
}

// The index of the bracket that closes the one at `open`, or npos.
std::size_t closing(const std::string& text, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < text.size(); ++i) {
        depth += nesting(text[i]);
        if (depth == 0) {
            return i;
        }
    }
    return std::string::npos;
}

// ncu's "[lambda(int) (instance 1)]" -> the ABI demangler's "{lambda(int)#1}".
void lambdas(std::string& text) {
    static constexpr std::string_view k_open = "[lambda(";
    static constexpr std::string_view k_instance = " (instance ";
    for (std::size_t at = text.find(k_open); at != std::string::npos;
         at = text.find(k_open, at + 1)) {
        const std::size_t args_end = closing(text, at + k_open.size() - 1);
        if (args_end == std::string::npos ||
            text.compare(args_end + 1, k_instance.size(), k_instance) != 0) {
            continue;
        }
        std::size_t digits = args_end + 1 + k_instance.size();
        const std::size_t first = digits;
        while (digits < text.size() && is_digit(text[digits])) {
            ++digits;
        }
        if (digits == first || text.compare(digits, 2, ")]") != 0) {
            continue;
        }
        const std::string number = text.substr(first, digits - first);
        text.replace(digits, 2, "}");
        text.replace(args_end + 1, digits - args_end - 1, "#" + number);
        text[at] = '{';
    }
}

// ncu's "(int)128", "(unsigned long)4", "(bool)0" -> the ABI demangler's "128", "4ul", "false".
void literal_casts(std::string& text) {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> k_suffix{{
        {"(int)", ""},
        {"(unsigned int)", "u"},
        {"(long)", "l"},
        {"(unsigned long)", "ul"},
        {"(long long)", "ll"},
        {"(unsigned long long)", "ull"},
        {"(bool)", ""},
    }};
    for (const auto& [cast, suffix] : k_suffix) {
        for (std::size_t at = text.find(cast); at != std::string::npos;
             at = text.find(cast, at + 1)) {
            std::size_t end = at + cast.size();
            const std::size_t first = end;
            if (end < text.size() && text[end] == '-') {
                ++end;
            }
            while (end < text.size() && is_digit(text[end])) {
                ++end;
            }
            if (end == first || (end == first + 1 && text[first] == '-') ||
                (end < text.size() && is_ident(text[end]))) {
                continue; // a parameter list "f(int)" or a cast of something else
            }
            std::string value = text.substr(first, end - first);
            if (cast == "(bool)") {
                value = value == "0" ? "false" : "true";
            } else {
                value += suffix;
            }
            text.replace(at, end - at, value);
        }
    }
}

// The index of the '<' that opens the template argument list closing at `close`, or npos.
std::size_t opening(const std::string& text, std::size_t close) {
    int depth = 0;
    for (std::size_t i = close + 1; i-- > 0;) {
        depth -= nesting(text[i]);
        if (depth == 0) {
            return text[i] == '<' ? i : std::string::npos;
        }
    }
    return std::string::npos;
}

// In the parameter list text[open..close], ncu's "T<n>" (the n-th template parameter) replaced
// by `args`; returns the new index of the list's ')'.
std::size_t substitute(std::string& text, std::size_t open, std::size_t close,
                       const std::vector<std::string>& args) {
    for (std::size_t i = open + 1; i < close; ++i) {
        if (text[i] != 'T' || is_ident(text[i - 1]) || !is_digit(text[i + 1])) {
            continue;
        }
        std::size_t end = i + 1;
        while (end < close && is_digit(text[end])) {
            ++end;
        }
        const std::size_t n = std::stoul(text.substr(i + 1, end - i - 1));
        if (is_ident(text[end]) || n == 0 || n > args.size()) {
            continue;
        }
        text.replace(i, end - i, args[n - 1]);
        close += args[n - 1].size() - (end - i);
        i += args[n - 1].size() - 1;
    }
    return close;
}

// Every parameter list of a template function, left to right: an inner function's placeholders
// are resolved before an outer template's arguments (which may hold it) are copied.
void template_placeholders(std::string& text) {
    for (std::size_t i = 1; i < text.size(); ++i) {
        if (text[i] != '(' || text[i - 1] != '>') {
            continue;
        }
        const std::size_t open_args = opening(text, i - 1);
        const std::size_t close = closing(text, i);
        if (open_args == std::string::npos || close == std::string::npos) {
            continue;
        }
        std::size_t scope = open_args;
        while (scope > 0 && (is_ident(text[scope - 1]) || text[scope - 1] == ':')) {
            --scope;
        }
        const std::vector<std::string> args =
            template_arguments(std::string_view(text).substr(scope, i - scope));
        if (!args.empty()) {
            substitute(text, i, close, args);
        }
    }
}

// "const X *" at the start of an argument or parameter -> "X const *" (the ABI demangler's
// order); X runs to the first '*', '&', ',' or closing bracket outside nesting.
void east_const(std::string& text) {
    static constexpr std::string_view k_const = "const ";
    for (std::size_t at = text.find(k_const); at != std::string::npos;
         at = text.find(k_const, at + 1)) {
        std::size_t before = at;
        while (before > 0 && text[before - 1] == ' ') {
            --before;
        }
        if (before > 0 && text[before - 1] != '(' && text[before - 1] != '<' &&
            text[before - 1] != ',') {
            continue;
        }
        std::size_t end = at + k_const.size();
        int depth = 0;
        for (; end < text.size(); ++end) {
            const char c = text[end];
            if (depth == 0 && (c == '*' || c == '&' || c == ',' || nesting(c) < 0)) {
                break;
            }
            depth += nesting(c);
        }
        std::string type = text.substr(at + k_const.size(), end - at - k_const.size());
        while (!type.empty() && type.back() == ' ') {
            type.pop_back();
        }
        text.replace(at, end - at, type + " const");
    }
}

// ncu prints the return type of a function that encloses a local entity inside a template
// argument ("<..., void f<T>(A)::[lambda...]>"); the ABI demangler does not: it goes.
void local_return_types(std::string& text) {
    static constexpr std::string_view k_void = "void ";
    for (std::size_t at = text.find(k_void); at != std::string::npos;
         at = text.find(k_void, at + 1)) {
        std::size_t before = at;
        while (before > 0 && text[before - 1] == ' ') {
            --before;
        }
        const std::size_t next = at + k_void.size();
        if (before > 0 && (text[before - 1] == '<' || text[before - 1] == ',') &&
            next < text.size() && (is_ident(text[next]) || text[next] == '(')) {
            text.erase(at, k_void.size());
        }
    }
}

// Spaces only where two identifier characters would otherwise join ("unsigned int").
std::string tight(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != ' ') {
            out += text[i];
            continue;
        }
        std::size_t next = i;
        while (next < text.size() && text[next] == ' ') {
            ++next;
        }
        if (!out.empty() && next < text.size() && is_ident(out.back()) && is_ident(text[next])) {
            out += ' ';
        }
        i = next - 1;
    }
    return out;
}

} // namespace

std::string canonical_kernel_name(std::string_view demangled) {
    std::string text(demangled);
    replace_all(text, "<unnamed>", "(anonymous namespace)");
    replace_all(text, "__restrict__", "");
    lambdas(text);
    literal_casts(text);
    template_placeholders(text);
    east_const(text);
    local_return_types(text);
    return tight(text);
}

std::string canonical_qualified_name(std::string_view demangled) {
    std::string text(demangled);
    replace_all(text, "<unnamed>", "(anonymous namespace)");
    return canonical_kernel_name(qualified_name(text));
}

} // namespace irf::common

// SPDX-License-Identifier: Apache-2.0
#include "common/kernel_name.hpp"

#include <map>

#include "common/text_safety.hpp"

namespace irf::common {
namespace {

// Nesting change of one character of a demangled name: template arguments, parameter lists,
// "(anonymous namespace)", lambda names "{lambda(int)#1}" and array bounds all nest.
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

// The qualified name of a demangled signature without its return type and parameter list:
// "void ns::f<int>(float*)" -> "ns::f<int>". Parentheses balance in demangled names, so the
// parameter list is the group that closes at the end.
std::string_view qualified_name(std::string_view text) {
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

// "a::(anonymous namespace)::b<c::d>" -> {"a", "(anonymous namespace)", "b<c::d>"}.
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

// Template arguments -> "<...>" and a parameter list inside a scope (a lambda's enclosing
// function) -> "(...)"; "(anonymous namespace)" and lambda names are kept.
std::string folded(const std::string& scope) {
    if (scope.empty() || scope.front() == '(' || scope.front() == '{') {
        return scope;
    }
    std::string out;
    int depth = 0;
    for (std::size_t i = 0; i < scope.size(); ++i) {
        const char c = scope[i];
        const int change = nesting(c);
        if (depth == 0 && change > 0 && (c == '<' || c == '(')) {
            out += c == '<' ? "<...>" : "(...)";
        } else if (depth == 0 && change <= 0) {
            out += c;
        }
        depth += change;
    }
    return out;
}

// The scopes from `first` to the end joined with "::", each folded when `fold` is set.
std::string joined(const std::vector<std::string>& parts, std::size_t first, bool fold) {
    std::string out;
    for (std::size_t i = first; i < parts.size(); ++i) {
        out += (i == first ? "" : "::") + (fold ? folded(parts[i]) : parts[i]);
    }
    return out;
}

// The innermost scope that names something: a lambda or an anonymous namespace alone says
// nothing, so the scopes that enclose it are kept too.
std::size_t innermost(const std::vector<std::string>& parts) {
    std::size_t first = parts.size() - 1;
    while (first > 0 && (parts[first].front() == '{' || parts[first].front() == '(')) {
        --first;
    }
    return first;
}

// `safe` cut to `max_chars` characters, the middle replaced by "..." so that both
// the scope and the end (the template arguments that often tell kernels apart) stay visible.
std::string cut(const std::string& safe, std::size_t max_chars) {
    const std::size_t length = utf8_length(safe);
    if (max_chars == 0 || length <= max_chars) {
        return safe;
    }
    if (max_chars <= 3) {
        return utf8_prefix(safe, max_chars);
    }
    const std::size_t head = (max_chars - 3 + 1) / 2;
    const std::size_t tail = max_chars - 3 - head;
    const std::string before_tail = utf8_prefix(safe, length - tail);
    return utf8_prefix(safe, head) + "..." + safe.substr(before_tail.size());
}

std::string fitted(std::string_view text, std::size_t max_chars) {
    return cut(printable(text), max_chars);
}

// Every display name of one kernel, from the shortest to the whole signature.
std::vector<std::string> candidates(const KernelNames& k, NameMode mode, std::size_t max_chars) {
    if (mode == NameMode::mangled) {
        return {fitted(k.mangled.empty() ? k.demangled : k.mangled, max_chars)};
    }
    if (mode == NameMode::demangled) {
        return {fitted(k.demangled, max_chars)};
    }
    const std::vector<std::string> parts = scopes(qualified_name(k.demangled));
    std::vector<std::string> out;
    for (bool fold : {true, false}) {
        for (std::size_t first = innermost(parts) + 1; first-- > 0;) {
            out.push_back(fitted(joined(parts, first, fold), max_chars));
        }
    }
    out.push_back(fitted(k.demangled, max_chars));
    return out;
}

std::string identity(const KernelNames& k, NameMode mode) {
    return mode == NameMode::mangled && !k.mangled.empty() ? k.mangled : k.demangled;
}

// Moves every kernel of a group that holds different names to its next longer candidate;
// false once no group can show more.
bool lengthen_colliding(const std::vector<KernelNames>& kernels, NameMode mode,
                        const std::vector<std::vector<std::string>>& names,
                        std::vector<std::size_t>& level) {
    std::map<std::string, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        groups[names[i][level[i]]].push_back(i);
    }
    bool changed = false;
    for (const auto& [shown, members] : groups) {
        bool distinct = false;
        for (std::size_t i : members) {
            distinct |= identity(kernels[i], mode) != identity(kernels[members[0]], mode);
        }
        for (std::size_t i : members) {
            if (distinct && level[i] + 1 < names[i].size()) {
                ++level[i];
                changed = true;
            }
        }
    }
    return changed;
}

} // namespace

std::optional<NameMode> parse_name_mode(std::string_view text) {
    if (text == "function") {
        return NameMode::function;
    }
    if (text == "demangled") {
        return NameMode::demangled;
    }
    if (text == "mangled") {
        return NameMode::mangled;
    }
    return std::nullopt;
}

std::string function_name(std::string_view demangled) {
    const std::vector<std::string> parts = scopes(qualified_name(demangled));
    return joined(parts, innermost(parts), true);
}

std::vector<std::string> display_names(const std::vector<KernelNames>& kernels, NameMode mode,
                                       std::size_t max_chars) {
    std::vector<std::vector<std::string>> names;
    names.reserve(kernels.size());
    for (const KernelNames& k : kernels) {
        names.push_back(candidates(k, mode, max_chars));
    }
    std::vector<std::size_t> level(kernels.size(), 0);
    while (lengthen_colliding(kernels, mode, names, level)) {
    }
    std::map<std::string, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        groups[names[i][level[i]]].push_back(i);
    }
    std::vector<std::string> out(kernels.size());
    for (const auto& [shown, members] : groups) {
        for (std::size_t n = 0; n < members.size(); ++n) {
            const std::string suffix = members.size() > 1 ? " #" + std::to_string(n + 1) : "";
            const std::size_t room =
                max_chars == 0 ? 0
                               : (max_chars > suffix.size() + 3 ? max_chars - suffix.size() : 4);
            out[members[n]] = cut(shown, room) + suffix;
        }
    }
    return out;
}

} // namespace irf::common

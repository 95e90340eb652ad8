// SPDX-License-Identifier: Apache-2.0
#include "common/kernel_name.hpp"

#include <map>

#include "common/demangled_parts.hpp"
#include "common/text_safety.hpp"

namespace irf::common {
namespace {

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

// How much of each scope a candidate name shows: the tokens that tell template instances
// apart (distinguishing_tokens), the template arguments folded to "<...>", or everything.
enum class Detail { tokens, folded, whole };

// A scope folded ("k<...>") and the tokens of its template arguments that tell instances apart.
struct ScopeTokens {
    std::string shown;
    std::size_t at = std::string::npos; ///< where "<...>" stands in `shown`
    std::vector<std::string> tokens;
};

ScopeTokens scope_tokens(const std::string& scope) {
    ScopeTokens s;
    s.shown = folded(scope);
    s.at = s.shown.find("<...>");
    s.tokens = distinguishing_tokens(template_arguments(scope));
    return s;
}

// `s.shown` with "<...>" replaced by "<list>".
std::string with_arguments(const ScopeTokens& s, const std::string& list) {
    return s.shown.substr(0, s.at) + "<" + list + ">" + s.shown.substr(s.at + 5);
}

// `scope` with its template arguments reduced to their distinguishing tokens:
// "vectorized_elementwise_kernel<4, ...silu_kernel(...)::{lambda(float)#1}, Array<char*, 2>>"
// -> "vectorized_elementwise_kernel<silu>"; folded when no argument tells anything.
std::string tagged(const std::string& scope) {
    const ScopeTokens s = scope_tokens(scope);
    if (s.tokens.empty() || s.at == std::string::npos) {
        return s.shown;
    }
    std::string list;
    for (const std::string& t : s.tokens) {
        list += (list.empty() ? "" : ", ") + t;
    }
    return with_arguments(s, list);
}

// `scope` shown with one of its distinguishing tokens only, for each token in turn:
// "k<float, uniform_and_transform>" -> {"k<float>", "k<uniform_and_transform>"}. When two
// names cut to the same width collide, the token that differs can still fit.
std::vector<std::string> single_token_names(const std::string& scope) {
    const ScopeTokens s = scope_tokens(scope);
    std::vector<std::string> out;
    if (s.tokens.size() < 2 || s.at == std::string::npos) {
        return out;
    }
    for (const std::string& t : s.tokens) {
        out.push_back(with_arguments(s, t));
    }
    return out;
}

// The scopes from `first` to the end joined with "::", each shown at `detail`.
std::string joined(const std::vector<std::string>& parts, std::size_t first, Detail detail) {
    std::string out;
    for (std::size_t i = first; i < parts.size(); ++i) {
        const std::string& p = parts[i];
        out += (i == first ? "" : "::") + (detail == Detail::tokens   ? tagged(p)
                                           : detail == Detail::folded ? folded(p)
                                                                      : p);
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
// When the last template argument list fits with some of the name before it, only the name is
// cut: "vectorized_elementwi...<GeluBackward>" keeps the operation whole.
std::string cut(const std::string& safe, std::size_t max_chars) {
    const std::size_t length = utf8_length(safe);
    if (max_chars == 0 || length <= max_chars) {
        return safe;
    }
    const std::size_t open = safe.rfind('<');
    if (open != std::string::npos && safe.back() == '>' && open > 0) {
        const std::size_t tail = utf8_length(std::string_view(safe).substr(open));
        if (tail + 3 + 8 <= max_chars && safe.find('<') == open) {
            return utf8_prefix(safe, max_chars - 3 - tail) + "..." + safe.substr(open);
        }
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
    const std::size_t inner = innermost(parts);
    for (Detail detail : {Detail::tokens, Detail::whole}) {
        for (std::size_t first = inner + 1; first-- > 0;) {
            out.push_back(fitted(joined(parts, first, detail), max_chars));
            // One scope alone (no lambda after it): each of its tokens alone comes next.
            if (detail == Detail::tokens && first == inner && parts.size() == first + 1) {
                for (const std::string& single : single_token_names(parts[first])) {
                    out.push_back(fitted(single, max_chars));
                }
            }
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

// The suffixes that tell the `members` of a group (one symbol, several records) apart, in
// member order: each one's launch shape " [g132 b256]" where the record has one, and " #n" (its
// place among the members of that shape) where shapes are absent or shared. The shape keeps the
// name of a kernel the same in every profile, so compare, merge and the figures agree. Counted
// once per group: a symbol launched in 100,000 shapes made a pass over the group per member.
std::vector<std::string> variant_suffixes(const std::vector<KernelNames>& kernels,
                                          const std::vector<std::size_t>& members) {
    std::map<std::string, std::size_t> same;
    for (std::size_t m : members) {
        ++same[kernels[m].variant];
    }
    std::map<std::string, std::size_t> place;
    std::vector<std::string> out;
    out.reserve(members.size());
    for (std::size_t m : members) { // ascending, as display_names groups them
        const std::string& variant = kernels[m].variant;
        std::string suffix = variant.empty() ? "" : " [" + printable(variant) + "]";
        const std::size_t n = ++place[variant];
        if (same[variant] > 1) {
            suffix += " #" + std::to_string(n);
        }
        out.push_back(std::move(suffix));
    }
    return out;
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
    return joined(parts, innermost(parts), Detail::folded);
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
        const std::vector<std::string> suffixes =
            members.size() > 1 ? variant_suffixes(kernels, members) : std::vector<std::string>(1);
        for (std::size_t n = 0; n < members.size(); ++n) {
            const std::size_t i = members[n];
            const std::string& suffix = suffixes[n];
            const std::size_t room =
                max_chars == 0 ? 0
                               : (max_chars > suffix.size() + 3 ? max_chars - suffix.size() : 4);
            out[i] = cut(shown, room) + suffix;
        }
    }
    return out;
}

} // namespace irf::common

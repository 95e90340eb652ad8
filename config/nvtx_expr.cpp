// SPDX-License-Identifier: Apache-2.0
// NVTX filter expressions. Matching follows ncu's rules where irf supports them: '/' nests
// push/pop ranges, '[' and ']' anchor the outermost and innermost range, '*' stands for any
// number of ranges, and a name without a trailing '/' is a start/end range (docs/regions.md).
#include "config/nvtx_expr.hpp"

#include <fnmatch.h>

#include "config/text_list.hpp"

namespace irf::config {
namespace {

bool glob(const std::string& pattern, const std::string& text) {
    return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

/// `parts[p..]` against `stack[s..]`; "*" absorbs zero or more ranges.
bool match_from(const NvtxExpr& e, const std::vector<NvtxRange>& stack, std::size_t p,
                std::size_t s) {
    if (p == e.parts.size()) {
        return s == stack.size();
    }
    if (e.parts[p] == "*") {
        for (std::size_t k = s; k <= stack.size(); ++k) {
            if (match_from(e, stack, p + 1, k)) {
                return true;
            }
        }
        return false;
    }
    return s < stack.size() && stack[s].domain == e.domain && glob(e.parts[p], stack[s].name) &&
           match_from(e, stack, p + 1, s + 1);
}

bool parse_one(std::string text, NvtxExpr& e, std::string& problem) {
    if (!text.empty() && text.front() == '[') {
        e.bottom = true;
        text.erase(0, 1);
    }
    if (!text.empty() && (text.back() == '/' || text.back() == ']')) {
        e.push_pop = true;
        e.top = text.back() == ']';
        text.pop_back();
    }
    if (e.bottom && !e.push_pop) {
        problem = "'[' anchors push/pop ranges only; end the expression with '/' or ']'";
        return false;
    }
    const auto at = text.find('@');
    if (at != std::string::npos) {
        e.domain = text.substr(0, at);
        text.erase(0, at + 1);
    }
    e.parts = e.push_pop ? split(text, '/') : std::vector<std::string>{text};
    for (const std::string& part : e.parts) {
        if (part.empty()) {
            problem = "empty range name";
            return false;
        }
    }
    return true;
}

} // namespace

bool parse_nvtx_list(const std::string& text, std::vector<NvtxExpr>& out, std::string& problem) {
    out.clear();
    if (text.empty()) {
        return true;
    }
    for (const std::string& item : split(text, ';')) {
        NvtxExpr e;
        if (!parse_one(item, e, problem)) {
            problem = "'" + item + "': " + problem;
            return false;
        }
        out.push_back(std::move(e));
    }
    return true;
}

bool nvtx_matches(const NvtxExpr& expr, const std::vector<NvtxRange>& stack,
                  const std::vector<std::string>& open) {
    if (!expr.push_pop) {
        const std::string pattern =
            expr.domain.empty() ? expr.parts[0] : expr.domain + "@" + expr.parts[0];
        for (const std::string& label : open) {
            if (glob(pattern, label)) {
                return true;
            }
        }
        return false;
    }
    NvtxExpr anchored = expr;
    if (!expr.bottom) {
        anchored.parts.insert(anchored.parts.begin(), "*");
    }
    if (!expr.top) {
        anchored.parts.push_back("*");
    }
    return match_from(anchored, stack, 0, 0);
}

} // namespace irf::config

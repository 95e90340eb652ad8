// SPDX-License-Identifier: Apache-2.0
// NVTX filter expressions. Matching follows ncu's rules where irf supports them: '/' nests
// push/pop ranges, '[' and ']' anchor the outermost and innermost range, '*' stands for any
// number of ranges, and a name without a trailing '/' is a start/end range (docs/regions.md).
#include "config/nvtx_expr.hpp"

#include <string_view>

#include "config/glob.hpp"
#include "config/text_list.hpp"

namespace irf::config {
namespace {

/// The parts of `e` with the '*' that an open end implies: a leading one unless '[' anchors the
/// outermost range, a trailing one unless ']' anchors the innermost.
std::vector<std::string_view> anchored_parts(const NvtxExpr& e) {
    std::vector<std::string_view> parts;
    parts.reserve(e.parts.size() + 2);
    if (!e.bottom) {
        parts.emplace_back("*");
    }
    parts.insert(parts.end(), e.parts.begin(), e.parts.end());
    if (!e.top) {
        parts.emplace_back("*");
    }
    return parts;
}

/// `parts` against the whole of `stack`, "*" absorbing zero or more ranges. Dynamic programming
/// from the innermost end, one row per part: at most parts x (depth + 1) steps and one glob per
/// (part, range). The recursive search before took more than 30 s on `*/*/*/*/*/ZZ/` against a
/// 128-deep stack (issue #39 item 2).
bool match_stack(const std::vector<std::string_view>& parts, const std::string& domain,
                 const std::vector<NvtxRange>& stack) {
    const std::size_t depth = stack.size();
    // next[s]: parts[p + 1..] match stack[s..]; row p = parts.size() matches only the empty rest.
    std::vector<char> next(depth + 1, 0);
    std::vector<char> cur(depth + 1, 0);
    next[depth] = 1;
    for (std::size_t p = parts.size(); p-- > 0;) {
        if (parts[p] == "*") {
            cur[depth] = next[depth];
            for (std::size_t s = depth; s-- > 0;) {
                cur[s] = static_cast<char>(next[s] || cur[s + 1]);
            }
        } else {
            cur[depth] = 0;
            for (std::size_t s = 0; s < depth; ++s) {
                cur[s] = static_cast<char>(next[s + 1] && stack[s].domain == domain &&
                                           glob_matches(parts[p], stack[s].name));
            }
        }
        next.swap(cur);
    }
    return next[0] != 0;
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
            if (glob_matches(pattern, label)) {
                return true;
            }
        }
        return false;
    }
    return match_stack(anchored_parts(expr), expr.domain, stack);
}

} // namespace irf::config

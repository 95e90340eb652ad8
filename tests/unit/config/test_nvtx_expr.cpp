// SPDX-License-Identifier: Apache-2.0
// IRF_NVTX_INCLUDE / IRF_NVTX_EXCLUDE expressions: parsing and ncu-style matching.
#include <fnmatch.h>

#include <chrono>

#include <gtest/gtest.h>

#include "config/env.hpp"
#include "config/glob.hpp"
#include "config/nvtx_expr.hpp"

namespace irf::config {
namespace test_nvtx_expr {
namespace {

bool matches(const std::string& text, const std::vector<NvtxRange>& stack,
             const std::vector<std::string>& open = {}) {
    std::vector<NvtxExpr> exprs;
    std::string problem;
    EXPECT_TRUE(parse_nvtx_list(text, exprs, problem)) << problem;
    for (const NvtxExpr& e : exprs) {
        if (nvtx_matches(e, stack, open)) {
            return true;
        }
    }
    return false;
}

const std::vector<NvtxRange> k_stack{{"", "train"}, {"", "forward"}, {"", "aten::mm"}};

TEST(NvtxExpr, PushPopRangesNestAnywhereUnlessAnchored) {
    EXPECT_TRUE(matches("forward/", k_stack));
    EXPECT_TRUE(matches("train/forward/", k_stack));
    EXPECT_FALSE(matches("train/aten::mm/", k_stack));  // not directly nested
    EXPECT_TRUE(matches("train/*/aten::mm/", k_stack)); // '*': any number of ranges
    EXPECT_TRUE(matches("[train/", k_stack));
    EXPECT_FALSE(matches("[forward/", k_stack)); // not the outermost
    EXPECT_TRUE(matches("aten::mm]", k_stack));
    EXPECT_FALSE(matches("forward]", k_stack));          // not the innermost
    EXPECT_TRUE(matches("aten::m?/", k_stack));          // globs inside a name
    EXPECT_TRUE(matches("backward/;aten::*/", k_stack)); // ';' = or
    EXPECT_FALSE(matches("forward/", {}));
}

TEST(NvtxExpr, DomainsAndStartEndRanges) {
    const std::vector<NvtxRange> stack{{"mpi", "allreduce"}};
    EXPECT_TRUE(matches("mpi@allreduce/", stack));
    EXPECT_FALSE(matches("allreduce/", stack)); // the default domain has none
    EXPECT_TRUE(matches("checkpoint", {}, {"checkpoint"}));
    EXPECT_TRUE(matches("io@check*", {}, {"io@checkpoint"}));
    EXPECT_FALSE(matches("checkpoint", {{"", "checkpoint"}})); // a push/pop range is not one
}

TEST(NvtxExpr, MalformedExpressionsAreRefusedByTheEnvironment) {
    std::vector<NvtxExpr> exprs;
    std::string problem;
    EXPECT_FALSE(parse_nvtx_list("a//b/", exprs, problem));
    EXPECT_NE(problem.find("empty range name"), std::string::npos);
    EXPECT_FALSE(parse_nvtx_list("[start-end", exprs, problem));
    const EnvLookup env = [](const char* name) -> const char* {
        return std::string(name) == "IRF_NVTX_INCLUDE" ? "fwd/;/" : nullptr;
    };
    const ParseResult r = parse_env(env);
    ASSERT_FALSE(r.errors.empty());
    EXPECT_NE(r.errors[0].find("IRF_NVTX_INCLUDE"), std::string::npos) << r.errors[0];
}

double seconds_to_match(const std::string& text, const std::vector<NvtxRange>& stack,
                        bool& answer) {
    const auto start = std::chrono::steady_clock::now();
    answer = matches(text, stack);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The recursive matcher tried every split of the stack for every '*': `*/*/*/*/*/ZZ/` against
// 128 ranges ran for more than 30 s (issue #39 item 2); the table makes it parts x depth steps.
TEST(NvtxExpr, ManyStarsOnADeepStackAreLinear) {
    const std::vector<NvtxRange> deep(128, NvtxRange{"", "A"});
    bool answer = true;
    EXPECT_LT(seconds_to_match("*/*/*/*/*/ZZ/", deep, answer), 1.0);
    EXPECT_FALSE(answer);
    std::string alternating;
    for (int i = 0; i < 10; ++i) {
        alternating += "A/*/";
    }
    const std::vector<NvtxRange> thirty(30, NvtxRange{"", "A"});
    EXPECT_LT(seconds_to_match(alternating + "B/", thirty, answer), 1.0);
    EXPECT_FALSE(answer);
    EXPECT_LT(seconds_to_match(alternating, thirty, answer), 1.0);
    EXPECT_TRUE(answer);
}

// glibc's fnmatch is exponential in the number of '*' inside one name.
TEST(NvtxExpr, ManyStarsInsideANameAreLinear) {
    const std::string name(4000, 'a');
    const auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(glob_matches("*a*a*a*a*a*a*a*a*a*a*a*a*b", name));
    EXPECT_TRUE(glob_matches("*a*a*a*a*a*a*a*a*a*a*a*a*", name));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST(NvtxExpr, GlobsAgreeWithFnmatch) {
    const std::vector<std::string> patterns = {
        "*",     "a*",    "*b",   "a?c",   "[ab]*", "[!ab]*", "[^a]bc", "[a-c]?",  "[]a]*", "\\*",
        "a\\?c", "[a-]*", "*[c]", "a*b*c", "[",     "a[bc",   "*a*a*b", "aten::*", "a\\"};
    const std::vector<std::string> names = {"",    "a",   "abc", "*",    "]x",       "-z", "?",
                                            "a?c", "bbc", "aab", "a[bc", "aten::mm", "a\\"};
    for (const auto& pattern : patterns) {
        for (const auto& name : names) {
            EXPECT_EQ(glob_matches(pattern, name), fnmatch(pattern.c_str(), name.c_str(), 0) == 0)
                << "'" << pattern << "' on '" << name << "'";
        }
    }
}

} // namespace
} // namespace test_nvtx_expr
} // namespace irf::config

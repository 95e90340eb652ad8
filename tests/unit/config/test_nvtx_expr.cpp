// SPDX-License-Identifier: Apache-2.0
// IRF_NVTX_INCLUDE / IRF_NVTX_EXCLUDE expressions: parsing and ncu-style matching.
#include <gtest/gtest.h>

#include "config/env.hpp"
#include "config/nvtx_expr.hpp"

namespace irf::config {
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
    EXPECT_TRUE(matches("aten::m?/", k_stack));          // fnmatch globs inside a name
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

} // namespace
} // namespace irf::config

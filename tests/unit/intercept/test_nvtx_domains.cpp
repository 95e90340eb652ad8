// SPDX-License-Identifier: Apache-2.0
// NVTX keeps one range stack per domain (issue 38 item 10): a domain's pop takes that domain's
// innermost range even when another domain's ranges (NCCL's) were pushed above it.
#include <thread>

#include <gtest/gtest.h>

#include "intercept/nvtx_stack.hpp"

namespace irf::intercept::nvtx {
namespace test_nvtx_domains {
namespace {

TEST(NvtxDomains, InterleavedDomainsPopTheirOwnRanges) {
    std::thread([] {
        const std::uint32_t nccl = domain("NCCL-test");
        EXPECT_EQ(push(k_default_domain, "step"), 0);
        EXPECT_EQ(push(nccl, "allreduce"), 1);
        EXPECT_EQ(push(k_default_domain, "backward"), 2);
        EXPECT_EQ(path_name(current_path()), "step/NCCL-test@allreduce/backward");
        EXPECT_EQ(pop_domain(nccl), 0); // NCCL's range ends while backward is still open
        EXPECT_EQ(path_name(current_path()), "step/backward");
        EXPECT_EQ(depth(), 2);
        EXPECT_EQ(pop_domain(nccl), -1); // no NCCL range open any more
        EXPECT_EQ(pop_domain(k_default_domain), 1);
        EXPECT_EQ(path_name(current_path()), "step");
        EXPECT_EQ(pop_domain(k_default_domain), 0);
        EXPECT_EQ(depth(), 0);
    }).join();
}

} // namespace
} // namespace test_nvtx_domains
} // namespace irf::intercept::nvtx

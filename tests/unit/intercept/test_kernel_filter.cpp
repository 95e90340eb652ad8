// SPDX-License-Identifier: Apache-2.0
// The IRF_KERNELS / IRF_EXCLUDE filters.
#include <gtest/gtest.h>

#include "config/env.hpp"
#include "intercept/kernel_filter.hpp"

namespace irf::intercept {
namespace {

TEST(KernelFilter, EverythingByDefaultButCollectives) {
    const KernelFilter f("", config::k_default_exclude);
    EXPECT_TRUE(f.selects("axpy(float, float const*, float*)"));
    EXPECT_TRUE(f.selects("void gemm<float>(float const*)"));
    EXPECT_FALSE(
        f.selects("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
    EXPECT_FALSE(f.selects("ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWorkElem)"));
    EXPECT_FALSE(f.selects("void nvshmemi_transfer_rma_nbi<(channel_op)0>(void*)"));
    EXPECT_FALSE(f.selects("void nvshmem_internal::barrier_kernel()"));
    EXPECT_TRUE(f.selects("my_ncclish_helper()")); // "nccl" inside a name is not a collective
    EXPECT_FALSE(f.selects("void gemm<nccl_free_type>()")); // a word of its own is
}

TEST(KernelFilter, KernelsIsSearchedAnywhere) {
    const KernelFilter f("gemm|conv", "");
    EXPECT_TRUE(f.selects("void gemm<float>(float const*)"));
    EXPECT_TRUE(f.selects("cudnn::conv2d_fwd()"));
    EXPECT_FALSE(f.selects("axpy(float)"));
    EXPECT_TRUE(KernelFilter("^axpy", "").selects("axpy(float)"));
    EXPECT_FALSE(KernelFilter("^axpy", "").selects("void axpy<float>()"));
}

TEST(KernelFilter, ExcludeWinsOverKernels) {
    const KernelFilter f("gemm", "splitk");
    EXPECT_TRUE(f.selects("gemm_kernel()"));
    EXPECT_FALSE(f.selects("gemm_splitk_kernel()"));
    EXPECT_TRUE(KernelFilter("", "").selects("ncclDevKernel_x()")); // empty exclude: none
}

TEST(KernelFilter, InvalidRegexThrows) {
    EXPECT_THROW(KernelFilter("(", ""), std::regex_error);
}

} // namespace
} // namespace irf::intercept

// SPDX-License-Identifier: Apache-2.0
// The default IRF_EXCLUDE: every kernel family of docs/configuration.md "Default exclude" is
// kept out of kernel replay, and ordinary kernels are not.
#include <gtest/gtest.h>

#include "config/env.hpp"
#include "intercept/kernel_filter.hpp"

namespace irf::intercept {
namespace test_default_exclude {
namespace {

TEST(DefaultExclude, CustomAllReduceAndSpinningFamiliesAreExcluded) {
    const KernelFilter f("", config::k_default_exclude);
    // vLLM / SGLang custom all-reduce
    EXPECT_FALSE(f.selects("void vllm::cross_device_reduce_1stage<float, 8>(vllm::RankData*)"));
    // TensorRT-LLM
    EXPECT_FALSE(f.selects("void tensorrt_llm::kernels::oneShotAllReduceKernel<half, 4>()"));
    EXPECT_FALSE(f.selects("void twoShotAllReduceKernel<float>()"));
    // PyTorch symmetric memory
    EXPECT_FALSE(f.selects("void c10d::symmetric_memory::one_shot_all_reduce_kernel<float>()"));
    EXPECT_FALSE(f.selects("void custom_allreduce_kernel()"));
    // MSCCL++ and DeepEP
    EXPECT_FALSE(f.selects("void mscclpp::allgather6(void*)"));
    EXPECT_FALSE(f.selects("void deep_ep::intranode::dispatch<8, 768>(int4*)"));
    // NCCL / NVSHMEM stay excluded
    EXPECT_FALSE(f.selects("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
    EXPECT_FALSE(f.selects("void nvshmem_internal::barrier_kernel()"));
}

TEST(DefaultExclude, OrdinaryKernelsAreStillProfiled) {
    const KernelFilter f("", config::k_default_exclude);
    EXPECT_TRUE(f.selects("void smallReduce<float>(float const*, float*)"));
    EXPECT_TRUE(f.selects("void cub::DeviceReduceKernel<float>()"));
    EXPECT_TRUE(f.selects("void gemm_persistent<float>()"));
    EXPECT_TRUE(f.selects("reduce_all_rows(float*)"));
    EXPECT_TRUE(f.selects("my_ncclish_helper()"));
}

} // namespace
} // namespace test_default_exclude
} // namespace irf::intercept

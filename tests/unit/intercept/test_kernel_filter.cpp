// SPDX-License-Identifier: Apache-2.0
// The IRF_KERNELS / IRF_EXCLUDE filters.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include <pthread.h>

#include "config/env.hpp"
#include "intercept/kernel_filter.hpp"

namespace irf::intercept {
namespace test_kernel_filter {
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
    EXPECT_THROW(KernelFilter("(", ""), std::invalid_argument);
    EXPECT_THROW(KernelFilter("", "(?=x)"), std::invalid_argument); // no lookahead in RE2
}

TEST(KernelFilter, NcuRegexPrefixIsAccepted) {
    const KernelFilter f("regex:^gemm", "");
    EXPECT_TRUE(f.selects("gemm_kernel()"));
    EXPECT_FALSE(f.selects("regex:gemm_kernel()"));
}

// A 30,000-character templated name, as cuBLAS/CUTLASS kernels have.
std::string huge_templated_name() {
    std::string name = "void cutlass::Kernel<";
    while (name.size() < 30000) {
        name += "cutlass::gemm::GemmShape<128, 256, 64>, ";
    }
    return name + "int>(Params)";
}

struct StackProbe {
    std::string name;
    bool selected = true;
};

// std::regex_search recursed once per character of the name: `.*gemm` on this name overflowed
// a 256 KiB thread stack (SIGSEGV of the profiled application).
TEST(KernelFilter, LongNameOnSmallThreadStackDoesNotCrash) {
    StackProbe probe{huge_templated_name(), false};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_t thread;
    const auto body = [](void* arg) -> void* {
        auto* p = static_cast<StackProbe*>(arg);
        p->selected = KernelFilter(".*gemm", "").selects(p->name);
        return nullptr;
    };
    ASSERT_EQ(pthread_create(&thread, &attr, body, &probe), 0);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
    EXPECT_TRUE(probe.selected);
}

TEST(KernelFilter, OnlyTheNameHeadIsMatched) {
    const std::string tail_only = std::string(config::k_max_matched_name, 'x') + "gemm";
    EXPECT_FALSE(KernelFilter("gemm", "").selects(tail_only));
    EXPECT_TRUE(KernelFilter("gemm", "").selects(tail_only.substr(4)));
}

// std::regex backtracks exponentially on (a|a)*b: more than 30 s on 1,000 characters.
TEST(KernelFilter, PathologicalPatternIsLinear) {
    const auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(KernelFilter("(a|a)*b", "").selects(std::string(1000, 'a')));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

} // namespace
} // namespace test_kernel_filter
} // namespace irf::intercept

// SPDX-License-Identifier: Apache-2.0
// One kernel identity: the names ncu exports print and the ABI demangler's (c++filt, libirf)
// of one symbol compare equal; different kernels stay different (issue #53 item 1).
#include <gtest/gtest.h>

#include "common/kernel_identity.hpp"

namespace irf::common {
namespace test_kernel_identity {
namespace {

struct Pair {
    const char* ncu;
    const char* abi; // c++filt of the same symbol
};

// The H100 recording's kernels (tests/data/gpu/h100: ncu/ and irf/ of one app each), and the
// BERT export's kernels (tests/data/import/ncu-long-2022-a100-bert.csv) against c++filt of
// the symbols they name.
const Pair k_pairs[] = {
    {"void <unnamed>::stride_load<float, 1>(const T1 *, T1 *)",
     "void (anonymous namespace)::stride_load<float, 1>(float const*, float*)"},
    {"<unnamed>::stream_triad(float *, const float *, const float *, float)",
     "(anonymous namespace)::stream_triad(float*, float const*, float const*, float)"},
    {"void <unnamed>::bank_conflict<16>(float *)",
     "void (anonymous namespace)::bank_conflict<16>(float*)"},
    {"<unnamed>::mma_f16_f32(float *, __half, __half, int)",
     "(anonymous namespace)::mma_f16_f32(float*, __half, __half, int)"},
    {"void <unnamed>::softmax_warp_forward<float, float, float, (int)5, (bool)0, (bool)0>(T2 *, "
     "const T1 *, int, int, int, const bool *, int, bool)",
     "void (anonymous namespace)::softmax_warp_forward<float, float, float, 5, false, "
     "false>(float*, float const*, int, int, int, bool const*, int, bool)"},
    {"void at::native::elementwise_kernel<(int)128, (int)2, void "
     "at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float>>(at::TensorIteratorBase &, "
     "const T1 &)::[lambda(int) (instance 1)]>(int, T3)",
     "void at::native::elementwise_kernel<128, 2, "
     "at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, "
     "at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1}>(int, "
     "at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, "
     "at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1})"},
    {"void k<(unsigned int)4, (long)-2, (unsigned long long)8>(float *__restrict__)",
     "void k<4u, -2l, 8ull>(float* __restrict__)"},
};

TEST(KernelIdentity, NcuAndDemanglerSpellingsOfOneSymbolAreEqual) {
    for (const Pair& p : k_pairs) {
        EXPECT_EQ(canonical_kernel_name(p.ncu), canonical_kernel_name(p.abi)) << p.ncu;
        EXPECT_EQ(canonical_qualified_name(p.ncu), canonical_qualified_name(p.abi)) << p.ncu;
    }
}

TEST(KernelIdentity, CanonicalSpellingByHand) {
    EXPECT_EQ(canonical_kernel_name("void <unnamed>::stride_load<float, 1>(const T1 *, T1 *)"),
              "void(anonymous namespace)::stride_load<float,1>(float const*,float*)");
    EXPECT_EQ(canonical_kernel_name("f<[lambda(float) (instance 12)]>(unsigned int)"),
              "f<{lambda(float)#12}>(unsigned int)");
    EXPECT_EQ(canonical_qualified_name("void ns::k<float, 1>(float*)"), "ns::k<float,1>");
}

TEST(KernelIdentity, DifferentKernelsStayDifferent) {
    // Template arguments, parameter types, scopes and lambda instances tell kernels apart.
    EXPECT_NE(canonical_kernel_name("void k<float, 1>(float const*)"),
              canonical_kernel_name("void k<float, 2>(float const*)"));
    EXPECT_NE(canonical_kernel_name("void k<(bool)0>(int)"),
              canonical_kernel_name("void k<true>(int)"));
    EXPECT_NE(canonical_kernel_name("k(float const*)"), canonical_kernel_name("k(float*)"));
    EXPECT_NE(canonical_kernel_name("a::k(int)"), canonical_kernel_name("b::k(int)"));
    EXPECT_NE(canonical_kernel_name("f<[lambda(int) (instance 1)]>(int)"),
              canonical_kernel_name("f<{lambda(int)#2}>(int)"));
    EXPECT_NE(canonical_kernel_name("void k<float, 1>(const T1 *)"),
              canonical_kernel_name("void k<double, 1>(float const*)"));
}

TEST(KernelIdentity, PlainNamesAndOddTextPassThrough) {
    EXPECT_EQ(canonical_kernel_name("ampere_sgemm_128x128_tn"), "ampere_sgemm_128x128_tn");
    EXPECT_EQ(canonical_kernel_name(""), "");
    // Unbalanced or truncated names are compared as written, never read past their end.
    EXPECT_EQ(canonical_kernel_name("k<(int)"), "k<(int)");
    EXPECT_EQ(canonical_kernel_name("[lambda(int) (instance "), "[lambda(int)(instance");
    EXPECT_EQ(canonical_kernel_name("k<T>(T9)"), "k<T>(T9)");
}

} // namespace
} // namespace test_kernel_identity
} // namespace irf::common

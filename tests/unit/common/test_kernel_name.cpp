// SPDX-License-Identifier: Apache-2.0
// Display names of kernels: real names from cuBLAS, cuDNN, CUTLASS and PyTorch; distinct
// kernels never share a name; control characters escaped; widths kept.
#include <gtest/gtest.h>

#include <set>

#include "common/kernel_name.hpp"

namespace irf::common {
namespace test_kernel_name {
namespace {

const char* const k_cat = // PyTorch torch.cat
    "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 4, 64, "
    "64>(float*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned "
    "int, 64, 64>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, "
    "unsigned int)";
const char* const k_silu = // PyTorch elementwise kernel over a nested lambda
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
    "namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() "
    "const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> "
    ">(int, at::native::(anonymous namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}"
    "::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, "
    "at::detail::Array<char*, 2>)";
const char* const k_gemv = // cuBLAS
    "void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 4, 4, false, false, "
    "cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<float const>, "
    "cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float> "
    ">(cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<float const>, "
    "cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, "
    "float>, float, float)";
const char* const k_conv = // cuDNN
    "void cudnn::cnn::conv2d_grouped_direct_kernel<false, true, false, false, 0, 0, int, float, "
    "float, float, float, float>(cudnn::cnn::GroupedDirectFpropParams, float const*, float "
    "const*, float*, float, float*, float const*, float const*, float)";
const char* const k_cutlass_128 = // CUTLASS library kernels: one template, many instances
    "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>"
    "(cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)";
const char* const k_cutlass_64 =
    "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x6_nn_align4>"
    "(cutlass_80_tensorop_s1688gemm_64x64_32x6_nn_align4::Params)";

std::vector<std::string> function_names(const std::vector<std::string>& demangled,
                                        std::size_t width = 0) {
    std::vector<KernelNames> kernels;
    for (const std::string& name : demangled) {
        kernels.push_back({name, "", ""});
    }
    return display_names(kernels, NameMode::function, width);
}

TEST(KernelName, InnermostNameWithTemplatesFolded) {
    EXPECT_EQ(function_name(k_cat), "CatArrayBatchedCopy<...>");
    EXPECT_EQ(function_name(k_silu), "vectorized_elementwise_kernel<...>");
    EXPECT_EQ(function_name(k_gemv), "gemv2T_kernel_val<...>");
    EXPECT_EQ(function_name(k_conv), "conv2d_grouped_direct_kernel<...>");
    EXPECT_EQ(function_name("ampere_sgemm_128x64_nn"), "ampere_sgemm_128x64_nn"); // extern "C"
    EXPECT_EQ(function_name("axpy(float, float const*, float*)"), "axpy");
    // A lambda alone names nothing: the function that holds it is kept, its parameters folded.
    EXPECT_EQ(function_name("void ns::(anonymous namespace)::run(float*)::{lambda(int)#1}(int)"),
              "run(...)::{lambda(int)#1}");
}

TEST(KernelName, OneTemplateManyInstancesShowTheirArguments) {
    const auto names = function_names({k_cutlass_128, k_cutlass_64, k_conv});
    EXPECT_EQ(names[0], "Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>");
    EXPECT_EQ(names[1], "Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x6_nn_align4>");
    // Not in the group: stays short; its flags and tile numbers are left out, its types kept.
    EXPECT_EQ(names[2], "conv2d_grouped_direct_kernel<int, float>");
}

TEST(KernelName, SameNameInOtherScopesGetsTheShortestDistinguishingSuffix) {
    const auto names = function_names(
        {"void a::(anonymous namespace)::reduce<float>(float*)", "void b::reduce<float>(float*)"});
    EXPECT_EQ(names[0], "(anonymous namespace)::reduce<float>");
    EXPECT_EQ(names[1], "b::reduce<float>");
}

TEST(KernelName, TenPyTorchVariantsStayTen) {
    std::vector<std::string> demangled;
    for (int n = 0; n < 10; ++n) {
        demangled.push_back("void at::native::(anonymous namespace)::kernel_variant_" +
                            std::to_string(n) + "<float, 4>(float*, int)");
    }
    const auto names = function_names(demangled, 40);
    EXPECT_EQ(names[3], "kernel_variant_3<float>");
    EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), 10u);
}

TEST(KernelName, SameSymbolTwiceIsNumbered) {
    // Same kernel, other launch configuration: two profile records with one name.
    const auto names = function_names({k_gemv, k_gemv, k_conv});
    // gemv's arguments: int, int, four floats, tile numbers, flags and a parameter struct.
    EXPECT_EQ(names[0], "gemv2T_kernel_val<int, float> #1");
    EXPECT_EQ(names[1], "gemv2T_kernel_val<int, float> #2");
    EXPECT_EQ(names[2], "conv2d_grouped_direct_kernel<int, float>");
}

TEST(KernelName, TenThousandCharacterTemplatesFitTheWidthAndStayDistinct) {
    std::string args;
    while (args.size() < 10000) {
        args += "cute::tuple<cute::C<128>, cute::C<64>>, ";
    }
    const std::string a = "void cutlass::device_kernel<" + args + "A>(int)";
    const std::string b = "void cutlass::device_kernel<" + args + "B>(int)";
    const std::string c = "void cutlass::device_kernel<X" + args + "A>(int)";
    EXPECT_EQ(function_name(a), "device_kernel<...>");
    const auto names = function_names({a, b, c}, 40);
    for (const std::string& name : names) {
        EXPECT_LE(name.size(), 40u) << name;
    }
    EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), 3u);
    EXPECT_EQ(names[1].substr(names[1].size() - 2), "B>"); // the differing end stays visible
}

TEST(KernelName, ControlCharactersAreEscapedInEveryMode) {
    const KernelNames evil{"void evil\x1b[2J<int>(int)", "_Z4evil\x1b[2J", ""};
    for (NameMode mode : {NameMode::function, NameMode::demangled, NameMode::mangled}) {
        const std::string shown = display_names({evil}, mode)[0];
        EXPECT_EQ(shown.find('\x1b'), std::string::npos) << shown;
        EXPECT_NE(shown.find("\\x1B"), std::string::npos) << shown;
    }
}

TEST(KernelName, ModesLikeNcuPrintKernelBase) {
    const KernelNames gemm{"void gemm<float>(float const*, float*, int)", "_Z4gemmIfEvPKT_PS0_i",
                           ""};
    EXPECT_EQ(display_names({gemm}, NameMode::function)[0], "gemm<float>");
    EXPECT_EQ(display_names({gemm}, NameMode::demangled)[0], gemm.demangled);
    EXPECT_EQ(display_names({gemm}, NameMode::mangled)[0], gemm.mangled);
    EXPECT_EQ(display_names({{"plain", "", ""}}, NameMode::mangled)[0], "plain"); // no symbol
    EXPECT_EQ(parse_name_mode("demangled"), NameMode::demangled);
    EXPECT_FALSE(parse_name_mode("base").has_value());
}

const char* const k_gelu_backward = // PyTorch: the operation is the lambda's enclosing function
    "void at::native::vectorized_elementwise_kernel<4, "
    "at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, "
    "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() "
    "const::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, "
    "at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, "
    "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() "
    "const::{lambda(float, float)#1}, at::detail::Array<char*, 3>)";
const char* const k_add = // PyTorch: the operation is a functor
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
    "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
    "at::detail::Array<char*, 3>)";
const char* const k_fused_adam = // PyTorch's fused AdamW step
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<4>, at::native::(anonymous "
    "namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, float*, "
    "float, float, float, float, float, bool, float*, float*>(at::native::(anonymous "
    "namespace)::TensorListMetadata<4>, at::native::(anonymous "
    "namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, float*, "
    "float, float, float, float, float, bool, float*, float*)";

TEST(KernelName, PyTorchOperatorsKeepTheOperationName) {
    const auto names = function_names({k_silu, k_gelu_backward, k_add, k_fused_adam});
    EXPECT_EQ(names[0], "vectorized_elementwise_kernel<silu>");         // silu_kernel's lambda
    EXPECT_EQ(names[1], "vectorized_elementwise_kernel<GeluBackward>"); // ...CUDAKernelImpl
    EXPECT_EQ(names[2], "vectorized_elementwise_kernel<add>");          // CUDAFunctor_add
    // The metadata struct and bool are plumbing; the functor and the element type stay.
    EXPECT_EQ(names[3], "multi_tensor_apply_kernel<FusedAdamMathFunctor, float>");
}

// Nsight Compute prints lambdas as "[lambda(int) (instance 1)]" and casts as "(int)128" (names
// as in a public ncu 2022 export of a PyTorch BERT step on an A100, tests/data/import/README.md).
const char* const k_ncu_add =
    "void at::native::elementwise_kernel<(int)128, (int)2, void "
    "at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float>>(at::TensorIteratorBase &, "
    "const T1 &)::[lambda(int) (instance 1)]>(int, T3)";
const char* const k_ncu_copy =
    "void at::native::elementwise_kernel<(int)128, (int)2, void "
    "at::native::gpu_kernel_impl<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase "
    "&)::[lambda() (instance 2)]::operator ()() const::[lambda() (instance 14)]::operator ()() "
    "const::[lambda(float) (instance 1)]>(at::TensorIteratorBase &, const T1 &)::[lambda(int) "
    "(instance 1)]>(int, T3)";

TEST(KernelName, NcuLambdasNameTheOperationThroughPyTorchsLauncher) {
    // gpu_kernel_impl owns both lambdas; its first template argument names the operation.
    const auto names = function_names({k_ncu_add, k_ncu_copy});
    EXPECT_EQ(names[0], "elementwise_kernel<add>");         // CUDAFunctor_add
    EXPECT_EQ(names[1], "elementwise_kernel<direct_copy>"); // direct_copy_kernel_cuda's lambda
}

TEST(KernelName, CutNamesThatCollideShowTheTokenThatDiffers) {
    // PyTorch's uniform and normal random kernels differ in their second token only. All three
    // tokens cut to 40 read "distribution_elemen...ribution_nullary>" for both, "<float>" alone
    // too; "<uniform_and_transform>" (23) leaves 40 - 3 - 23 = 14 of the name, "<normal_...>"
    // (22) leaves 15.
    const auto names = function_names(
        {"void distribution_elementwise_grid_stride_kernel<float, at::uniform_and_transform, "
         "at::distribution_nullary>(int)",
         "void distribution_elementwise_grid_stride_kernel<float, at::normal_and_transform, "
         "at::distribution_nullary>(int)"},
        40);
    EXPECT_EQ(names[0], "distribution_e...<uniform_and_transform>");
    EXPECT_EQ(names[1], "distribution_el...<normal_and_transform>");
}

TEST(KernelName, ACutNameKeepsItsOperationWhole) {
    // "vectorized_elementwise_kernel<GeluBackward>" is 43 characters; at 40 the 14 of
    // "<GeluBackward>" stay whole, "..." takes 3, and 40 - 14 - 3 = 23 of the name remain.
    EXPECT_EQ(function_names({k_gelu_backward}, 40)[0], "vectorized_elementwise_...<GeluBackward>");
}

TEST(KernelName, ElementTypesOfTheLibrariesGetShortNames) {
    const auto names = function_names({"void gemm_kernel<c10::BFloat16, float>(int)",
                                       "void cast<__half const*, cutlass::float_e4m3_t>(int)",
                                       "void copy<unsigned int, 4u, true>(int)"});
    EXPECT_EQ(names[0], "gemm_kernel<bf16, float>");
    EXPECT_EQ(names[1], "cast<half, fp8e4m3>");
    EXPECT_EQ(names[2], "copy<unsigned int>");
}

TEST(KernelName, RecordsOfOneSymbolAreToldApartByTheirLaunchShape) {
    const auto names = display_names({{k_gemv, "", "g132 b256"},
                                      {k_gemv, "", "g264 b256"},
                                      {k_gemv, "", "g264 b256"},
                                      {k_conv, "", "g8 b64"}},
                                     NameMode::function);
    EXPECT_EQ(names[0], "gemv2T_kernel_val<int, float> [g132 b256]");
    EXPECT_EQ(names[1], "gemv2T_kernel_val<int, float> [g264 b256] #1"); // other call sites
    EXPECT_EQ(names[2], "gemv2T_kernel_val<int, float> [g264 b256] #2");
    EXPECT_EQ(names[3], "conv2d_grouped_direct_kernel<int, float>"); // alone: no suffix
}

} // namespace
} // namespace test_kernel_name
} // namespace irf::common

// SPDX-License-Identifier: Apache-2.0
// NVTX regions end to end: fake-backend launches with "nvtx" stacks through libirf.so (profile
// regions, filters, summary), and libirf.so's NVTX injection entry point driven like NVTX does.
#include <dlfcn.h>

#include <gtest/gtest.h>

#include "tests/integration/harness_support.hpp"

namespace irf::test {
namespace test_inject_regions {
namespace {

class InjectRegions : public TempDirTest {
protected:
    nlohmann::json run_regions(std::map<std::string, std::string> env = {}) {
        env.emplace("IRF_BACKEND", "fake:" + fake_script("regions.json"));
        env.emplace("IRF_OUTPUT", (m_tmp / "out").string());
        env.emplace("IRF_SUMMARY", "file");
        env.emplace("IRF_SAMPLES", "1");
        m_result = run_harness(env);
        EXPECT_EQ(m_result.exit_code, 0) << m_result.err;
        return read_json(m_tmp / "out.json");
    }
    ProcessResult m_result;
};

nlohmann::json region(const nlohmann::json& list, const std::string& path) {
    for (const nlohmann::json& r : list) {
        if (r["path"] == path) {
            return r;
        }
    }
    return nullptr;
}

TEST_F(InjectRegions, KernelsAndTheProfileListTheirRanges) {
    const nlohmann::json p = run_regions();
    const nlohmann::json gemm = kernel_named(p, "gemm(");
    ASSERT_FALSE(gemm.is_null());
    EXPECT_EQ(region(gemm["regions"], "train_step/forward")["launches"], 3);
    // 3 x 4000: the first two ran under replay and count at forward's unprofiled mean, 4000.
    EXPECT_EQ(region(gemm["regions"], "train_step/forward")["time_ns"], 12000);
    EXPECT_EQ(region(gemm["regions"], "train_step/backward")["time_ns"], 12000); // 2 x 6000
    const nlohmann::json backward = region(p["regions"], "train_step/backward");
    ASSERT_FALSE(backward.is_null());
    EXPECT_EQ(backward["time_ns"], 14000); // gemm 12000 + axpy 4 x 500
    EXPECT_EQ(backward["launches"], 6);
    EXPECT_EQ(backward["kernels"], 2);
    EXPECT_TRUE(backward["analysis"].is_object()); // rolled up after the analysis
    // The last axpy launch ran outside every range: in the kernel's time, in no region.
    EXPECT_EQ(kernel_named(p, "axpy(")["launches"], 5);
    EXPECT_EQ(kernel_named(p, "axpy(")["regions"].size(), 1u);
    const std::string text = read_file(m_tmp / "out.txt");
    EXPECT_LT(text.find("NVTX regions by inclusive time"), text.find("kernels by time")) << text;
}

TEST_F(InjectRegions, ExcludeKeepsKernelsTimedButUnprofiled) {
    const nlohmann::json p = run_regions({{"IRF_NVTX_EXCLUDE", "train_step/backward/"}});
    const nlohmann::json gemm = kernel_named(p, "gemm(");
    EXPECT_EQ(gemm["launches"], 5);
    EXPECT_EQ(region(gemm["regions"], "train_step/backward")["profiled_launches"], 0);
    EXPECT_GT(region(gemm["regions"], "train_step/forward")["profiled_launches"], 0);
    // Every launch still timed: 3 x 4000 + 2 x 6000 = 24000; the two forward launches that ran
    // under replay (the provisional first sample and the sample) count at forward's unprofiled
    // mean, 4000, so the total is the same 24000.
    EXPECT_EQ(gemm["time_ns"]["total"], 24000);
}

TEST_F(InjectRegions, GraphKernelsKeepTheRegionOfTheirGraphLaunch) {
    // The fake reports "graph": true launches as CUPTI does, after clearing the thread's NVTX
    // stack, so only the path taken at the graph launch can put them in "decode/step".
    std::map<std::string, std::string> env{
        {"IRF_BACKEND", "fake:" + fake_script("graph_regions.json")},
        {"IRF_OUTPUT", (m_tmp / "out").string()},
        {"IRF_SAMPLES", "1"}};
    m_result = run_harness(env);
    ASSERT_EQ(m_result.exit_code, 0) << m_result.err;
    const nlohmann::json p = read_json(m_tmp / "out.json");
    const nlohmann::json gemm = kernel_named(p, "gemm(");
    ASSERT_FALSE(gemm.is_null());
    EXPECT_EQ(region(gemm["regions"], "decode/step")["launches"], 4);
    EXPECT_EQ(region(gemm["regions"], "decode/step")["time_ns"], 8000);        // 4 x 2000
    EXPECT_EQ(region(gemm["regions"], "decode/step")["profiled_launches"], 0); // timed only
    const nlohmann::json step = region(p["regions"], "decode/step");
    ASSERT_FALSE(step.is_null());
    EXPECT_EQ(step["time_ns"], 9500); // gemm 4 x 2000 + axpy 3 x 500
    EXPECT_EQ(step["launches"], 7);
    EXPECT_EQ(step["kernels"], 2);
    EXPECT_EQ(region(p["regions"], "decode/sample")["launches"], 2); // not a graph: as before
}

bool warns(const nlohmann::json& profile, const std::string& text) {
    for (const nlohmann::json& w : profile["warnings"]) {
        if (w.get<std::string>().find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

TEST_F(InjectRegions, AnotherToolsNvtxInjectionIsSaidInOneLine) {
    // nsys or kineto as NVTX's injection library gets every range: regions would stay empty.
    const nlohmann::json other = run_regions(
        {{"NVTX_INJECTION64_PATH", "/opt/nsight-systems/target/libToolsInjection64.so"}});
    EXPECT_TRUE(warns(other, "is another tool's library: NVTX ranges go to it"));
    const nlohmann::json ours = run_regions({{"NVTX_INJECTION64_PATH", IRF_LIBIRF}});
    EXPECT_FALSE(warns(ours, "NVTX_INJECTION64_PATH"));
}

TEST_F(InjectRegions, ABadExpressionDisablesIrfWithOneLine) {
    const ExpectIrfErrors expect_errors; // the point of this test is an error line
    std::map<std::string, std::string> env{{"IRF_BACKEND", "fake:" + fake_script("regions.json")},
                                           {"IRF_OUTPUT", (m_tmp / "out").string()},
                                           {"IRF_NVTX_INCLUDE", "a//b/"}};
    const ProcessResult r = run_harness(env);
    EXPECT_EQ(r.exit_code, 0); // the application is never affected
    EXPECT_NE(r.err.find("IRF_NVTX_INCLUDE"), std::string::npos) << r.err;
}

// NVTX's callback tables (nvtx3/nvtxDetail/nvtxTypes.h): module CORE = 1, slot RangePushA = 9,
// RangePop = 11; module CORE2 = 5. Each slot is a pointer to the function pointer to fill.
using Slot = void (*)();
Slot s_core[16];
Slot* s_core_slots[16];
Slot s_core2[16];
Slot* s_core2_slots[16];

int get_module_table(int module, Slot*** out_table, unsigned* out_size) {
    Slot** slots = module == 1 ? s_core_slots : module == 5 ? s_core2_slots : nullptr;
    if (slots == nullptr) {
        return 0;
    }
    *out_table = slots;
    *out_size = 16;
    return 1;
}

struct CallbacksTable {
    std::size_t struct_size = sizeof(CallbacksTable);
    int (*get)(int, Slot***, unsigned*) = &get_module_table;
} s_callbacks;

const void* get_export_table(std::uint32_t id) {
    return id == 1 ? &s_callbacks : nullptr;
}

TEST(NvtxInjection, LibirfFillsTheRangeCallbacksAndToleratesUnbalancedPops) {
    for (int i = 0; i < 16; ++i) {
        s_core[i] = nullptr;
        s_core_slots[i] = &s_core[i];
        s_core2[i] = nullptr;
        s_core2_slots[i] = &s_core2[i];
    }
    void* lib = dlopen(IRF_LIBIRF, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(lib, nullptr) << dlerror();
    using Init = int (*)(const void* (*)(std::uint32_t));
    const auto init = reinterpret_cast<Init>(dlsym(lib, "InitializeInjectionNvtx2"));
    ASSERT_NE(init, nullptr) << "InitializeInjectionNvtx2 not exported";
    ASSERT_EQ(init(&get_export_table), 1);
    ASSERT_NE(s_core[9], nullptr);
    ASSERT_NE(s_core[11], nullptr);
    ASSERT_NE(s_core2[4], nullptr); // DomainRangePushEx
    const auto push = reinterpret_cast<int (*)(const char*)>(s_core[9]);
    const auto pop = reinterpret_cast<int (*)()>(s_core[11]);
    EXPECT_EQ(push("outer"), 0);
    EXPECT_EQ(push("inner"), 1);
    EXPECT_EQ(pop(), 1);
    EXPECT_EQ(pop(), 0);
    EXPECT_EQ(pop(), -1); // unbalanced: reported, not a crash
    EXPECT_EQ(push("left-open-at-exit"), 0);
    // The wide forms of DomainCreate and RegisterString are filled too (#38 item 10).
    ASSERT_NE(s_core2[13], nullptr); // DomainCreateW
    ASSERT_NE(s_core2[11], nullptr); // DomainRegisterStringW
    const auto create_w = reinterpret_cast<void* (*)(const wchar_t*)>(s_core2[13]);
    const auto create_a = reinterpret_cast<void* (*)(const char*)>(s_core2[12]);
    EXPECT_EQ(create_w(L"wide-domain"), create_a("wide-domain"));
}

} // namespace
} // namespace test_inject_regions
} // namespace irf::test

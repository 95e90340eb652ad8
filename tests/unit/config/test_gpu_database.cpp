// SPDX-License-Identifier: Apache-2.0
// Unit tests of the shipped ceilings database: every entry valid and self-consistent, search
// path, detection match, IRF_TARGETS resolution and the fallback derivation.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "config/ceilings_choice.hpp"
#include "config/ceilings_yaml.hpp"
#include "config/gpu_database.hpp"
#include "config/sm_limits.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::config {
namespace test_gpu_database {
namespace {

namespace fs = std::filesystem;

std::string source_gpus() {
    return fs::weakly_canonical(fs::path(IRF_SOURCE_DIR) / "config" / "gpus").string();
}

std::vector<std::string> shipped_dirs() {
    return {source_gpus()};
}

/// Unsets IRF_GPUS_DIR for the test and restores it afterwards.
class EnvGuard {
public:
    EnvGuard() {
        if (const char* v = std::getenv("IRF_GPUS_DIR")) {
            m_saved = v;
            m_had = true;
        }
        unsetenv("IRF_GPUS_DIR");
    }
    ~EnvGuard() {
        if (m_had) {
            setenv("IRF_GPUS_DIR", m_saved.c_str(), 1);
        } else {
            unsetenv("IRF_GPUS_DIR");
        }
    }
    EnvGuard(const EnvGuard&) = delete;
    EnvGuard& operator=(const EnvGuard&) = delete;

private:
    std::string m_saved;
    bool m_had = false;
};

bool within(double value, double expect, double rel) {
    return std::fabs(value - expect) <= rel * expect;
}

TEST(GpuDatabase, ShipsEveryRequiredGpu) {
    const auto keys = list_shipped(shipped_dirs());
    for (const char* key : {"v100-sxm2", "a100-sxm4-40gb", "a100-sxm4-80gb", "a100-pcie",
                            "h100-sxm5", "h100-pcie", "h200-sxm", "gh200", "b200", "l40s", "a10",
                            "l4", "rtx-4090", "t4", "a10g", "rtx-a6000", "rtx-3090-ti"}) {
        EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key;
    }
}

/// Per-SM FP32 and FP64 lanes per compute capability, written out independently of
/// derive_ceilings (docs/ceilings.md).
std::pair<double, double> lanes(const std::string& cc) {
    if (cc == "7.0" || cc == "8.0") {
        return {64, 32};
    }
    if (cc == "7.5") {
        return {64, 2};
    }
    if (cc == "8.6" || cc == "8.9" || cc == "10.3" || cc == "12.0") {
        return {128, 2};
    }
    return {128, 64}; // 9.0, 10.0
}

TEST(GpuDatabase, EveryShippedEntryLoadsAndIsSelfConsistent) {
    const auto dirs = shipped_dirs();
    const auto keys = list_shipped(dirs);
    ASSERT_GE(keys.size(), 35u); // issue 54 item 7: at least 35 GPUs
    for (const auto& key : keys) {
        SCOPED_TRACE(key);
        const auto c = load_shipped(key, dirs);
        const auto& g = c.gpu;
        EXPECT_EQ(g.key, key);
        EXPECT_EQ(c.source.rfind("shipped:" + key + " (", 0), 0u) << c.source;
        EXPECT_FALSE(g.aliases.empty());
        // Instruction Roofline peak: SMs x 4 schedulers x boost clock (MHz -> GIPS: / 1e3).
        EXPECT_TRUE(within(c.warp_gips.value, g.sms * 4.0 * g.boost_clock_mhz / 1e3, 0.01))
            << c.warp_gips.value;
        // Vector FMA peaks: SMs x lanes x 2 flop x clock.
        const auto [fp32, fp64] = lanes(g.cc);
        EXPECT_TRUE(within(c.gflops.at("fp32_fma").value,
                           g.sms * fp32 * 2 * g.boost_clock_mhz / 1e3, 0.01));
        EXPECT_TRUE(within(c.gflops.at("fp64_fma").value,
                           g.sms * (key == "h800-sxm" || key == "h20" ? 2 : fp64) * 2 *
                               g.boost_clock_mhz / 1e3,
                           0.01)); // export parts cut FP64 (issue 54)
        // No-FMA = FMA / 2 (values are rounded to 0.1 GFLOP/s in the files).
        EXPECT_NEAR(c.gflops.at("fp32_nofma").value * 2, c.gflops.at("fp32_fma").value, 0.2);
        for (const auto& [type, sparse] : c.tensor_sparse_tflops) {
            EXPECT_GT(sparse.value, c.tensor_tflops.at(type).value) << type;
        }
        for (const auto& [type, dense] : c.tensor_tflops) {
            EXPECT_GT(dense.clock_mhz, 0) << type << ": tensor peaks state their clock";
            EXPECT_LE(dense.clock_mhz, g.boost_clock_mhz) << type;
        }
        // Issue 54 items 2 and 3: every entry says how its SM shares its datapaths and at what
        // clock it runs under load.
        EXPECT_FALSE(c.datapaths.empty());
        EXPECT_GT(clock_entry_mhz(c, "sustained"), 0);
        ASSERT_TRUE(c.hbm_gbs.has_value());
        ASSERT_TRUE(c.l1_gbs.has_value());
        EXPECT_LT(c.hbm_gbs->value, c.l1_gbs->value);
        EXPECT_TRUE(c.pcie_gbs.has_value());
        EXPECT_GT(g.l2_bytes, 0u);
        // Residency limits: its compute capability's row (every shipped one has one).
        const auto expected = sm_limits_for_cc(g.cc);
        ASSERT_TRUE(expected.has_value()) << g.cc;
        ASSERT_TRUE(g.sm_limits.has_value());
        for (const auto& [name, member] : sm_limit_fields()) {
            EXPECT_EQ((*g.sm_limits).*member, (*expected).*member) << name;
        }
    }
}

TEST(GpuDatabase, SeedFiguresHold) {
    const auto dirs = shipped_dirs();
    // V100: 80 x 4 x 1.53 GHz = 489.6 warp GIPS (docs/model.md: IRM).
    EXPECT_NEAR(load_shipped("v100-sxm2", dirs).warp_gips.value, 489.6, 0.05);
    // H100 SXM5 dense FP16: 132 x 4096 x 1.83 GHz = 989.43 TFLOP/s.
    const auto h100 = load_shipped("h100-sxm5", dirs);
    EXPECT_NEAR(h100.tensor_tflops.at("fp16").value, 989.43, 0.01);
    EXPECT_DOUBLE_EQ(h100.tensor_tflops.at("fp16").clock_mhz, 1830);
    // H100 PCIe HBM2e: 1593 MHz x 2 x 640 B = 2039 GB/s.
    EXPECT_NEAR(load_shipped("h100-pcie", dirs).hbm_gbs->value, 2039, 0.5);
}

TEST(GpuDatabase, TuringAndGa102FiguresHold) {
    const auto dirs = shipped_dirs();
    // T4: 40 SMs x 128 flop/clk x 1.59 GHz = 8140.8 GFLOP/s; FP64 1:32 = 254.4.
    const auto t4 = load_shipped("t4", dirs);
    EXPECT_NEAR(t4.gflops.at("fp32_fma").value, 8140.8, 0.05);
    EXPECT_NEAR(t4.gflops.at("fp64_fma").value, 254.4, 0.05);
    // A10G: 80 x 512 x 1.71 GHz = 70.04 TFLOP/s, half the A10's 1024 flop/clk/SM.
    EXPECT_NEAR(load_shipped("a10g", dirs).tensor_tflops.at("fp16").value, 70.04, 0.01);
    // RTX A6000: 84 x 1024 x 1.8 GHz = 154.83 dense; the datasheet's 309.7 is 2:4-sparse.
    const auto a6000 = load_shipped("rtx-a6000", dirs);
    EXPECT_NEAR(a6000.tensor_tflops.at("fp16").value, 154.83, 0.01);
    EXPECT_NEAR(a6000.tensor_sparse_tflops.at("fp16").value, 309.66, 0.01);
    // RTX 3090 Ti: FP16 accumulate 84 x 1024 x 1.86 GHz = 159.99; FP32 accumulate half, 79.99.
    const auto ti = load_shipped("rtx-3090-ti", dirs);
    EXPECT_NEAR(ti.tensor_tflops.at("fp16_f16acc").value, 159.99, 0.01);
    EXPECT_NEAR(ti.tensor_tflops.at("fp16").value, 79.99, 0.01);
    // GA102's SM: 2 warp instructions a clock of FP32 or FP16 and 2 of FP32 or INT32, so 84 x 2
    // x 1.86 GHz = 312.48 warp GIPS each; the 3090 Ti's measured 2000-2050 MHz under load.
    EXPECT_NEAR(ti.datapaths.at("fp32_or_int32").value, 312.48, 0.01);
    EXPECT_DOUBLE_EQ(clock_entry_mhz(ti, "sustained"), 2000);
    EXPECT_DOUBLE_EQ(clock_entry_mhz(ti, "sustained_high"), 2050);
    // The A6000 reached 1935 MHz and no more: its sustained clock is its rated boost.
    EXPECT_DOUBLE_EQ(clock_entry_mhz(a6000, "sustained"), 1800);
    EXPECT_DOUBLE_EQ(clock_entry_mhz(a6000, "sustained_high"), 1935);
    // Turing: 64 FP32 and 64 INT32 lanes, 2 warp instructions a clock each: 40 x 2 x 1.59 =
    // 127.2 warp GIPS.
    EXPECT_NEAR(t4.datapaths.at("fp32").value, 127.2, 0.01);
}

TEST(GpuDatabase, LoadShippedUnknownKeyListsKnownOnes) {
    try {
        (void)load_shipped("h999", shipped_dirs());
        FAIL();
    } catch (const CeilingsError& e) {
        const std::string msg = e.what();
        EXPECT_EQ(msg.rfind("gpus: h999: no such shipped entry (known: ", 0), 0u) << msg;
        EXPECT_NE(msg.find("h100-sxm5"), std::string::npos) << msg;
    }
}

// nvprof's "Tesla V100S-PCIE-32GB" matches no entry (no alias is in its name); its family's spec
// entries are the stand-ins (v100-sxm2 and v100-sxm2-ert; measured files left out), and a name
// of no shipped family has none.
TEST(GpuDatabase, FamilyEntriesAreTheStandInsOfAnUnshippedGpu) {
    const auto dirs = shipped_dirs();
    EXPECT_EQ(family_entries("Tesla V100S-PCIE-32GB", dirs),
              (std::vector<std::string>{"v100-sxm2", "v100-sxm2-ert"}));
    EXPECT_TRUE(family_entries("Radeon Instinct MI250X", dirs).empty());
    // "a10" is in "A100X" too; the longer family wins.
    EXPECT_EQ(family_entries("NVIDIA A100X", dirs),
              (std::vector<std::string>{"a100-pcie", "a100-sxm4-40gb", "a100-sxm4-80gb"}));
}

TEST(GpuDatabase, MatchesDetectedGpus) {
    const auto dirs = shipped_dirs();
    const auto key = [&](const char* name, const char* cc, int sms) {
        return match_gpu(name, cc, sms, dirs).value_or("(none)");
    };
    EXPECT_EQ(key("NVIDIA H100 80GB HBM3", "9.0", 132), "h100-sxm5");
    EXPECT_EQ(key("NVIDIA H100 PCIe", "9.0", 114), "h100-pcie");
    EXPECT_EQ(key("NVIDIA H200", "9.0", 132), "h200-sxm");
    EXPECT_EQ(key("NVIDIA GH200 480GB", "9.0", 132), "gh200"); // not h200 (shorter alias)
    EXPECT_EQ(key("NVIDIA A100-SXM4-40GB", "8.0", 108), "a100-sxm4-40gb");
    EXPECT_EQ(key("NVIDIA A100-SXM4-80GB", "8.0", 108), "a100-sxm4-80gb");
    EXPECT_EQ(key("NVIDIA A100 80GB PCIe", "8.0", 108), "a100-pcie");
    EXPECT_EQ(key("NVIDIA A10", "8.6", 72), "a10");
    EXPECT_EQ(key("NVIDIA L4", "8.9", 58), "l4");
    EXPECT_EQ(key("NVIDIA L40S", "8.9", 142), "l40s");
    EXPECT_EQ(key("NVIDIA GeForce RTX 4090", "8.9", 128), "rtx-4090");
    EXPECT_EQ(key("Tesla V100-SXM2-32GB", "7.0", 80), "v100-sxm2");
    EXPECT_EQ(key("NVIDIA B200", "10.0", 148), "b200");
    EXPECT_EQ(key("Tesla T4", "7.5", 40), "t4");
    EXPECT_EQ(key("NVIDIA A10G", "8.6", 80), "a10g"); // "NVIDIA A10" is in the name too
    EXPECT_EQ(key("NVIDIA RTX A6000", "8.6", 84), "rtx-a6000");
    EXPECT_EQ(key("NVIDIA GeForce RTX 3090 Ti", "8.6", 84), "rtx-3090-ti");
    EXPECT_EQ(key("NVIDIA GeForce RTX 3090", "8.6", 82), "rtx-3090"); // not the Ti
    // Not in the database, or a mismatching SM count / cc: derive instead.
    EXPECT_EQ(key("NVIDIA H100 NVL", "9.0", 132), "(none)");
    EXPECT_EQ(key("NVIDIA H100 80GB HBM3", "9.0", 114), "(none)");
    EXPECT_EQ(key("NVIDIA H100 80GB HBM3", "8.0", 132), "(none)");
}

class GpuDatabaseTmp : public test::TempDirTest {};

TEST_F(GpuDatabaseTmp, MeasuredFileIsPreferred) {
    fs::copy_file(fs::path(source_gpus()) / "h100-sxm5.yaml", m_tmp / "h100-sxm5.yaml");
    const std::vector<std::string> dirs = {m_tmp.path().string()};
    EXPECT_EQ(match_gpu("NVIDIA H100 80GB HBM3", "9.0", 132, dirs).value_or(""), "h100-sxm5");
    auto measured = load_shipped("h100-sxm5", dirs);
    measured.gpu.key = "h100-sxm5.measured";
    test::write_file(m_tmp / "h100-sxm5.measured.yaml", to_yaml(measured));
    EXPECT_EQ(match_gpu("NVIDIA H100 80GB HBM3", "9.0", 132, dirs).value_or(""),
              "h100-sxm5.measured");
    EXPECT_EQ(list_shipped(dirs), (std::vector<std::string>{"h100-sxm5", "h100-sxm5.measured"}));
    // "all" targets are spec entries only.
    EXPECT_EQ(resolve_targets("all", dirs).size(), 1u);
}

TEST_F(GpuDatabaseTmp, BrokenEntryDoesNotStopDetection) {
    fs::copy_file(fs::path(source_gpus()) / "l4.yaml", m_tmp / "l4.yaml");
    test::write_file(m_tmp / "broken.yaml", "schema: nope\n");
    EXPECT_EQ(match_gpu("NVIDIA L4", "8.9", 58, {m_tmp.path().string()}).value_or(""), "l4");
}

TEST_F(GpuDatabaseTmp, SearchPathOrder) {
    EnvGuard guard;
    const auto installed = m_tmp / "prefix" / "share" / "irf" / "gpus";
    fs::create_directories(installed);
    fs::create_directories(m_tmp / "prefix" / "bin");
    fs::create_directories(m_tmp / "env");
    auto dirs = gpus_dirs((m_tmp / "prefix" / "bin").string());
    ASSERT_EQ(dirs.size(), 2u);
    EXPECT_EQ(dirs[0], fs::weakly_canonical(installed).string());
    EXPECT_EQ(dirs[1], source_gpus());
    setenv("IRF_GPUS_DIR", (m_tmp / "env").string().c_str(), 1);
    dirs = gpus_dirs((m_tmp / "prefix" / "bin").string());
    ASSERT_EQ(dirs.size(), 3u);
    EXPECT_EQ(dirs[0], fs::weakly_canonical(m_tmp / "env").string());
    // A part that is not a directory makes the value invalid as a whole (the option table;
    // libirf and `irf run` say so at start): only the installed and source databases remain.
    setenv("IRF_GPUS_DIR", ((m_tmp / "env").string() + ":/nonexistent/dir").c_str(), 1);
    EXPECT_EQ(gpus_dirs((m_tmp / "prefix" / "bin").string()).size(), 2u);
    // No anchor, no env: just the source tree.
    unsetenv("IRF_GPUS_DIR");
    EXPECT_EQ(gpus_dirs(""), std::vector<std::string>{source_gpus()});
}

// Issue #39 item 11: 10,000 copies of one name were 10,000 loads and projections (a 58 s stall).
TEST(GpuDatabase, RepeatedTargetsAreLoadedOnce) {
    const auto dirs = shipped_dirs();
    std::string spec = "h100-sxm5";
    for (int i = 0; i < 10000; ++i) {
        spec += ",h100-sxm5";
    }
    const auto start = std::chrono::steady_clock::now();
    const auto once = resolve_targets(spec + ",l4", dirs);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
    ASSERT_EQ(once.size(), 2u);
    EXPECT_EQ(once[1].gpu.key, "l4");
}

TEST(GpuDatabase, ResolveTargets) {
    const auto dirs = shipped_dirs();
    EXPECT_TRUE(resolve_targets("none", dirs).empty());
    EXPECT_TRUE(resolve_targets("", dirs).empty());
    std::size_t spec_entries = 0;
    for (const auto& key : list_shipped(dirs)) {
        spec_entries += key.find(".measured") == std::string::npos ? 1 : 0;
    }
    EXPECT_EQ(resolve_targets("all", dirs).size(), spec_entries);
    const auto two = resolve_targets(" h100-sxm5, a100-pcie ", dirs);
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(two[0].gpu.key, "h100-sxm5");
    EXPECT_EQ(two[1].gpu.key, "a100-pcie");
    const std::string file = std::string(IRF_TEST_DATA_DIR) + "/ceilings/good/minimal.yaml";
    const auto mixed = resolve_targets("l4," + file, dirs);
    ASSERT_EQ(mixed.size(), 2u);
    EXPECT_EQ(mixed[1].gpu.name, "Test GPU");
    try {
        (void)resolve_targets("h100-sxm5,h999", dirs);
        FAIL();
    } catch (const CeilingsError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("IRF_TARGETS: h999: unknown target", 0), 0u)
            << e.what();
    }
    EXPECT_THROW((void)resolve_targets("/nonexistent.yaml", dirs), CeilingsError);
    try { // a tool's option names itself, not the environment variable
        (void)resolve_targets("h999", dirs, "--targets");
        FAIL();
    } catch (const CeilingsError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("--targets: h999: unknown target", 0), 0u)
            << e.what();
    }
}

TEST(GpuDatabase, MistypedNameGetsTheNearestShippedOne) {
    const std::vector<std::string> dirs = {source_gpus()};
    const auto message = [&](const std::string& item) {
        try {
            (void)load_named_ceilings(item, dirs, "--targets");
        } catch (const CeilingsError& e) {
            return std::string(e.what());
        }
        return std::string("loaded");
    };
    // "h100-sxm" is one insertion from h100-sxm5 (h100-pcie: 4 edits); case does not count.
    EXPECT_EQ(message("h100-sxm")
                  .rfind("--targets: h100-sxm: unknown target; did you mean "
                         "h100-sxm5? (known: ",
                         0),
              0u)
        << message("h100-sxm");
    EXPECT_NE(message("H200-SXN").find("did you mean h200-sxm?"), std::string::npos);
    // A GPU named without its form factor: the shipped names that begin with it.
    EXPECT_NE(message("h200").find("did you mean h200-sxm?"), std::string::npos);
    EXPECT_NE(message("H100").find("did you mean h100-pcie or h100-sxm5?"), std::string::npos);
    // "h999" is 3 or more edits from every entry (allowed: 2): no guess, the list only.
    EXPECT_EQ(message("h999").find("did you mean"), std::string::npos);
}

// Derived ceilings need the compute capability and the SM count; an nvprof export gives neither.
TEST(GpuDatabase, DerivationLacksNamesWhatIsMissing) {
    EXPECT_EQ(derivation_lacks({"Tesla V100S-PCIE-32GB", "", "", 0, 0, 0}),
              "compute capability or SM count");
    EXPECT_EQ(derivation_lacks({"GPU", "ga100", "8.0", 0, 1410, 0}), "SM count");
    EXPECT_EQ(derivation_lacks({"GPU", "", "", 108, 1410, 0}), "compute capability");
    EXPECT_EQ(derivation_lacks({"GPU", "ga100", "8.0", 108, 1410, 0}), "");
    // choose_ceilings says the same and chooses nothing.
    const CeilingsChoice none =
        choose_ceilings("", "IRF_CEILINGS", {"GPU", "", "8.0", 0, 0, 0}, {});
    EXPECT_FALSE(none.ceilings.has_value());
}

} // namespace
} // namespace test_gpu_database
} // namespace irf::config

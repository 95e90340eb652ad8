// SPDX-License-Identifier: Apache-2.0
// Unit tests of the irf.ceilings/v1 parser, validator and writer.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "config/ceilings_yaml.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::config {
namespace test_ceilings_yaml {
namespace {

namespace fs = std::filesystem;

std::string data(const std::string& rel) {
    return std::string(IRF_TEST_DATA_DIR) + "/ceilings/" + rel;
}

std::string error_of(const std::string& path) {
    try {
        (void)load_ceilings_file(path);
    } catch (const CeilingsError& e) {
        return e.what();
    }
    return "";
}

TEST(CeilingsYaml, MinimalFileLoads) {
    const auto c = load_ceilings_file(data("good/minimal.yaml"));
    EXPECT_EQ(c.gpu.name, "Test GPU");
    EXPECT_EQ(c.gpu.sms, 10);
    EXPECT_EQ(c.gpu.schedulers_per_sm, 4); // default
    // 10 SMs x 4 schedulers x 1000 MHz = 40 warp-GIPS.
    EXPECT_DOUBLE_EQ(c.warp_gips.value, 40.0);
    EXPECT_EQ(c.warp_gips.provenance, Provenance::derived);
    EXPECT_FALSE(c.hbm_gbs.has_value());
    EXPECT_EQ(c.source, data("good/minimal.yaml"));
}

TEST(CeilingsYaml, FullFileKeepsEveryField) {
    const auto c = load_ceilings_file(data("good/full.yaml"));
    EXPECT_EQ(c.gpu.key, "test-gpu");
    EXPECT_EQ(c.gpu.cc, "9.0");
    ASSERT_TRUE(c.hbm_gbs.has_value());
    EXPECT_DOUBLE_EQ(c.hbm_gbs->value, 3352.0);
    ASSERT_EQ(c.hbm_gbs->alternatives.size(), 1u);
    EXPECT_EQ(c.hbm_gbs->alternatives[0].provenance, Provenance::measured);
    EXPECT_EQ(c.hbm_gbs->alternatives[0].date, "2026-11-22");
    EXPECT_EQ(c.tensor_tflops.at("int8").unit, "TOPS");
    EXPECT_DOUBLE_EQ(c.tensor_tflops.at("fp16").clock_mhz, 1830.0);
    // 132 SMs x 128 flop/clk x 1980 MHz / 1e3 = 33454.08 GFLOP/s.
    EXPECT_DOUBLE_EQ(c.gflops.at("fp64_fma").per_sm_per_clock, 128.0);
    EXPECT_DOUBLE_EQ(c.tensor_sparse_tflops.at("fp16").value, 1978.9);
    ASSERT_TRUE(c.gpu.sm_limits.has_value());
    EXPECT_EQ(c.gpu.sm_limits->max_warps_per_sm, 64);
    EXPECT_EQ(c.gpu.sm_limits->shared_bytes_per_block, 232448); // 227 KB
    EXPECT_EQ(c.gpu.sm_limits->shared_reserved_per_block, 1024);
    EXPECT_EQ(c.gpu.sm_limits->source, "CUDA C++ Programming Guide");
}

TEST(CeilingsYaml, EveryBadFileGivesItsExpectedMessage) {
    int cases = 0;
    for (const auto& entry : fs::directory_iterator(data("bad"))) {
        const auto path = entry.path().string();
        const auto text = test::read_file(entry.path());
        const auto mark = text.find("# expect:");
        ASSERT_NE(mark, std::string::npos) << path;
        const auto expected = text.substr(mark + 8, text.find('\n', mark) - (mark + 8));
        const auto message = error_of(path);
        SCOPED_TRACE(path);
        EXPECT_EQ(message.rfind(path + expected, 0), 0u) << "got: " << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
        ++cases;
    }
    EXPECT_GE(cases, 33);
}

TEST(CeilingsYaml, MissingFileNamesPath) {
    EXPECT_EQ(error_of("/nonexistent/x.yaml"),
              "/nonexistent/x.yaml: (file): cannot open /nonexistent/x.yaml: No such file or "
              "directory");
}

TEST(CeilingsYaml, ErrorWithoutPositionForEmptyDocument) {
    try {
        (void)parse_ceilings_yaml("", "empty.yaml");
        FAIL() << "empty text accepted";
    } catch (const CeilingsError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("empty.yaml:", 0), 0u) << e.what();
        EXPECT_NE(std::string(e.what()).find("(document)"), std::string::npos) << e.what();
    }
}

TEST(CeilingsYaml, ErrorIsOneLineEvenForMultiLineKey) {
    const std::string text = "schema: irf.ceilings/v1\n\"bad\\nkey\": 1\n";
    try {
        (void)parse_ceilings_yaml(text, "k.yaml");
        FAIL();
    } catch (const CeilingsError& e) {
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).rfind("k.yaml:2: bad key: unknown key", 0), 0u) << e.what();
    }
}

Quantity make(double value, const std::string& unit, Provenance provenance,
              const std::string& source, const std::string& method, const std::string& date) {
    Quantity q;
    q.value = value;
    q.unit = unit;
    q.provenance = provenance;
    q.source = source;
    q.method = method;
    q.date = date;
    return q;
}

Ceilings sample() {
    Ceilings c;
    c.gpu.name = "NVIDIA H100 80GB HBM3";
    c.gpu.key = "h100-sxm5.measured";
    c.gpu.chip = "GH100";
    c.gpu.cc = "9.0";
    c.gpu.sms = 132;
    c.gpu.boost_clock_mhz = 1980;
    c.gpu.base_clock_mhz = 1590;
    c.gpu.l2_bytes = 52428800;
    c.gpu.memory_bytes = 85899345920ull;
    c.gpu.memory_type = "HBM3";
    c.gpu.aliases = {"H100 80GB HBM3", "null"};
    SmLimits limits;
    limits.max_threads_per_sm = 1536;
    limits.max_warps_per_sm = 48;
    limits.max_blocks_per_sm = 24;
    limits.max_threads_per_block = 1024;
    limits.registers_per_sm = 65536;
    limits.max_registers_per_thread = 255;
    limits.register_alloc_unit = 256;
    limits.shared_bytes_per_sm = 102400;
    limits.shared_bytes_per_block = 101376;
    limits.shared_reserved_per_block = 0;
    limits.shared_alloc_unit = 128;
    limits.source = "test table";
    c.gpu.sm_limits = limits;
    c.environment = {{"driver", "580.65.06"}, {"tool", "irf-calibrate 0.1.0"}};
    c.warp_gips = make(1001.7, "warp-GIPS", Provenance::measured, "irf-calibrate", "ffma+lop3 1:1",
                       "2026-11-22");
    c.warp_gips.driver = "580.65.06";
    c.warp_gips.clock_mhz = 1965.5;
    Stats stats;
    stats.n = 10;
    stats.best = 1001.7;
    stats.median = 998.25;
    stats.worst = 990.1;
    stats.spread_pct = 1.158;
    c.warp_gips.stats = stats;
    Quantity hbm = make(3012.345678901, "GB/s", Provenance::measured, "irf-calibrate", "read 16B",
                        "2026-11-22");
    hbm.working_set_bytes = 1ull << 31;
    hbm.alternatives.push_back(make(3352.3, "GB/s", Provenance::spec, "datasheet", "", ""));
    c.hbm_gbs = hbm;
    Quantity dense = make(989.4, "TFLOP/s", Provenance::spec, "datasheet", "", "");
    dense.clock_mhz = 1830;
    dense.per_sm_per_clock = 4096;
    c.tensor_tflops["fp16"] = dense;
    Quantity sparse = dense;
    sparse.value = 1978.9;
    sparse.per_sm_per_clock = 8192;
    c.tensor_sparse_tflops["fp16"] = sparse;
    c.details["shared_stride_2"] = make(16500.25, "GB/s", Provenance::measured, "irf-calibrate",
                                        "ld.shared stride 2", "2026-11-22");
    return c;
}

void expect_same(const Quantity& a, const Quantity& b) {
    EXPECT_EQ(a.value, b.value); // exact: the writer must round-trip doubles
    EXPECT_EQ(a.unit, b.unit);
    EXPECT_EQ(a.provenance, b.provenance);
    EXPECT_EQ(a.source, b.source);
    EXPECT_EQ(a.method, b.method);
    EXPECT_EQ(a.date, b.date);
    EXPECT_EQ(a.driver, b.driver);
    EXPECT_EQ(a.clock_mhz, b.clock_mhz);
    EXPECT_EQ(a.per_sm_per_clock, b.per_sm_per_clock);
    EXPECT_EQ(a.working_set_bytes, b.working_set_bytes);
    ASSERT_EQ(a.stats.has_value(), b.stats.has_value());
    if (a.stats) {
        EXPECT_EQ(a.stats->n, b.stats->n);
        EXPECT_EQ(a.stats->median, b.stats->median);
        EXPECT_EQ(a.stats->spread_pct, b.stats->spread_pct);
    }
    ASSERT_EQ(a.alternatives.size(), b.alternatives.size());
    for (std::size_t i = 0; i < a.alternatives.size(); ++i) {
        expect_same(a.alternatives[i], b.alternatives[i]);
    }
}

TEST(CeilingsYaml, RoundTripThroughWriter) {
    const auto in = sample();
    const auto text = to_yaml(in);
    const auto out = parse_ceilings_yaml(text, "roundtrip");
    EXPECT_EQ(out.gpu.name, in.gpu.name);
    EXPECT_EQ(out.gpu.cc, "9.0");
    EXPECT_EQ(out.gpu.memory_bytes, in.gpu.memory_bytes);
    EXPECT_EQ(out.gpu.aliases, in.gpu.aliases); // "null" stays a string
    ASSERT_TRUE(out.gpu.sm_limits.has_value());
    EXPECT_EQ(out.gpu.sm_limits->max_blocks_per_sm, 24);
    EXPECT_EQ(out.gpu.sm_limits->shared_reserved_per_block, 0); // 0 is allowed for the reserve
    EXPECT_EQ(out.gpu.sm_limits->source, "test table");
    EXPECT_EQ(out.environment, in.environment);
    expect_same(out.warp_gips, in.warp_gips);
    ASSERT_TRUE(out.hbm_gbs.has_value());
    expect_same(*out.hbm_gbs, *in.hbm_gbs);
    expect_same(out.tensor_tflops.at("fp16"), in.tensor_tflops.at("fp16"));
    expect_same(out.details.at("shared_stride_2"), in.details.at("shared_stride_2"));
    EXPECT_EQ(to_yaml(out), text); // a fixed point
}

TEST(CeilingsYaml, ValidateRejectsInMemoryImpossibleValue) {
    auto c = sample();
    c.tensor_sparse_tflops["fp16"].value = 100;
    try {
        validate_ceilings(c, "calibrate");
        FAIL() << "sparse below dense accepted";
    } catch (const CeilingsError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("calibrate: ceilings.tensor_sparse_tflops.fp16", 0),
                  0u)
            << e.what();
    }
}

// A value's clock_mhz is 0 (not recorded) or 100 MHz to 1.1 x the boost clock (docs/ceilings.md,
// Validation): both ends accepted, one past each refused, and a clock in GHz (1.83) refused.
TEST(CeilingsYaml, ValueClockEdgesAreAcceptedAndOnePastRefused) {
    // The sample's boost is 1980 MHz: 1.1 x 1980 = 2178 MHz.
    for (const double mhz : {0.0, 100.0, 1830.0, 2178.0}) {
        auto c = sample();
        c.hbm_gbs->clock_mhz = mhz;
        EXPECT_NO_THROW(validate_ceilings(c, "calibrate")) << mhz;
    }
    for (const double mhz : {1.83, 99.9, 2178.5, -1.0}) {
        auto c = sample();
        c.hbm_gbs->clock_mhz = mhz;
        try {
            validate_ceilings(c, "calibrate");
            ADD_FAILURE() << mhz << " MHz accepted";
        } catch (const CeilingsError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("calibrate: ceilings.hbm_gbs.clock_mhz: ", 0), 0u)
                << e.what();
            EXPECT_NE(std::string(e.what()).find("must be 0 (not recorded) or between 100 and "
                                                 "2178 MHz (1.1 x the boost clock of 1980)"),
                      std::string::npos)
                << e.what();
        }
    }
}

TEST(CeilingsYaml, ValidateRejectsWrongUnitInMemory) {
    auto c = sample();
    c.hbm_gbs->unit = "TB/s";
    EXPECT_THROW(validate_ceilings(c, "calibrate"), CeilingsError);
}

} // namespace
} // namespace test_ceilings_yaml
} // namespace irf::config

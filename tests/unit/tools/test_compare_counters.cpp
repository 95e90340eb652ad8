// SPDX-License-Identifier: Apache-2.0
// `irf-report metrics --ncu` and `irf-report compare --counters` (issue 33 item 6).
#include <algorithm>

#include <gtest/gtest.h>

#include "config/metric_sets.hpp"
#include "tools/irf_report/compare_counters.hpp"
#include "tools/irf_report/ncu_command.hpp"
#include "tools/irf_report/reanalysis.hpp"
#include "tools/irf_report/same_gpu.hpp"
#include "tools/irf_report/tools_common.hpp"

namespace irf::report {
namespace test_compare_counters {
namespace {

TEST(NcuCommand, DefaultLineCollectsExactlyIrfsDefaultSet) {
    const auto family = *config::chip_family("GH100");
    const std::string text = ncu_command_lines(family, "GH100");
    const std::string first = text.substr(text.find("\nncu ") + 1);
    const std::string line = first.substr(0, first.find('\n'));
    // The list between "--metrics " and the next space, with a comma after each name.
    const std::size_t start = line.find("--metrics ") + 10;
    const std::string list = line.substr(start, line.find(' ', start) - start) + ",";
    const auto names = config::metric_names(config::metric_bindings(family, false, false));
    for (const std::string& metric : names) {
        EXPECT_NE(list.find(metric + ","), std::string::npos) << metric;
    }
    EXPECT_EQ(std::count(list.begin(), list.end(), ','), static_cast<long>(names.size()));
    EXPECT_EQ(line.find("smsp__inst_executed_pipe_alu.sum"), std::string::npos); // pipe_mix only
    EXPECT_NE(text.find("irf-report import"), std::string::npos);
}

TEST(CompareCounters, RelativeDifference) {
    EXPECT_DOUBLE_EQ(*relative_difference(200, 210), 0.05); // (210 - 200) / 200
    EXPECT_DOUBLE_EQ(*relative_difference(0, 0), 0);
    EXPECT_FALSE(relative_difference(0, 3).has_value());
}

TEST(CompareCounters, PerProfiledLaunchSoRunsOfDifferentSamplesCompare) {
    model::Profile a, b;
    model::KernelRecord k;
    k.name = "k";
    k.profiled_launches = 2;
    k.counters = {{"inst_warp", 200}, {"dram_sectors_read", 10}}; // 100 and 5 per launch
    a.kernels = {k};
    k.profiled_launches = 4;
    k.counters = {{"inst_warp", 420}}; // 105 per launch: (105 - 100) / 100 = +5%
    b.kernels = {k};
    const std::string text = compare_counters_text(a, "libirf.json", b, "ncu.json");
    EXPECT_NE(text.find("inst_warp"), std::string::npos);
    EXPECT_NE(text.find("+5.00%"), std::string::npos) << text;
    EXPECT_NE(text.find("only in A"), std::string::npos) << text; // dram_sectors_read
}

TEST(CompareCounters, ALongOrHostileCounterNameKeepsItsWholeRow) {
    // issue 52 item 10: a name over 160 bytes was cut into a fixed buffer with the rest of its
    // row and its line end; terminal escapes in a name were printed raw.
    const std::string long_name = "x" + std::string(200, 'y');
    const std::string hostile = "evil\x1b[2J";
    model::Profile a, b;
    model::KernelRecord k;
    k.name = "k";
    k.profiled_launches = 1;
    k.counters = {{long_name, 100}, {hostile, 4}};
    a.kernels = {k};
    k.counters = {{long_name, 110}, {hostile, 4}};
    b.kernels = {k};
    const std::string text = compare_counters_text(a, "a.json", b, "b.json");
    // (110 - 100) / 100 = +10%, on the name's own line, which ends there.
    const std::size_t row = text.find("  " + long_name + " ");
    ASSERT_NE(row, std::string::npos) << text;
    const std::string line = text.substr(row, text.find('\n', row) - row);
    EXPECT_NE(line.find("+10.00%"), std::string::npos) << line;
    EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
    EXPECT_NE(text.find("evil\\x1B[2J"), std::string::npos) << text;
}

model::KernelRecord kernel(const std::string& name, std::uint32_t grid) {
    model::KernelRecord k;
    k.name = name;
    k.launch.grid = {grid, 1, 1};
    k.launch.block = {256, 1, 1};
    return k;
}

TEST(MatchKernels, NcuAndDemanglerSpellingsPairByLaunch) {
    // issue #53 item 1: the H100 recording's two spellings of one kernel; the second pair
    // differs in a way no rule maps (ncu's "T1" with an unknown argument), so it pairs by
    // qualified name, grid and block, the only such kernel on each side.
    const std::vector<model::KernelRecord> irf = {
        kernel("void (anonymous namespace)::stride_load<float, 1>(float const*, float*)", 128),
        kernel("void ns::k<4>(S<4> const&)", 64), kernel("void ns::k<4>(S<4> const&)", 32)};
    const std::vector<model::KernelRecord> ncu = {
        kernel("void ns::k<(int)4>(const S<T9> &)", 32),
        kernel("void <unnamed>::stride_load<float, 1>(const T1 *, T1 *)", 128)};
    const KernelMatch m = match_kernels(irf, ncu);
    using Pair = std::pair<std::size_t, std::size_t>;
    EXPECT_EQ(m.pairs, (std::vector<Pair>{{2, 0}, {0, 1}}));
    EXPECT_EQ(m.only_before, std::vector<std::size_t>{1});
    EXPECT_TRUE(m.only_after.empty());
}

TEST(MatchKernels, QualifiedNameFallbackNeedsOneKernelOnEachSide) {
    // Two launches of one grid on the left: the parameter-less fallback cannot tell which.
    const std::vector<model::KernelRecord> a = {kernel("void k<1>(A)", 8),
                                                kernel("void k<1>(B)", 8)};
    const std::vector<model::KernelRecord> b = {kernel("void k<(int)1>(C)", 8)};
    const KernelMatch m = match_kernels(a, b);
    EXPECT_TRUE(m.pairs.empty());
    EXPECT_EQ(m.only_after, std::vector<std::size_t>{0});
}

model::GpuInfo gpu(const std::string& name, const std::string& chip, const std::string& cc,
                   int sms) {
    model::GpuInfo g;
    g.name = name;
    g.chip = chip;
    g.cc = cc;
    g.sms = sms;
    return g;
}

TEST(SameGpu, DecidedByWhatTheGpuIsNotByWhoRecordedIt) {
    const auto dirs = shipped_dirs();
    const model::GpuInfo driver = gpu("NVIDIA H100 80GB HBM3", "GH100", "9.0", 132);
    // An import matched to the shipped entry, another spelling of one model.
    EXPECT_EQ(gpu_relation(driver, gpu("NVIDIA H100 SXM5 80GB", "GH100", "9.0", 132), dirs),
              GpuRelation::same);
    // ncu's Device "0": nothing tells them apart.
    EXPECT_EQ(gpu_relation(driver, gpu("0", "GH100", "9.0", 0), dirs), GpuRelation::same_chip);
    EXPECT_EQ(gpu_relation(driver, gpu("", "GH100", "9.0", 132), dirs), GpuRelation::same_chip);
    // Another chip, SM count or model.
    EXPECT_EQ(gpu_relation(driver, gpu("0", "GA100", "8.0", 0), dirs), GpuRelation::different);
    EXPECT_EQ(gpu_relation(driver, gpu("", "GH100", "9.0", 114), dirs), GpuRelation::different);
    EXPECT_EQ(gpu_relation(driver, gpu("NVIDIA H200", "GH100", "9.0", 132), dirs),
              GpuRelation::different);
    EXPECT_EQ(gpu_relation(driver, gpu("NVIDIA A100-SXM4-80GB", "GH100", "9.0", 132), dirs),
              GpuRelation::different);
}

} // namespace
} // namespace test_compare_counters
} // namespace irf::report

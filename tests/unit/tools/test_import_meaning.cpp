// SPDX-License-Identifier: Apache-2.0
// tools/import, what the values mean (issue #53): every elapsed-cycles form of a duration, and
// kernels without one left unknown; hand-computed values.
#include <sstream>

#include <gtest/gtest.h>

#include "tools/import/join_files.hpp"
#include "tools/import/profiler_log.hpp"
#include "tools/import/read_export.hpp"

namespace irf::import {
namespace test_import_meaning {
namespace {

const char* const k_header =
    "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\","
    "\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";

// One launch "k" with metric rows {name, unit, value}.
std::string launch(const std::string& id, const std::vector<std::array<const char*, 3>>& rows) {
    std::string out;
    for (const auto& [name, unit, value] : rows) {
        out += "\"" + id + "\",\"k(int)\",\"(32, 1, 1)\",\"(8, 1, 1)\",\"0\",\"8.0\",\"s\",\"" +
               name + "\",\"" + unit + "\",\"" + value + "\"\n";
    }
    return out;
}

ImportedFile read(const std::string& text) {
    std::istringstream in(text);
    return read_export(in, "t.csv");
}

double duration(const ImportedFile& f) {
    return f.kernels.at(0).time_ns.value().total;
}

TEST(ImportTime, EachUnitsCyclesOverTheSameUnitsRate) {
    // 2,000 cycles at 1 GHz (cycle/nsecond) = 2,000 ns.
    const ImportedFile gpc =
        read(std::string(k_header) +
             launch("0", {{{"gpc__cycles_elapsed.max", "cycle", "2,000"},
                           {"gpc__cycles_elapsed.avg.per_second", "cycle/nsecond", "1"},
                           {"smsp__inst_executed.sum", "inst", "64"}}}));
    EXPECT_DOUBLE_EQ(duration(gpc), 2000);
    EXPECT_EQ(gpc.kernels[0].notes.count("import: time from gpc__cycles_elapsed.max / "
                                         "gpc__cycles_elapsed.avg.per_second (no "
                                         "gpu__time_duration)"),
              1u);
    // The average wins over the maximum of one unit: 1,500 cycles / 1.5e9 Hz = 1,000 ns.
    const ImportedFile sm =
        read(std::string(k_header) +
             launch("0", {{{"sm__cycles_elapsed.max", "cycle", "3,000"},
                           {"sm__cycles_elapsed.avg", "cycle", "1,500"},
                           {"sm__cycles_elapsed.avg.per_second", "Ghz", "1.5"}}}));
    EXPECT_DOUBLE_EQ(duration(sm), 1000);
}

TEST(ImportTime, SmAndSmspShareOneClock) {
    // SM cycles with only the SMSPs' rate: 700 cycles / 700 MHz = 1,000 ns.
    const ImportedFile f =
        read(std::string(k_header) +
             launch("0", {{{"sm__cycles_elapsed.avg", "cycle", "700"},
                           {"smsp__cycles_elapsed.avg.per_second", "Mhz", "700"}}}));
    EXPECT_DOUBLE_EQ(duration(f), 1000);
    // A GPC clock never stands in for the SMs' (another clock domain on some chips): no time.
    const ImportedFile g = read(std::string(k_header) +
                                launch("0", {{{"sm__cycles_elapsed.avg", "cycle", "700"},
                                              {"gpc__cycles_elapsed.avg.per_second", "Mhz", "700"},
                                              {"smsp__inst_executed.sum", "inst", "64"}}}));
    EXPECT_FALSE(g.kernels.at(0).time_ns.has_value());
}

TEST(ImportTime, ADurationWinsOverCycles) {
    const ImportedFile f =
        read(std::string(k_header) +
             launch("0", {{{"gpu__time_duration.sum", "usecond", "3"},
                           {"smsp__cycles_elapsed.avg", "cycle", "700"},
                           {"smsp__cycles_elapsed.avg.per_second", "Mhz", "700"}}}));
    EXPECT_DOUBLE_EQ(duration(f), 3000);
}

TEST(ImportTime, NoDurationIsUnknownWithOneWarningPerFile) {
    const ImportedFile f =
        read(std::string(k_header) + launch("0", {{{"smsp__inst_executed.sum", "inst", "64"}}}) +
             launch("1", {{{"smsp__inst_executed.sum", "inst", "64"}}}));
    const model::Profile p = join_files({f});
    ASSERT_EQ(p.kernels.size(), 1u);
    EXPECT_TRUE(p.kernels[0].untimed);
    EXPECT_EQ(p.kernels[0].counters.count("time_ns"), 0u);
    ASSERT_EQ(p.warnings.size(), 1u);
    EXPECT_NE(p.warnings[0].find("t.csv: 1 of 1 kernels with counters have no duration"),
              std::string::npos)
        << p.warnings[0];
}

// Issue 53 item 6: nvprof's aggregate flop_count_sp is the FP32 FLOPs (Avg x Invocations), as
// in the public Kepler exports of that form (values of one of them).
TEST(ImportFlops, NvprofFlopCountTotalsArePrecisionFlops) {
    const ImportedFile f =
        read("==24987== Metric result:\n"
             "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\","
             "\"Min\",\"Max\",\"Avg\"\n"
             "\"Tesla K20c (0)\",\"k(float*, int)\",2,\"flop_count_sp\",\"Floating Point "
             "Operations(Single Precision)\",2886580620,2886580620,2886580620\n"
             "\"Tesla K20c (0)\",\"k(float*, int)\",2,\"flop_count_dp\",\"Floating Point "
             "Operations(Double Precision)\",0,0,0\n");
    ASSERT_EQ(f.kernels.size(), 1u);
    EXPECT_DOUBLE_EQ(f.kernels[0].counters.at("flops_fp32"), 2.0 * 2886580620);
    EXPECT_DOUBLE_EQ(f.kernels[0].counters.at("flops_fp64"), 0);
    EXPECT_EQ(f.kernels[0].counters.count("flops_fp16"), 0u);
}

TEST(ImportProfilerLog, AFailedLaunchIsNamedWithItsNumber) {
    ProfilerLog log;
    // As ncu wrote them in a public DeepBench log (the launch's progress, then the failure).
    log.line("==PROF== Profiling \"volta_h884gemm_128x256_ldg8_nn\" - 18: 0%....50%.... - 19 "
             "passes");
    log.line("==ERROR== Failed to profile \"volta_h884gemm_128x256_ldg8_nn\" in process 24701");
    log.line("==PROF== Trying to shutdown target application");
    log.line("==ERROR== The application returned an error code (15).");
    log.line("==ERROR== The application returned an error code (15).");
    log.line("==WARNING== Note: Running with unmodified GPU clocks.");
    log.line("==WARNING== No kernels were profiled.");
    log.line("==ERROR== Failed to profile \"other\""); // no progress line of it: no launch
    const std::vector<std::string> expected = {
        "ncu failed to profile kernel \"volta_h884gemm_128x256_ldg8_nn\" (launch 18): the file "
        "has no counters of that launch",
        "ncu: ==ERROR== The application returned an error code (15).",
        "ncu: ==WARNING== No kernels were profiled.",
        "ncu failed to profile kernel \"other\": the file has no counters of that launch"};
    EXPECT_EQ(log.messages(), expected);
}

TEST(ImportProfilerLog, NvprofErrorsAndABoundedList) {
    ProfilerLog log;
    log.line("==7367== NVPROF is profiling process 7367, command: ./a.out");
    log.line("==7367== Warning: ERR_NVGPUCTRPERM - The user does not have permission to profile "
             "on the target device.");
    log.line("==7367== Error: Internal profiling error 4292:1.");
    ASSERT_EQ(log.messages().size(), 2u);
    EXPECT_EQ(log.messages()[1], "nvprof: Error: Internal profiling error 4292:1.");
    ProfilerLog many;
    for (int i = 0; i < 30; ++i) {
        many.line("==ERROR== failure " + std::to_string(i));
    }
    ASSERT_EQ(many.messages().size(), ProfilerLog::k_max_messages + 1);
    EXPECT_EQ(many.messages().back(), "and 10 more profiler messages");
}

} // namespace
} // namespace test_import_meaning
} // namespace irf::import

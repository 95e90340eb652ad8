// SPDX-License-Identifier: Apache-2.0
// tools/import: cell values, units, CSV records and the joining of files, against hand-computed
// values (docs/import.md).
#include <sstream>

#include <gtest/gtest.h>

#include "tools/import/csv_records.hpp"
#include "tools/import/import_error.hpp"
#include "tools/import/join_files.hpp"
#include "tools/import/read_export.hpp"
#include "tools/import/values.hpp"

namespace irf::import {
namespace test_import {
namespace {

using Kind = config::ForeignKind;

TEST(ImportValues, ThousandsSeparatorsAndAbsentCells) {
    EXPECT_DOUBLE_EQ(parse_cell("4,621,492").value, 4621492);
    EXPECT_DOUBLE_EQ(parse_cell("1,234.5").value, 1234.5);
    EXPECT_DOUBLE_EQ(parse_cell(" 2.5e3 ").value, 2500);
    EXPECT_EQ(parse_cell("n/a").status, CellValue::Status::absent);
    EXPECT_EQ(parse_cell("").status, CellValue::Status::absent);
    EXPECT_EQ(parse_cell("1,2").status, CellValue::Status::bad); // not groups of three
    EXPECT_EQ(parse_cell("12,3456").status, CellValue::Status::bad);
    EXPECT_EQ(parse_cell("12x").status, CellValue::Status::bad);
    EXPECT_EQ(parse_cell("1e999").status, CellValue::Status::bad); // beyond double range
}

TEST(ImportValues, UnitPrefixes) {
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::time, "usecond"), 1e3); // to ns
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::time, "msecond"), 1e6);
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::time, "ms"), 1e6); // nvprof's units row
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::bytes, "Kbyte"), 1e3);
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::bytes, "Mbyte"), 1e6);
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::percent, "%"), 1);
    EXPECT_FALSE(unit_factor(Kind::percent, "inst"));
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::frequency, "cycle/nsecond"), 1e9); // GHz
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::frequency, "Mhz"), 1e6);
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::count, "inst"), 1);
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::count, "Ksector"), 1e3);
    EXPECT_FALSE(unit_factor(Kind::count, "%").has_value());
    EXPECT_FALSE(unit_factor(Kind::time, "byte").has_value());
}

// nvprof's size units are decimal like ncu's (docs/import.md, Units): 1 KB = 1000 bytes.
TEST(ImportValues, NvprofSizePrefixesAreDecimal) {
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::bytes, "B"), 1);
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::bytes, "KB"), 1e3);
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::bytes, "MB"), 1e6);
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::bytes, "GB"), 1e9);
}

TEST(ImportValues, LaunchSizes) {
    EXPECT_EQ(*parse_dim3("(256, 1, 1)"), (std::array<std::uint32_t, 3>{256, 1, 1}));
    EXPECT_EQ(*parse_dim3("[32,8,2]"), (std::array<std::uint32_t, 3>{32, 8, 2}));
    EXPECT_EQ(*parse_dim3("128"), (std::array<std::uint32_t, 3>{128, 1, 1}));
    EXPECT_FALSE(parse_dim3("(0, 1, 1)").has_value());
    EXPECT_FALSE(parse_dim3("(1, 2, 3, 4)").has_value());
    EXPECT_FALSE(parse_dim3("(256, 1").has_value());
}

TEST(ImportCsv, QuotedCommasQuotesAndLineBreaks) {
    std::istringstream in("\"a, b\",\"say \"\"hi\"\"\",plain,\"two\nlines\"\r\n");
    CsvReader reader(in, "f.csv");
    std::string line;
    ASSERT_TRUE(reader.next_line(line));
    CsvRecord r;
    reader.parse(line, r);
    ASSERT_EQ(r.fields.size(), 4u);
    EXPECT_EQ(r.fields[0], "a, b");
    EXPECT_EQ(r.fields[1], "say \"hi\"");
    EXPECT_EQ(r.fields[2], "plain");
    EXPECT_EQ(r.fields[3], "two\nlines"); // CRLF stripped, the inner break kept
    EXPECT_EQ(r.columns[1], 8u);          // "a, b", is columns 1-7
}

TEST(ImportCsv, UnclosedQuoteNamesLineAndColumn) {
    std::istringstream in("\"ok\",\"open\n");
    CsvReader reader(in, "f.csv");
    std::string line;
    ASSERT_TRUE(reader.next_line(line));
    CsvRecord r;
    try {
        reader.parse(line, r);
        FAIL() << "no error";
    } catch (const ImportError& e) {
        EXPECT_STREQ(e.what(),
                     "f.csv:1:6: a quoted field is not closed before the end of the file");
    }
}

ImportedFile read_text(const std::string& text) {
    std::istringstream in(text);
    return read_export(in, "t.csv");
}

const char* const s_header = "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Metric Name\","
                             "\"Metric Unit\",\"Metric Value\"\n";

TEST(ImportRead, SectorsWinOverBytesAndTotalsStandForTheirSplit) {
    const ImportedFile f = read_text(
        std::string(s_header) +
        "\"0\",\"k\",\"(32, 1, 1)\",\"(2, 1, 1)\",\"dram__bytes_read.sum\",\"Kbyte\",\"64\"\n"
        "\"0\",\"k\",\"(32, 1, 1)\",\"(2, 1, 1)\",\"dram__sectors_read.sum\",\"sector\",\"1,000\"\n"
        "\"0\",\"k\",\"(32, 1, 1)\",\"(2, 1, 1)\",\"lts__t_bytes.sum\",\"byte\",\"3,200\"\n");
    ASSERT_EQ(f.kernels.size(), 1u);
    const model::Counters& c = f.kernels[0].counters;
    EXPECT_DOUBLE_EQ(c.at("dram_sectors_read"), 1000); // not 64,000 / 32 = 2,000
    // lts__t_bytes.sum 3,200 B / 32 = 100 sectors, all counted as reads; the rest explicit 0.
    EXPECT_DOUBLE_EQ(c.at("l2_sectors_read"), 100);
    EXPECT_DOUBLE_EQ(c.at("l2_sectors_atom"), 0);
}

TEST(ImportRead, LaunchesOfOneKernelAddUpAndClockIsAveraged) {
    const ImportedFile f = read_text(
        std::string(s_header) +
        "\"0\",\"k\",\"(32, 1, 1)\",\"(2, 1, 1)\",\"smsp__inst_executed.sum\",\"inst\",\"100\"\n"
        "\"0\",\"k\",\"(32, 1, 1)\",\"(2, 1, 1)\",\"SM Frequency\",\"Ghz\",\"1.5\"\n"
        "\"1\",\"k\",\"(32, 1, 1)\",\"(2, 1, 1)\",\"smsp__inst_executed.sum\",\"inst\",\"300\"\n"
        "\"1\",\"k\",\"(32, 1, 1)\",\"(2, 1, 1)\",\"SM Frequency\",\"Ghz\",\"1.7\"\n");
    ASSERT_EQ(f.kernels.size(), 1u);
    EXPECT_EQ(f.kernels[0].profiled_launches, 2u);
    EXPECT_DOUBLE_EQ(f.kernels[0].counters.at("inst_warp"), 400);  // 100 + 300
    EXPECT_DOUBLE_EQ(f.kernels[0].counters.at("clock_hz"), 1.6e9); // (1.5 + 1.7) / 2 GHz
}

TEST(ImportRead, NvprofEventsSummaryIsPerLaunchAverages) {
    const ImportedFile f =
        read_text("==1== Event result:\n"
                  "\"Device\",\"Kernel\",\"Invocations\",\"Event Name\",\"Min\",\"Max\",\"Avg\","
                  "\"Total\"\n"
                  "\"Tesla V100-SXM2-16GB (0)\",\"k(int)\",3,\"inst_executed\",90,110,100,300\n");
    EXPECT_EQ(f.format, "nvprof-csv-events");
    EXPECT_EQ(f.device, "Tesla V100-SXM2-16GB"); // the device index " (0)" dropped
    ASSERT_EQ(f.kernels.size(), 1u);
    EXPECT_EQ(f.kernels[0].launches, 3u);
    EXPECT_DOUBLE_EQ(f.kernels[0].counters.at("inst_warp"), 300); // Avg 100 x 3 invocations
}

// nvprof --print-gpu-trace gives shared memory per block under the units row's KB (static) and B
// (dynamic): 4.096 KB + 1024 B = 4096 + 1024 = 5120 bytes (binary KB would read 5218).
TEST(ImportRead, NvprofTraceSharedMemoryIsInDecimalKilobytes) {
    const ImportedFile f = read_text(
        "==1== Profiling result:\n"
        "\"Start\",\"Duration\",\"Grid X\",\"Grid Y\",\"Grid Z\",\"Block X\",\"Block Y\","
        "\"Block Z\",\"Registers Per Thread\",\"Static SMem\",\"Dynamic SMem\",\"Device\","
        "\"Name\"\n"
        "s,us,,,,,,,,KB,B,,\n"
        "0.5,120.5,64,1,1,256,1,1,32,4.096000,1024,\"Tesla V100-SXM2-16GB (0)\",\"k(int)\"\n");
    EXPECT_EQ(f.format, "nvprof-csv-gpu-trace");
    ASSERT_EQ(f.kernels.size(), 1u);
    ASSERT_TRUE(f.kernels[0].launch.has_value());
    EXPECT_EQ(f.kernels[0].launch->smem_bytes, 5120u);
    EXPECT_EQ(f.kernels[0].launch->regs, 32u);
}

TEST(ImportJoin, CountersAgreeingWithinOnePercentJoin) {
    ImportedFile a, b;
    a.path = "a.csv";
    b.path = "b.csv";
    ImportedKernel k;
    k.name = "k";
    k.launches = k.profiled_launches = 2;
    k.counters = {{"inst_warp", 200}}; // 100 per launch
    a.kernels = {k};
    k.launches = k.profiled_launches = 4;
    k.counters = {{"inst_warp", 400.4}, {"dram_sectors_read", 40}}; // 100.1, 10 per launch
    b.kernels = {k};
    const model::Profile p = join_files({a, b});
    ASSERT_EQ(p.kernels.size(), 1u);
    EXPECT_EQ(p.kernels[0].profiled_launches, 4u);
    // Per launch: inst 100 (first file), DRAM 10; x 4 profiled launches.
    EXPECT_DOUBLE_EQ(p.kernels[0].counters.at("inst_warp"), 400);
    EXPECT_DOUBLE_EQ(p.kernels[0].counters.at("dram_sectors_read"), 40);
    b.kernels[0].counters["inst_warp"] = 4 * 102.0; // 2% apart
    EXPECT_THROW((void)join_files({a, b}), ImportError);
}

// clock_hz is a per-launch measurement of the run, not a sum: each file's kernel holds its mean
// clock, the first file's stands when files are joined (docs/import.md, "Several files"), and
// the joined kernel keeps it as it is, not divided or multiplied by any launch count.
TEST(ImportJoin, TheClockIsKeptAsAMeanWhenFilesAreJoined) {
    ImportedFile a, b;
    a.path = "a.csv";
    b.path = "b.csv";
    ImportedKernel k;
    k.name = "k";
    k.launches = k.profiled_launches = 2;
    k.counters = {{"inst_warp", 200}, {"clock_hz", 1.5e9}}; // 100 per launch, 1.5 GHz
    a.kernels = {k};
    k.launches = k.profiled_launches = 4;
    k.counters = {{"inst_warp", 400}, {"clock_hz", 1.7e9}};
    b.kernels = {k};
    const model::Profile p = join_files({a, b});
    ASSERT_EQ(p.kernels.size(), 1u);
    EXPECT_DOUBLE_EQ(p.kernels[0].counters.at("clock_hz"), 1.5e9); // not 1.5e9 / 2
    EXPECT_DOUBLE_EQ(p.kernels[0].counters.at("inst_warp"), 400);  // 100 x 4 profiled launches
    const model::Profile one = join_files({b});
    EXPECT_DOUBLE_EQ(one.kernels[0].counters.at("clock_hz"), 1.7e9); // not 1.7e9 / 4
}

} // namespace
} // namespace test_import
} // namespace irf::import

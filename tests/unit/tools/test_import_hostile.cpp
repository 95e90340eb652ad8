// SPDX-License-Identifier: Apache-2.0
// tools/import against a careless user and a malicious file (issue 52): values that overflow
// once scaled or summed, units that are not the metric's, numbers strtod would take but ncu never
// writes; each refused with one line naming the file, line and cell.
#include <sstream>
#include <streambuf>
#include <string>

#include <gtest/gtest.h>

#include "tools/import/csv_records.hpp"
#include "tools/import/import_error.hpp"
#include "tools/import/import_gpu.hpp"
#include "tools/import/read_export.hpp"
#include "tools/import/values.hpp"

namespace irf::import::hostile_input {
namespace test_import_hostile {
namespace {

using Kind = config::ForeignKind;

ImportedFile read_text(const std::string& text) {
    std::istringstream in(text);
    return read_export(in, "t.csv");
}

/// The one-line error of reading `text`, or "" when it reads.
std::string error_of(const std::string& text) {
    try {
        (void)read_text(text);
    } catch (const ImportError& e) {
        return e.what();
    }
    return "";
}

const char* const s_header = "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Metric Name\","
                             "\"Metric Unit\",\"Metric Value\"\n";

/// One details-page row of launch `id` of kernel `k`.
std::string row(int id, const std::string& metric, const std::string& unit,
                const std::string& value, const std::string& kernel = "k") {
    return "\"" + std::to_string(id) + "\",\"" + kernel + "\",\"(32, 1, 1)\",\"(2, 1, 1)\",\"" +
           metric + "\",\"" + unit + "\",\"" + value + "\"\n";
}

TEST(ImportHostileValues, OnlyPlainDecimalsAreNumbers) {
    for (const char* text : {"0x10", "0X1p4", "inf", "-inf", "nan", "INFINITY", "1e", "e5", ".",
                             "+", "1.5.2", "1e+"}) {
        EXPECT_EQ(parse_cell(text).status, CellValue::Status::bad) << text;
    }
    EXPECT_DOUBLE_EQ(parse_cell("+16").value, 16);
    EXPECT_DOUBLE_EQ(parse_cell(".5").value, 0.5);
    EXPECT_DOUBLE_EQ(parse_cell("5.").value, 5);
    EXPECT_DOUBLE_EQ(parse_cell("1.5E-3").value, 0.0015);
    EXPECT_DOUBLE_EQ(parse_cell("1,000.25e2").value, 100025);
    const std::string e =
        error_of(std::string(s_header) + row(0, "smsp__inst_executed.sum", "inst", "0x10"));
    EXPECT_NE(e.find("t.csv:2:67: '0x10' is not a number"), std::string::npos) << e;
}

TEST(ImportHostileValues, ACountInASizeUnitOrAnUnknownUnitIsRefused) {
    EXPECT_FALSE(unit_factor(Kind::count, "Kbyte")); // was x1000
    EXPECT_FALSE(unit_factor(Kind::count, "byte"));
    EXPECT_FALSE(unit_factor(Kind::count, "furlong")); // was x1
    EXPECT_FALSE(unit_factor(Kind::count, "Kfurlong"));
    EXPECT_FALSE(unit_factor(Kind::count, "inst/cycle"));
    EXPECT_FALSE(unit_factor(Kind::count, "%"));
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::count, "Ksector"), 1e3);
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::count, "Minst"), 1e6);
    EXPECT_DOUBLE_EQ(*unit_factor(Kind::count, "warp"), 1);
    for (const char* unit : {"Kbyte", "furlong"}) {
        const std::string e =
            error_of(std::string(s_header) + row(0, "smsp__inst_executed.sum", unit, "5"));
        EXPECT_NE(e.find("t.csv:2:60: unit '" + std::string(unit) + "' is not a count unit"),
                  std::string::npos)
            << e;
    }
}

TEST(ImportHostileValues, AValueBeyondDoubleRangeInBaseUnitsNamesItsCell) {
    // 1e300 seconds is 1e309 ns: finite as written, infinite once scaled.
    const std::string e =
        error_of(std::string(s_header) + row(0, "gpu__time_duration.sum", "second", "1e300"));
    EXPECT_NE(e.find("t.csv:2:68: '1e300' second is beyond the largest number"), std::string::npos)
        << e;
    EXPECT_NE(e.find("time_ns"), std::string::npos) << e;
}

TEST(ImportHostileValues, SumsBeyondDoubleRangeNameTheKernelAndCounter) {
    // Two launches of 1e308 instructions: each finite, their sum is not.
    std::string e =
        error_of(std::string(s_header) + row(0, "smsp__inst_executed.sum", "inst", "1e308") +
                 row(1, "smsp__inst_executed.sum", "inst", "1e308"));
    EXPECT_NE(e.find("t.csv:2: kernel k: inst_warp is beyond the largest number irf keeps "
                     "(1.8e308) once summed over its 2 launches"),
              std::string::npos)
        << e;
    e = error_of(std::string(s_header) + row(0, "gpu__time_duration.sum", "nsecond", "1e308") +
                 row(1, "gpu__time_duration.sum", "nsecond", "1e308"));
    EXPECT_NE(e.find("kernel k: the duration is beyond"), std::string::npos) << e;
    // nvprof's metrics summary: an average x its invocations.
    e = error_of("\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric "
                 "Description\",\"Min\",\"Max\",\"Avg\"\n"
                 "\"Tesla V100\",\"k\",3,\"inst_executed\",\"Instructions Executed\",1e308,"
                 "1e308,1e308\n");
    EXPECT_NE(e.find("kernel k: inst_warp is beyond"), std::string::npos) << e;
}

TEST(ImportHostileRows, OneLaunchIdNamingTwoKernelsIsRefused) {
    // Before: the second kernel's rows were merged into the first's launch (issue 52 item 6).
    const std::string e =
        error_of(std::string(s_header) + row(0, "smsp__inst_executed.sum", "inst", "5", "a") +
                 row(0, "dram__sectors_read.sum", "sector", "7", "b"));
    EXPECT_NE(e.find("t.csv:3:5: launch ID 0 names kernel 'b' here and 'a' at line 2"),
              std::string::npos)
        << e;
}

TEST(ImportHostileRows, OneMetricWithTwoValuesInOneLaunchIsRefused) {
    const std::string e =
        error_of(std::string(s_header) + row(0, "smsp__inst_executed.sum", "inst", "5") +
                 row(0, "smsp__inst_executed.sum", "inst", "9"));
    EXPECT_NE(e.find("t.csv:3:67: smsp__inst_executed.sum of launch ID 0 is '9' here and '5' at "
                     "line 2"),
              std::string::npos)
        << e;
    // ncu repeats some metrics in two sections with one value: still read once.
    const ImportedFile f =
        read_text(std::string(s_header) + row(0, "smsp__inst_executed.sum", "inst", "5") +
                  row(0, "smsp__inst_executed.sum", "inst", "5"));
    EXPECT_DOUBLE_EQ(f.kernels.at(0).counters.at("inst_warp"), 5);
}

/// A file of `path` on the GPU named `name` with compute capability `cc` and `sms` SMs.
ImportedFile file_on(const std::string& path, const std::string& name, const std::string& cc,
                     int sms) {
    ImportedFile f;
    f.path = path;
    f.device = name;
    f.cc = cc;
    f.sms = sms;
    return f;
}

TEST(ImportHostileRows, FilesOfTwoGpusAreNotJoined) {
    // Before: the first file's GPU was taken for all, and the others' counters mixed in.
    const std::vector<std::vector<ImportedFile>> mixed = {
        {file_on("a.csv", "NVIDIA H100 80GB HBM3", "9.0", 132),
         file_on("b.csv", "NVIDIA A100-SXM4-80GB", "8.0", 108)},
        {file_on("a.csv", "0", "9.0", 0), file_on("b.csv", "0", "8.0", 0)}, // ncu's index only
        {file_on("a.csv", "", "", 132), file_on("b.csv", "", "", 114)},
        {file_on("a.csv", "NVIDIA H100 PCIe", "", 0), file_on("b.csv", "Tesla V100", "", 0)},
    };
    for (const auto& files : mixed) {
        model::Profile p;
        try {
            (void)choose_gpu(p, files, "", {});
            ADD_FAILURE() << files[1].device << " joined to " << files[0].device;
        } catch (const ImportError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("b.csv: recorded on '", 0), 0u) << e.what();
            EXPECT_NE(std::string(e.what()).find("while a.csv was recorded on"), std::string::npos)
                << e.what();
        }
    }
    // One GPU spelled by two tools, or with the facts one file lacks: joined.
    model::Profile p;
    EXPECT_NO_THROW((void)choose_gpu(p,
                                     {file_on("a.csv", "Tesla V100-SXM2-16GB", "7.0", 80),
                                      file_on("b.csv", "tesla v100-sxm2-16GB", "", 0),
                                      file_on("c.csv", "0", "7.0", 0)},
                                     "", {}));
}

const std::string s_one_launch = std::string(s_header) +
                                 row(0, "smsp__inst_executed.sum", "inst", "5") +
                                 row(0, "gpu__time_duration.sum", "nsecond", "100");

/// s_one_launch with `eol` as every line end, after `prefix`.
std::string with_line_ends(const std::string& eol, const std::string& prefix = "") {
    std::string out = prefix;
    for (const char c : s_one_launch) {
        out += c == '\n' ? eol : std::string(1, c);
    }
    return out;
}

TEST(ImportHostileEncodings, ByteOrderMarkAndEveryLineEndRead) {
    // Excel's "CSV UTF-8" starts with a byte order mark; old Mac tools end lines with CR alone.
    for (const auto& [eol, prefix] : {std::pair<std::string, std::string>{"\n", "\xEF\xBB\xBF"},
                                      {"\r", ""},
                                      {"\r\n", "\xEF\xBB\xBF"},
                                      {"\r", "\xEF\xBB\xBF"}}) {
        SCOPED_TRACE(eol == "\r" ? "CR" : eol == "\n" ? "LF" : "CRLF");
        const ImportedFile f = read_text(with_line_ends(eol, prefix));
        ASSERT_EQ(f.kernels.size(), 1u);
        EXPECT_EQ(f.kernels[0].name, "k");
        EXPECT_DOUBLE_EQ(f.kernels[0].counters.at("inst_warp"), 5);
        EXPECT_DOUBLE_EQ(f.kernels[0].time_ns->total, 100);
    }
}

TEST(ImportHostileEncodings, AChunkBoundaryInsideCrLfIsOneLineEnd) {
    // Lines that put a CR as the last byte of the 64 KiB read-ahead: the LF that follows in the
    // next chunk must not make an empty line (nor shift the line numbers of errors).
    std::string text = "==PROF== " + std::string(65536 - 10, 'x') + "\r\n";
    ASSERT_EQ(text.size(), 65536u + 1);
    text += with_line_ends("\r\n");
    const std::string e = error_of(text + "bad,\"\n"); // line 5: a quote never closed
    EXPECT_NE(e.find("t.csv:5:"), std::string::npos) << e;
}

TEST(ImportHostileEncodings, Utf16IsNamedInTheError) {
    std::string le = "\xFF\xFE";
    std::string be = "\xFE\xFF";
    std::string bare;
    for (const char c : s_one_launch) {
        le += std::string(1, c) + '\0';
        be += std::string(1, '\0') + c;
        bare += std::string(1, c) + '\0';
    }
    for (const std::string& text : {le, be, bare}) {
        const std::string e = error_of(text);
        EXPECT_NE(e.find("t.csv: UTF-16 text (PowerShell's '>' writes it)"), std::string::npos)
            << e;
    }
}

TEST(ImportHostileEncodings, ALongLineIsRefusedAfter16MiB) {
    // One physical line (no quote open) was read whole: a 64 MiB name took 516 MB.
    const std::string e = error_of(std::string(s_header) + "\"0\",\"" +
                                   std::string(k_max_record_bytes + 10, 'n') + "\"\n");
    EXPECT_NE(e.find("t.csv:2: a line longer than 16 MiB"), std::string::npos) << e;
}

/// An endless line: the header, then a row whose name never ends; counts what was read.
class EndlessName : public std::streambuf {
public:
    EndlessName() : m_text(std::string(s_header) + "\"0\",\"") {}
    std::size_t given = 0;

protected:
    int_type underflow() override {
        if (m_text.empty() || given > 0) {
            m_text.assign(4096, 'n');
        }
        given += m_text.size();
        setg(m_text.data(), m_text.data(), m_text.data() + m_text.size());
        return traits_type::to_int_type(m_text[0]);
    }

private:
    std::string m_text;
};

TEST(ImportHostileEncodings, AnEndlessLineIsReadNoFurtherThanTheLimit) {
    // The bound docs/import.md states: the limit and one 64 KiB read-ahead, never the line.
    EndlessName source;
    std::istream in(&source);
    try {
        (void)read_export(in, "t.csv");
        FAIL() << "an endless line was read";
    } catch (const ImportError& e) {
        EXPECT_NE(std::string(e.what()).find("t.csv:2: a line longer than 16 MiB"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_LE(source.given, k_max_record_bytes + 2 * 65536);
}

} // namespace
} // namespace test_import_hostile
} // namespace irf::import::hostile_input

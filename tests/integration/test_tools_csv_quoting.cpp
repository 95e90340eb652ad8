// SPDX-License-Identifier: Apache-2.0
// `irf-report csv` and `csv --regions` as programs quote cells as RFC 4180 says (docs/tools.md):
// a cell with a quote, comma or line break is quoted with its quotes doubled, a formula is
// neutralised, a plain cell goes as it is. Through the command, not only csv_field.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/golden.hpp"
#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
namespace test_tools_csv_quoting {
namespace {

using nlohmann::json;

class ToolsCsvQuoting : public TempDirTest {
protected:
    /// The analysed golden profile with its first three kernels renamed `names`, and one NVTX
    /// region under the first kernel with the path `region`; returns its path.
    std::string profile(const std::vector<std::string>& names, const std::string& region) const {
        json doc = json::parse(read_file(data_path("golden/tools_profile_before.json")));
        for (std::size_t i = 0; i < names.size(); ++i) {
            doc["kernels"][i]["name"] = names[i];
            doc["kernels"][i]["display_name"] = names[i];
        }
        json& k = doc["kernels"][0];
        const double total = k["time_ns"]["total"].get<double>();
        k["regions"] = json::array({{{"path", region},
                                     {"launches", k["launches"]},
                                     {"time_ns", total},
                                     {"profiled_launches", k["profiled_launches"]}}});
        doc["regions"] = json::array(
            {{{"path", region}, {"time_ns", total}, {"launches", k["launches"]}, {"kernels", 1}}});
        const std::string path = (m_tmp / "p.json").string();
        write_file(path, doc.dump(1));
        return path;
    }

    static std::string csv(const std::vector<std::string>& args) {
        std::vector<std::string> argv{IRF_REPORT_BIN, "csv"};
        argv.insert(argv.end(), args.begin(), args.end());
        const ProcessResult r = run_process(argv);
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return r.out;
    }
};

// Each row starts with its kernel cell: quote doubled and the cell quoted; comma quoted;
// plain as it is.
TEST_F(ToolsCsvQuoting, KernelNamesWithQuotesAndCommasAreQuoted) {
    const std::string out = csv({profile({"say\"hi\"", "a,b", "plain_name"}, "step")});
    EXPECT_NE(out.find("\n\"say\"\"hi\"\"\","), std::string::npos) << out;
    EXPECT_NE(out.find("\n\"a,b\","), std::string::npos) << out;
    EXPECT_NE(out.find("\nplain_name,"), std::string::npos) << out;
    EXPECT_EQ(out.find("\nsay\"hi\","), std::string::npos) << out;
}

// A name a spreadsheet would run as a formula gets a leading quote and is quoted.
TEST_F(ToolsCsvQuoting, AFormulaNameIsNeutralised) {
    const std::string out = csv({profile({"=1+2"}, "step")});
    EXPECT_NE(out.find("\n\"'=1+2\","), std::string::npos) << out;
}

TEST_F(ToolsCsvQuoting, RegionPathsAreQuotedToo) {
    const std::string out = csv({"--regions", profile({"k"}, "step/say \"hi\", twice")});
    EXPECT_EQ(out.rfind("path,time_ns,", 0), 0u) << out;
    EXPECT_NE(out.find("\n\"step/say \"\"hi\"\", twice\","), std::string::npos) << out;
}

} // namespace
} // namespace test_tools_csv_quoting
} // namespace irf::test

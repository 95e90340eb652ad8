// SPDX-License-Identifier: Apache-2.0
// How an import names its GPU (issue 53 item 6): ncu's device__attribute_display_name where the
// Device column holds only an index, else the one shipped entry whose CC and SM count fit, and
// no guess when several fit. Each case is tests/data/import/ncu-long-h100.csv with its Device
// column made "0" and device attribute rows added.
#include <string>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/integration/tools_import_support.hpp"

namespace test_tools_import_gpu_name {
namespace {

using irf::test::ImportTest;
using nlohmann::json;

/// The H100 fixture with every `"NVIDIA H100 80GB HBM3"` Device cell made `"0"`, and one row of
/// the last launch (1) for each (metric, value) of `attributes`.
std::string unnamed_h100(const std::vector<std::pair<std::string, std::string>>& attributes) {
    std::string text = irf::test::read_file(IRF_TEST_DATA_DIR "/import/ncu-long-h100.csv");
    const std::string named = "\"NVIDIA H100 80GB HBM3\"";
    for (std::size_t at = text.find(named); at != std::string::npos; at = text.find(named, at)) {
        text.replace(at, named.size(), "\"0\"");
    }
    for (const auto& [metric, value] : attributes) {
        text += "\"1\",\"4242\",\"transpose_app\",\"node1\",\"void transpose<float, 32>(float*, "
                "const float*, int, int)\",\"1\",\"7\",\"(256, 1, 1)\",\"(1024, 1, 1)\",\"0\","
                "\"9.0\",\"Device attributes\",\"" +
                metric + "\",\"\",\"" + value + "\"\r\n";
    }
    return text;
}

class ImportGpuName : public ImportTest {
protected:
    json import_text(const std::string& text) {
        const std::string path = (m_tmp / "unnamed.csv").string();
        irf::test::write_file(path, text);
        const irf::test::ProcessResult r =
            irf::test::run_report({"import", path, "-o", out().string(), "--targets", "none"});
        EXPECT_EQ(r.exit_code, 0) << r.err;
        m_err = r.err;
        return json::parse(irf::test::read_file(out()));
    }
    std::string m_err;
};

TEST_F(ImportGpuName, TheDisplayNameAttributeNamesTheGpu) {
    const json p =
        import_text(unnamed_h100({{"device__attribute_display_name", "NVIDIA H100 80GB HBM3"}}));
    EXPECT_EQ(p.at("gpu").at("name"), "NVIDIA H100 SXM5 80GB");
}

TEST_F(ImportGpuName, TheOneShippedEntryOfThatCcAndSmCountIsChosenAndSaidSo) {
    // cc 9.0 with 78 SMs: the H20 alone among the shipped entries
    const json p = import_text(unnamed_h100({{"device__attribute_multiprocessor_count", "78"}}));
    EXPECT_EQ(p.at("gpu").at("name"), "NVIDIA H20");
    EXPECT_NE(m_err.find("the files name no GPU; h20 is the one shipped entry of cc 9.0 with 78 "
                         "SMs (pass --gpu NAME|FILE if that is wrong)"),
              std::string::npos)
        << m_err;
}

TEST_F(ImportGpuName, SeveralFittingEntriesAreNoGuess) {
    // cc 9.0 with 132 SMs: H100 SXM5, H200, H800 and GH200 all fit
    const json p = import_text(unnamed_h100({{"device__attribute_multiprocessor_count", "132"}}));
    EXPECT_EQ(p.at("gpu").at("name"), "");
    EXPECT_EQ(p.at("gpu").at("sms"), 132);
    EXPECT_NE(m_err.find("--gpu"), std::string::npos) << m_err;
}

} // namespace
} // namespace test_tools_import_gpu_name

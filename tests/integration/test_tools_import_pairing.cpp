// SPDX-License-Identifier: Apache-2.0
// The irf-vs-ncu workflow of the README on the H100 recording (tests/data/gpu/h100): libirf's
// profile of each known-answer app and ncu's export of the same app, imported, pair kernel by
// kernel through `irf-report compare --counters`, and the counters that
// docs/validation/h100-counters.md finds exact agree within 1% (issue #53 item 1).
#include <cstdlib>
#include <sstream>

#include "tests/integration/tools_import_support.hpp"

namespace test_tools_import_pairing {
namespace {

namespace fs = std::filesystem;
using irf::test::ProcessResult;
using irf::test::run_report;

const fs::path s_h100 = IRF_TEST_DATA_DIR "/gpu/h100";

// Counters the validation finds equal in all 28 cases (wavefronts_shared_ld within 0.021%).
const char* const k_exact[] = {
    "inst_warp",         "inst_thread",       "inst_global_ld",       "inst_global_st",
    "inst_shared_ld",    "inst_shared_st",    "inst_local_ld",        "inst_local_st",
    "sectors_global_ld", "sectors_global_st", "wavefronts_shared_ld", "wavefronts_shared_st",
    "thread_ffma",       "thread_fadd",       "thread_fmul",          "thread_dfma",
    "bytes_global_ld",   "bytes_global_st",   "ctas_launched",        "inst_tensor"};

std::vector<std::string> cases() {
    std::vector<std::string> out;
    for (const auto& entry : fs::directory_iterator(s_h100 / "ncu")) {
        const std::string name = entry.path().stem().string();
        if (fs::exists(s_h100 / "irf" / (name + ".json"))) {
            out.push_back(name);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The "(B - A) / A" column of counter `name` in every kernel table of `text`, as numbers (%).
std::vector<double> differences(const std::string& text, const std::string& name) {
    std::vector<double> out;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::string first, a, b, diff;
        if (words >> first >> a >> b >> diff && first == name && diff.back() == '%') {
            out.push_back(std::strtod(diff.c_str(), nullptr));
        }
    }
    return out;
}

using ImportPairing = irf::test::ImportTest;

TEST_F(ImportPairing, LibirfAndNcuOfTheH100RecordingPairKernelByKernel) {
    const std::vector<std::string> names = cases();
    ASSERT_EQ(names.size(), 28u); // docs/validation/h100-counters.md: 28 cases have both
    std::size_t kernels = 0;
    for (const std::string& c : names) {
        SCOPED_TRACE(c);
        const std::string irf = (s_h100 / "irf" / (c + ".json")).string();
        const ProcessResult imported =
            run_report({"import", (s_h100 / "ncu" / (c + ".csv")).string(), "--gpu", "h100-sxm5",
                        "--targets", "none", "-o", out().string()});
        ASSERT_EQ(imported.exit_code, 0) << imported.err;
        const ProcessResult r = run_report({"compare", "--counters", irf, out().string()});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(r.out.find("only in A:"), std::string::npos) << r.out;
        EXPECT_EQ(r.out.find("only in B:"), std::string::npos) << r.out;
        const auto profile = nlohmann::json::parse(irf::test::read_file(irf));
        const std::size_t n = profile.at("kernels").size();
        kernels += n;
        EXPECT_EQ(differences(r.out, "inst_warp").size(), n) << r.out;
        for (const char* counter : k_exact) {
            for (const double d : differences(r.out, counter)) {
                EXPECT_LE(std::abs(d), 1.0) << counter << "\n" << r.out;
            }
        }
        // The same GPU to plain compare: no note about different GPUs.
        const ProcessResult plain = run_report({"compare", irf, out().string()});
        ASSERT_EQ(plain.exit_code, 0) << plain.err;
        EXPECT_EQ(plain.out.find("different GPUs"), std::string::npos) << plain.out;
        EXPECT_EQ(plain.out.find("\nonly "), std::string::npos) << plain.out;
    }
    EXPECT_EQ(kernels, 32u); // demo-fma_chain has five kernels
}

TEST_F(ImportPairing, NcuDeviceIndexIsNoGpuNameAndTheSameChipIsNotADifferentGpu) {
    // ncu's Device column is "0": the import names no model and says which shipped entries fit
    // cc 9.0 and the measured clock (the triad ran above the H100 PCIe's 1,755 MHz boost), and
    // the kernels still pair.
    const std::string irf = (s_h100 / "irf" / "stream-triad.json").string();
    const ProcessResult imported = run_report(
        {"import", (s_h100 / "ncu" / "stream-triad.csv").string(), "-o", out().string()});
    ASSERT_EQ(imported.exit_code, 0) << imported.err;
    EXPECT_NE(imported.err.find("the files name no GPU model (cc 9.0)"), std::string::npos)
        << imported.err;
    const std::size_t list = imported.err.find("(shipped entries of cc 9.0: ");
    ASSERT_NE(list, std::string::npos) << imported.err;
    const std::string entries = imported.err.substr(list, imported.err.find(')', list) - list);
    EXPECT_NE(entries.find("h100-sxm5"), std::string::npos) << entries;
    EXPECT_EQ(entries.find("h100-pcie"), std::string::npos) << entries; // boost 1,755 MHz
    const auto p = nlohmann::json::parse(irf::test::read_file(out()));
    EXPECT_EQ(p.at("gpu").at("name"), "");
    EXPECT_EQ(p.at("gpu").at("chip"), "GH100");
    const ProcessResult r = run_report({"compare", "--counters", irf, out().string()});
    EXPECT_EQ(r.out.find("\nonly in"), std::string::npos) << r.out;
}

} // namespace
} // namespace test_tools_import_pairing

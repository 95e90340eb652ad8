// SPDX-License-Identifier: Apache-2.0
// irf-plot: every figure from the synthetic test profile, as non-empty PNG and SVG images with
// the kernel labels in the SVG text; compare mode; bad input gives one line and exit 2.
#include <filesystem>

#include <gtest/gtest.h>

#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace test_tools_plot {
namespace {

namespace fs = std::filesystem;

const std::string s_before = IRF_TEST_DATA_DIR "/golden/tools_profile_before.json";
const std::string s_after = IRF_TEST_DATA_DIR "/golden/tools_profile_after.json";

// Debian's python3-matplotlib lives with /usr/bin/python3; CI installs it.
bool have_matplotlib() {
    if (!fs::exists("/usr/bin/python3")) {
        return false;
    }
    return irf::test::run_process({"/usr/bin/python3", "-c", "import matplotlib"}).exit_code == 0;
}

class ToolsPlot : public irf::test::TempDirTest {
protected:
    void SetUp() override {
        if (!have_matplotlib()) {
            GTEST_SKIP() << "/usr/bin/python3 cannot import matplotlib "
                            "(apt-get install python3-matplotlib)";
        }
    }
    irf::test::ProcessResult plot(std::vector<std::string> args, bool expect_error = false) {
        args.insert(args.begin(), IRF_PLOT_BIN);
        irf::test::RunOptions options;
        options.timeout_s = 180;
        options.expect_irf_error = expect_error;
        return irf::test::run_process(args, options);
    }
    void expect_image(const std::string& name) {
        const fs::path png = m_tmp / (name + ".png");
        const fs::path svg = m_tmp / (name + ".svg");
        ASSERT_TRUE(fs::exists(png)) << png;
        ASSERT_TRUE(fs::exists(svg)) << svg;
        EXPECT_GT(fs::file_size(png), 10000u) << png;
        EXPECT_EQ(irf::test::read_file(png).substr(0, 8), "\x89PNG\r\n\x1a\n");
        EXPECT_NE(irf::test::read_file(svg).find("<svg"), std::string::npos);
    }
    std::string svg(const std::string& name) {
        return irf::test::read_file(m_tmp / (name + ".svg"));
    }
};

TEST_F(ToolsPlot, EveryFigureWithKernelLabels) {
    const auto r = plot({s_before, "-o", m_tmp.path().string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* name :
         {"instruction_roofline", "global_walls", "shared_walls", "flop_roofline", "projection"}) {
        expect_image(name);
    }
    // Each figure names the kernels it draws (matplotlib writes '<' as &lt; in SVG text).
    EXPECT_NE(svg("instruction_roofline").find("gsrb_branch"), std::string::npos);
    EXPECT_NE(svg("instruction_roofline").find("transpose_naive&lt;float&gt;"), std::string::npos);
    EXPECT_NE(svg("global_walls").find("stream_triad"), std::string::npos);
    EXPECT_NE(svg("shared_walls").find("transpose_coalesced&lt;float&gt;"), std::string::npos);
    EXPECT_NE(svg("flop_roofline").find("hgemm_wmma&lt;...&gt;"), std::string::npos);
    EXPECT_NE(svg("flop_roofline").find("FMA-mix ceiling"), std::string::npos);
    EXPECT_NE(svg("projection").find("b200-test"), std::string::npos);
    // The timing-only NCCL kernel has no roofline point, so it is not in the legend.
    EXPECT_EQ(svg("instruction_roofline").find("ncclDevKernel"), std::string::npos);
}

TEST_F(ToolsPlot, KernelFilterAndTop) {
    const auto r = plot({s_before, "-o", m_tmp.path().string(), "--kernels", "transpose", "--top",
                         "1", "--format", "svg"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(fs::exists(m_tmp / "instruction_roofline.png"));
    const std::string text = svg("instruction_roofline");
    // transpose_naive (12 ms) outranks transpose_coalesced (5.5 ms).
    EXPECT_NE(text.find("transpose_naive"), std::string::npos);
    EXPECT_EQ(text.find("transpose_coalesced"), std::string::npos);
}

TEST_F(ToolsPlot, CompareModeDrawsArrows) {
    const auto r = plot({"--compare", s_before, s_after, "-o", m_tmp.path().string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* name : {"compare_instruction_roofline", "compare_global_walls",
                             "compare_shared_walls", "compare_flop_roofline"}) {
        expect_image(name);
    }
    EXPECT_NE(svg("compare_instruction_roofline").find("before"), std::string::npos);
    EXPECT_NE(svg("compare_shared_walls").find("transpose_coalesced"), std::string::npos);
}

TEST_F(ToolsPlot, BadInputIsOneLineAndExitTwo) {
    irf::test::write_file(m_tmp / "wrong.json", R"({"schema": "x/v1", "kernels": []})");
    irf::test::write_file(m_tmp / "empty.json", R"({"schema": "irf.profile/v1", "kernels": []})");
    for (const auto& args : std::vector<std::vector<std::string>>{
             {(m_tmp / "missing.json").string(), "-o", m_tmp.path().string()},
             {(m_tmp / "wrong.json").string(), "-o", m_tmp.path().string()},
             {(m_tmp / "empty.json").string(), "-o", m_tmp.path().string()},
             {IRF_TEST_DATA_DIR "/tools/raw_before.json", "-o", m_tmp.path().string()},
             {s_before, "-o", m_tmp.path().string(), "--kernels", "no_such_kernel"},
             {s_before, "-o", m_tmp.path().string(), "--format", "gif"},
             // More series than the 20 distinct colours of the palette.
             {s_before, "-o", m_tmp.path().string(), "--top", "21"}}) {
        const auto r = plot(args, true);
        EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
        EXPECT_EQ(r.err.rfind("irf-plot: error: ", 0), 0u) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
    EXPECT_FALSE(fs::exists(m_tmp / "instruction_roofline.png"));
}

} // namespace
} // namespace test_tools_plot

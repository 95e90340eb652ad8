// SPDX-License-Identifier: Apache-2.0
// Fault matrix, hostile input round 3 (issue 52): irf-report never writes over its inputs, and
// what a careless command line or a malicious file does to import, html, merge, csv, compare,
// check-projection and trajectory ends in one line and exit 2.
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace irf::test {
namespace test_fault_round3 {
namespace {

namespace fs = std::filesystem;

const std::string s_data = IRF_TEST_DATA_DIR;

class HostileRound3 : public TempDirTest {
protected:
    void SetUp() override {
        fs::copy_file(s_data + "/golden/tools_profile_before.json", m_tmp / "a.json");
        fs::copy_file(s_data + "/golden/tools_profile_after.json", m_tmp / "b.json");
        fs::copy_file(s_data + "/import/ncu-long-h100.csv", m_tmp / "run.csv");
        // The same run at half the SMs: a second point for `trajectory`.
        nlohmann::json half = nlohmann::json::parse(read_file(m_tmp / "a.json"));
        half["gpu"]["sms_active"] = 66;
        write_file(m_tmp / "half.json", half.dump());
    }

    /// irf-report `args` run in the temporary directory.
    ProcessResult report(std::vector<std::string> args, bool expect_error = false) const {
        args.insert(args.begin(), IRF_REPORT_BIN);
        RunOptions o;
        o.cwd = m_tmp.path().string();
        o.expect_irf_error = expect_error;
        return run_process(args, o);
    }
};

/// A command line whose -o names `input`, and the output to use instead to see it succeed.
struct OverInput {
    std::vector<std::string> args; ///< "OUT" stands for the -o value
    std::string input;
};

std::vector<std::string> with_output(std::vector<std::string> args, const std::string& out) {
    for (std::string& a : args) {
        if (a == "OUT") {
            a = out;
        }
    }
    return args;
}

TEST_F(HostileRound3, AnOutputThatIsAnInputIsRefusedAndTheInputKept) {
    const std::vector<OverInput> cases = {
        {{"import", "run.csv", "-o", "OUT"}, "run.csv"},
        {{"html", "a.json", "-o", "OUT"}, "a.json"},
        {{"merge", "a.json", "b.json", "-o", "OUT"}, "a.json"},
        {{"merge", "a.json", "b.json", "-o", "OUT"}, "b.json"},
        {{"csv", "a.json", "-o", "OUT"}, "a.json"},
        {{"compare", "a.json", "b.json", "-o", "OUT"}, "b.json"},
        {{"compare", "a.json", "b.json", "--counters", "-o", "OUT"}, "a.json"},
        {{"check-projection", "a.json", "b.json", "--target", "h100-sxm5", "-o", "OUT"}, "b.json"},
        {{"trajectory", "half.json", "a.json", "-o", "OUT"}, "half.json"},
    };
    for (const OverInput& c : cases) {
        SCOPED_TRACE(c.args[0] + " -o " + c.input);
        // Positive control: with another output the command writes, so a refusal is the rule's.
        const ProcessResult ok = report(with_output(c.args, "elsewhere.out"));
        ASSERT_EQ(ok.exit_code, 0) << ok.err;
        ASSERT_TRUE(fs::exists(m_tmp / "elsewhere.out"));
        fs::remove(m_tmp / "elsewhere.out");

        const std::string before = read_file(m_tmp / c.input);
        const ProcessResult r = report(with_output(c.args, c.input), true);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find("-o " + c.input + " is the input " + c.input), std::string::npos)
            << r.err;
        EXPECT_EQ(read_file(m_tmp / c.input), before);
    }
}

TEST_F(HostileRound3, AnotherNameOfAnInputIsTheSameFile) {
    // A hard link and a path through ".." name the same inode: still refused.
    fs::create_hard_link(m_tmp / "run.csv", m_tmp / "link.json");
    fs::create_directory(m_tmp / "sub");
    const std::string before = read_file(m_tmp / "run.csv");
    for (const std::string out : {"link.json", "sub/../run.csv"}) {
        const ProcessResult r = report({"import", "run.csv", "-o", out}, true);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find("is the input run.csv"), std::string::npos) << r.err;
    }
    EXPECT_EQ(read_file(m_tmp / "run.csv"), before);
    // The published mode of check-projection and html's trajectory are inputs too.
    write_file(m_tmp / "pub.json", "{}");
    ProcessResult r = report({"check-projection", "a.json", "--published", "pub.json", "--target",
                              "h100-sxm5", "--calls", "1", "-o", "pub.json"},
                             true);
    EXPECT_NE(r.err.find("is the input pub.json"), std::string::npos) << r.err;
    EXPECT_EQ(read_file(m_tmp / "pub.json"), "{}");
    r = report({"html", "a.json", "--trajectory", "pub.json", "-o", "pub.json"}, true);
    EXPECT_NE(r.err.find("is the input pub.json"), std::string::npos) << r.err;
    EXPECT_EQ(read_file(m_tmp / "pub.json"), "{}");
}

TEST_F(HostileRound3, AnalyzeInPlaceStillWorks) {
    const ProcessResult r = report({"analyze", "a.json", "-o", "a.json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(read_file(m_tmp / "a.json"));
    EXPECT_TRUE(doc.at("kernels").at(0).contains("analysis"));
}

TEST_F(HostileRound3, AWriteOverAFileSizeLimitIsOneLineAndLeavesNoTemporary) {
    // Issue 52 item 9: SIGXFSZ ended irf-report mid-write, leaving OUT.tmp.<pid>.<n> (13 MB for
    // a 200,000-kernel CSV). The 5 MB page is over a 64 KiB limit (ulimit -f counts 1 KiB).
    RunOptions o;
    o.cwd = m_tmp.path().string();
    o.expect_irf_error = true;
    const ProcessResult r = run_process(
        {"/bin/sh", "-c",
         std::string("ulimit -f 64; exec ") + IRF_REPORT_BIN + " html a.json -o p.html"},
        o);
    EXPECT_EQ(r.signal, 0) << r.err;
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
    for (const auto& e : fs::directory_iterator(m_tmp.path())) {
        EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
        EXPECT_NE(e.path().filename(), "p.html");
    }
}

/// A fake `ncu` in `dir`: logs its arguments to dir/args.txt and runs `body` (sh).
void write_fake_ncu(const fs::path& dir, const std::string& body) {
    fs::create_directories(dir);
    write_file(dir / "ncu",
               "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + (dir / "args.txt").string() + "'\n" + body);
    fs::permissions(dir / "ncu", fs::perms::owner_all);
}

TEST_F(HostileRound3, AnNcuReportIsReadAsAStreamFromTheFirstExecutableNcu) {
    // A directory named ncu earlier in PATH (an unpacked Nsight Compute) is not ncu; the report
    // is passed as --import=PATH, so a name like an option stays the report's.
    fs::create_directories(m_tmp / "first" / "ncu");
    write_fake_ncu(m_tmp / "bin", "cat '" + s_data + "/import/ncu-raw-a100.csv'\n");
    write_file(m_tmp / "-x.ncu-rep", "binary");
    RunOptions o;
    o.cwd = m_tmp.path().string();
    o.env["PATH"] = (m_tmp / "first").string() + ":" + (m_tmp / "bin").string() + ":/usr/bin:/bin";
    const ProcessResult r =
        run_process({IRF_REPORT_BIN, "import", "-o", "p.json", "--", "-x.ncu-rep"}, o);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(m_tmp / "bin" / "args.txt"), "--import=-x.ncu-rep\n--csv\n--page\nraw\n");
    const auto p = nlohmann::json::parse(read_file(m_tmp / "p.json"));
    EXPECT_FALSE(p.at("kernels").empty());
}

TEST_F(HostileRound3, NcuHasATimeLimitAndItsFailureIsOneLine) {
    write_fake_ncu(m_tmp / "bin", "exec sleep 30\n");
    write_file(m_tmp / "r.ncu-rep", "binary");
    RunOptions o;
    o.cwd = m_tmp.path().string();
    o.env["PATH"] = (m_tmp / "bin").string() + ":/usr/bin:/bin";
    o.expect_irf_error = true;
    o.timeout_s = 20;
    ProcessResult r = run_process(
        {IRF_REPORT_BIN, "import", "r.ncu-rep", "-o", "p.json", "--ncu-timeout", "1"}, o);
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("`ncu --import` took longer than 1 s and was stopped"), std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(m_tmp / "p.json"));
    write_fake_ncu(m_tmp / "bin", "echo '==ERROR== cannot read the report' >&2\nexit 3\n");
    r = run_process({IRF_REPORT_BIN, "import", "r.ncu-rep", "-o", "p.json"}, o);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--import` failed (exit 3)"), std::string::npos) << r.err;
}

} // namespace
} // namespace test_fault_round3
} // namespace irf::test

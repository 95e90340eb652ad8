// SPDX-License-Identifier: Apache-2.0
// `irf trajectory` with a stub MPS control program on PATH and a stub application that writes
// prepared profiles: the daemon is started once, the percentage is set per run, the daemon is
// stopped at the end, and each failure is one clear line.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "model/profile/profile.hpp"
#include "model/profile/profile_json.hpp"
#include "tests/support/run_process.hpp"
#include "tests/support/temp_dir.hpp"
#include "tools/irf/trajectory.hpp"

namespace test_tools_trajectory {
namespace {

using irf::test::run_process;

void write_file(const std::string& path, const std::string& text, bool executable = false) {
    std::ofstream(path) << text;
    if (executable) {
        ::chmod(path.c_str(), 0755);
    }
}

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// An analysed profile of one kernel: 1e6 warp instructions, HBM ii 2, mean time `mean_ns`.
std::string profile_json(std::optional<int> sms_active, double mean_ns) {
    irf::model::Profile p;
    p.app = "stub";
    p.gpu.name = "Stub GPU";
    p.gpu.sms = 100;
    p.gpu.sms_active = sms_active;
    irf::model::CeilingsUsed c;
    c.name = "stub";
    c.warp_gips = 500;
    c.gtxn_per_s = {{"hbm", 100}};
    p.ceilings = c;
    irf::model::KernelRecord k;
    k.name = "triad";
    k.launch.grid = {1000, 1, 1};
    k.launches = 10;
    k.time_ns = {10 * mean_ns, mean_ns, mean_ns, mean_ns};
    if (!sms_active) {
        k.profiled_launches = 1;
        k.counters = {{"inst_warp", 1e6},
                      {"dram_sectors_read", 5e5},
                      {"dram_sectors_write", 0},
                      {"time_ns", mean_ns}};
    }
    p.kernels.push_back(k);
    return irf::model::dump_profile(p);
}

struct Stubs {
    irf::test::TempDir dir;
    std::string bin = dir.path().string() + "/bin";
    std::string app = dir.path().string() + "/app.sh";
    std::string control_log = dir.path().string() + "/control.log";
    std::string app_log = dir.path().string() + "/app.log";

    explicit Stubs(int control_status = 0) {
        ::mkdir(bin.c_str(), 0755);
        write_file(bin + "/nvidia-cuda-mps-control",
                   "#!/bin/sh\necho \"args:$*\" >> '" + control_log +
                       "'\nif [ \"$1\" = -d ]; then exit " + std::to_string(control_status) +
                       "; fi\nwhile read line; do echo \"stdin:$line\" >> '" + control_log +
                       "'; done\n",
                   true);
        write_file(dir.path().string() + "/100.json", profile_json(std::nullopt, 1e4));
        write_file(dir.path().string() + "/50.json", profile_json(50, 2e4));
        write_file(app,
                   "#!/bin/sh\necho \"pct=${CUDA_MPS_ACTIVE_THREAD_PERCENTAGE:-none} "
                   "samples=${IRF_SAMPLES:-default} pipe=${CUDA_MPS_PIPE_DIRECTORY:+set}\" >> '" +
                       app_log + "'\ncp '" + dir.path().string() +
                       "'/${CUDA_MPS_ACTIVE_THREAD_PERCENTAGE:-100}.json \"$IRF_OUTPUT.json\"\n",
                   true);
    }

    irf::test::ProcessResult run(const std::vector<std::string>& args, bool with_control = true,
                                 bool expect_error = false) {
        std::vector<std::string> argv{IRF_BIN, "trajectory"};
        argv.insert(argv.end(), args.begin(), args.end());
        argv.insert(argv.end(),
                    {"-o", dir.path().string() + "/out", "--lib", "/bin/sh", "--", app});
        irf::test::RunOptions o;
        o.env["PATH"] = (with_control ? bin + ":" : std::string()) + "/usr/bin:/bin";
        o.unset = {"CUDA_MPS_PIPE_DIRECTORY", "CUDA_MPS_LOG_DIRECTORY"};
        o.expect_irf_error = expect_error;
        return run_process(argv, o);
    }
};

TEST(ToolsTrajectory, StartsMpsOnceSetsThePercentagePerRunAndStopsIt) {
    Stubs s;
    const auto r = s.run({"--sms", "50%,100%"});
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    // The whole GPU first without MPS, then 50% under the private daemon, timing only.
    EXPECT_EQ(read_file(s.app_log), "pct=none samples=default pipe=\npct=50 samples=0 pipe=set\n");
    EXPECT_EQ(read_file(s.control_log), "args:-d\nargs:\nstdin:quit\n");
    const auto doc =
        nlohmann::json::parse(read_file(s.dir.path().string() + "/out.trajectory.json"));
    EXPECT_EQ(doc.at("schema"), "irf.trajectory/v1");
    const auto& points = doc.at("kernels").at(0).at("points");
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(points.at(0).at("sms"), 50);
    EXPECT_EQ(points.at(0).at("counters_sms"), 100); // counters borrowed from the full run
    EXPECT_NE(r.out.find("ideal"), std::string::npos) << r.out; // 2x faster on 2x the SMs
}

TEST(ToolsTrajectory, AbsoluteSmCountsBecomePercentagesOfTheProfiledGpu) {
    Stubs s;
    // 50 of the stub GPU's 100 SMs -> 50%.
    const auto r = s.run({"--sms", "50"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(read_file(s.app_log).find("pct=50 samples=0"), std::string::npos);
}

TEST(ToolsTrajectory, DaemonThatCannotStartIsOneLine) {
    Stubs s(1);
    const auto r = s.run({"--sms", "50%,100%"}, true, true);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("cannot start the MPS control daemon"), std::string::npos) << r.err;
    EXPECT_EQ(read_file(s.control_log), "args:-d\n"); // never told to quit: it did not start
}

TEST(ToolsTrajectory, MissingControlProgramSaysWhatToDo) {
    Stubs s;
    const auto r = s.run({"--sms", "25%,100%"}, false, true);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("nvidia-cuda-mps-control is not on PATH"), std::string::npos) << r.err;
}

TEST(ToolsTrajectory, BadShareIsRefusedBeforeAnyRun) {
    Stubs s;
    const auto r = s.run({"--sms", "50%,150%"}, true, true);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--sms '150%'"), std::string::npos) << r.err;
    EXPECT_EQ(read_file(s.app_log), "");
}

TEST(ToolsTrajectory, SharesParseAndRoundUpToWholePercent) {
    using irf::launcher::mps_percentage;
    using irf::launcher::parse_sm_shares;
    const auto shares = parse_sm_shares("25%,66,100%");
    ASSERT_EQ(shares.size(), 3u);
    EXPECT_EQ(mps_percentage(shares[0], 132), 25);
    EXPECT_EQ(mps_percentage(shares[1], 132), 50);              // 66 / 132 = 50%
    EXPECT_EQ(mps_percentage(parse_sm_shares("1")[0], 132), 1); // 0.76% rounds up to 1%
    EXPECT_EQ(mps_percentage(parse_sm_shares("33")[0], 132), 25);
    EXPECT_EQ(mps_percentage(parse_sm_shares("34")[0], 132), 26); // 25.8% -> 26%
    EXPECT_THROW((void)parse_sm_shares("0%"), irf::launcher::UsageError);
    EXPECT_THROW((void)parse_sm_shares("12.5"), irf::launcher::UsageError);
    EXPECT_THROW((void)parse_sm_shares(""), irf::launcher::UsageError);
}

// Issue #39 item 10: strtod took inf, 1e308 and 0x10, and `--sms 100%` ran the application
// before failing with "at least 2 required".
TEST(ToolsTrajectory, OnlyPlainSharesBelowTheWholeGpuAreAccepted) {
    using irf::launcher::parse_sm_shares;
    for (const char* bad :
         {"inf", "1e308", "0x10", "inf%", "-5", "5000", "1.5.5%", "100%", "100%,100%", "nan%"}) {
        EXPECT_THROW((void)parse_sm_shares(bad), irf::launcher::UsageError) << bad;
    }
    EXPECT_EQ(parse_sm_shares("12.5%,100%").size(), 2u);
    EXPECT_EQ(parse_sm_shares("132").size(), 1u); // a count: compared with the GPU after
}

} // namespace
} // namespace test_tools_trajectory

// SPDX-License-Identifier: Apache-2.0
// Where irf's options end (issue #39 item 4): at the application or "--". Before, `irf run -o X
// ./app foo -c 3 bar` gave the app `foo bar` (irf took -c 3) and `irf run /bin/sh -c 'echo hi'`
// failed on --launch-count.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>

#include "tools/irf/command_split.hpp"

namespace test_command_split {
namespace {

using Args = std::vector<std::string>;

/// The launcher's shape: run with valued options and trajectory with its own.
struct Launcher {
    CLI::App app{"irf"};
    std::string value;
    std::vector<std::string> many;
    Launcher() {
        CLI::App* run = app.add_subcommand("run");
        run->add_option("-o,--output", value);
        run->add_option("-c,--launch-count", value);
        run->add_option("--nvtx-include", many)->allow_extra_args(false);
        run->add_option("command", many);
        CLI::App* traj = app.add_subcommand("trajectory");
        traj->add_option("--sms", value);
        traj->add_option("command", many);
    }
    irf::launcher::CommandSplit split(const Args& args) const {
        return irf::launcher::split_command(app, args);
    }
};

TEST(CommandSplit, OptionsEndAtTheApplication) {
    const Launcher l;
    const auto s = l.split({"irf", "run", "-o", "X", "./app", "foo", "-c", "3", "bar"});
    EXPECT_EQ(s.own, (Args{"irf", "run", "-o", "X"}));
    EXPECT_EQ(s.application, (Args{"./app", "foo", "-c", "3", "bar"}));
    EXPECT_EQ(l.split({"irf", "run", "/bin/sh", "-c", "echo hi"}).application,
              (Args{"/bin/sh", "-c", "echo hi"}));
}

TEST(CommandSplit, DoubleDashStaysAccepted) {
    const Launcher l;
    const auto s = l.split({"irf", "run", "-c", "3", "--nvtx-include", "a/", "--", "-app", "--"});
    EXPECT_EQ(s.own, (Args{"irf", "run", "-c", "3", "--nvtx-include", "a/"}));
    EXPECT_EQ(s.application, (Args{"-app", "--"}));
}

TEST(CommandSplit, AttachedValuesAndUnknownOptionsStayWithIrf) {
    const Launcher l;
    const auto s = l.split({"irf", "run", "-c3", "--output=o", "--bogus", "app", "-o", "y"});
    EXPECT_EQ(s.own, (Args{"irf", "run", "-c3", "--output=o", "--bogus"}));
    EXPECT_EQ(s.application, (Args{"app", "-o", "y"}));
}

TEST(CommandSplit, TrajectoryStopsAtTheApplicationToo) {
    const Launcher l;
    const auto s = l.split({"irf", "trajectory", "--sms", "50%,100%", "./app", "--sms", "1"});
    EXPECT_EQ(s.own, (Args{"irf", "trajectory", "--sms", "50%,100%"}));
    EXPECT_EQ(s.application, (Args{"./app", "--sms", "1"}));
}

} // namespace
} // namespace test_command_split

// SPDX-License-Identifier: Apache-2.0
// Runs that cannot form one trajectory (issue #39 item 10): different GPUs, more SMs active than
// the GPU has, and kernels without a positive time. Before, all were accepted ("-1.00x faster,
// efficiency -50%").
#include <stdexcept>

#include <gtest/gtest.h>

#include "model/projection/trajectory.hpp"

namespace irf::model {
namespace test_trajectory_inputs {
namespace {

Profile run(const std::string& gpu, int sms, int active, double mean_ns) {
    Profile p;
    p.app = "app";
    p.gpu.name = gpu;
    p.gpu.chip = "GH100";
    p.gpu.cc = "9.0";
    p.gpu.sms = sms;
    p.gpu.sms_active = active;
    p.ceilings = CeilingsUsed{};
    KernelRecord k;
    k.name = "k";
    k.launches = 1;
    k.time_ns.mean = mean_ns;
    k.time_ns.total = mean_ns;
    p.kernels.push_back(k);
    return p;
}

std::string error_of(const Profile& a, const Profile& b) {
    try {
        (void)build_trajectories({&a, &b});
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

TEST(TrajectoryInputs, RunsFromDifferentGpusAreRefused) {
    const std::string e = error_of(run("H100", 132, 132, 10), run("A100", 108, 54, 20));
    EXPECT_NE(e.find("a trajectory needs one GPU"), std::string::npos) << e;
}

TEST(TrajectoryInputs, MoreSmsActiveThanTheGpuHasIsRefused) {
    const std::string e = error_of(run("H100", 132, 132, 10), run("H100", 132, 200, 20));
    EXPECT_NE(e.find("sms_active 200 is above the GPU's 132 SMs"), std::string::npos) << e;
}

TEST(TrajectoryInputs, PointsWithoutAPositiveTimeAreLeftOut) {
    const Profile whole = run("H100", 132, 132, 10);
    const Profile half = run("H100", 132, 66, 0);
    const auto t = build_trajectories({&whole, &half});
    ASSERT_EQ(t.size(), 1u);
    EXPECT_EQ(t[0].points.size(), 1u);
    EXPECT_EQ(t[0].verdict.kind, "undecided");
    EXPECT_GE(t[0].verdict.speedup, 0);
}

} // namespace
} // namespace test_trajectory_inputs
} // namespace irf::model

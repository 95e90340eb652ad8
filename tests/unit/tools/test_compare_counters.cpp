// SPDX-License-Identifier: Apache-2.0
// `irf-report metrics --ncu` and `irf-report compare --counters` (issue 33 item 6).
#include <algorithm>

#include <gtest/gtest.h>

#include "config/metric_sets.hpp"
#include "tools/irf_report/compare_counters.hpp"
#include "tools/irf_report/ncu_command.hpp"

namespace irf::report {
namespace {

TEST(NcuCommand, DefaultLineCollectsExactlyIrfsDefaultSet) {
    const auto family = *config::chip_family("GH100");
    const std::string text = ncu_command_lines(family, "GH100");
    const std::string first = text.substr(text.find("\nncu ") + 1);
    const std::string line = first.substr(0, first.find('\n'));
    // The list between "--metrics " and the next space, with a comma after each name.
    const std::size_t start = line.find("--metrics ") + 10;
    const std::string list = line.substr(start, line.find(' ', start) - start) + ",";
    const auto names = config::metric_names(config::metric_bindings(family, false, false));
    for (const std::string& metric : names) {
        EXPECT_NE(list.find(metric + ","), std::string::npos) << metric;
    }
    EXPECT_EQ(std::count(list.begin(), list.end(), ','), static_cast<long>(names.size()));
    EXPECT_EQ(line.find("smsp__inst_executed_pipe_alu.sum"), std::string::npos); // pipe_mix only
    EXPECT_NE(text.find("irf-report import"), std::string::npos);
}

TEST(CompareCounters, RelativeDifference) {
    EXPECT_DOUBLE_EQ(*relative_difference(200, 210), 0.05); // (210 - 200) / 200
    EXPECT_DOUBLE_EQ(*relative_difference(0, 0), 0);
    EXPECT_FALSE(relative_difference(0, 3).has_value());
}

TEST(CompareCounters, PerProfiledLaunchSoRunsOfDifferentSamplesCompare) {
    model::Profile a, b;
    model::KernelRecord k;
    k.name = "k";
    k.profiled_launches = 2;
    k.counters = {{"inst_warp", 200}, {"dram_sectors_read", 10}}; // 100 and 5 per launch
    a.kernels = {k};
    k.profiled_launches = 4;
    k.counters = {{"inst_warp", 420}}; // 105 per launch: (105 - 100) / 100 = +5%
    b.kernels = {k};
    const std::string text = compare_counters_text(a, "libirf.json", b, "ncu.json");
    EXPECT_NE(text.find("inst_warp"), std::string::npos);
    EXPECT_NE(text.find("+5.00%"), std::string::npos) << text;
    EXPECT_NE(text.find("only in A"), std::string::npos) << text; // dram_sectors_read
}

} // namespace
} // namespace irf::report

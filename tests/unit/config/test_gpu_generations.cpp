// SPDX-License-Identifier: Apache-2.0
// The GPUs issue 54 item 7 added to the shipped database (docs/ceilings.md): each is there, and a
// device name holding another entry's alias matches its own entry.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "config/gpu_database.hpp"
#include <filesystem>

namespace irf::config {
namespace test_gpu_generations {
namespace {

std::vector<std::string> generations_dirs() {
    return {
        std::filesystem::weakly_canonical(std::filesystem::path(IRF_SOURCE_DIR) / "config" / "gpus")
            .string()};
}

TEST(GpuGenerations, TheGpusPeopleHaveAreShipped) {
    const auto keys = list_shipped(generations_dirs());
    EXPECT_GE(keys.size(), 35u);
    for (const char* key :
         {"rtx-2080-ti", "quadro-rtx-6000", "quadro-rtx-8000", "titan-rtx", "rtx-3090", "rtx-3080",
          "a40", "rtx-a4000", "a30", "l40", "rtx-6000-ada", "rtx-4080", "h800-sxm", "h20", "b100",
          "gb200", "b300", "rtx-5090", "rtx-pro-6000-blackwell"}) {
        EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key;
    }
}

TEST(GpuGenerations, ANameHoldingAnotherAliasMatchesItsOwnEntry) {
    const auto dirs = generations_dirs();
    const auto key = [&](const char* name, const char* cc, int sms) {
        return match_gpu(name, cc, sms, dirs).value_or("(none)");
    };
    EXPECT_EQ(key("NVIDIA L40", "8.9", 142), "l40");
    EXPECT_EQ(key("NVIDIA L40S", "8.9", 142), "l40s");                // both aliases: the longer
    EXPECT_EQ(key("NVIDIA GB200", "10.0", 148), "gb200");             // not b200
    EXPECT_EQ(key("NVIDIA H20", "9.0", 78), "h20");                   // not h200 (SMs differ)
    EXPECT_EQ(key("NVIDIA GeForce RTX 3090", "8.6", 82), "rtx-3090"); // not the Ti (84 SMs)
    EXPECT_EQ(key("NVIDIA RTX 6000 Ada Generation", "8.9", 142), "rtx-6000-ada");
    EXPECT_EQ(key("Quadro RTX 6000", "7.5", 72), "quadro-rtx-6000");
    EXPECT_EQ(key("NVIDIA GeForce RTX 2080 Ti", "7.5", 68), "rtx-2080-ti");
    EXPECT_EQ(key("NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "12.0", 188),
              "rtx-pro-6000-blackwell");
}

} // namespace
} // namespace test_gpu_generations
} // namespace irf::config

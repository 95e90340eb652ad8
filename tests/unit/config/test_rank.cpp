// SPDX-License-Identifier: Apache-2.0
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "config/rank.hpp"
#include "tests/support/env_lookup.hpp"

namespace test_rank {
namespace {

using irf::test::env_of;

TEST(Rank, AbsentOutsideAParallelJob) {
    EXPECT_FALSE(irf::config::detect_rank(env_of({})).has_value());
}

TEST(Rank, OpenMpiWinsOverSlurm) {
    EXPECT_EQ(
        irf::config::detect_rank(env_of({{"OMPI_COMM_WORLD_RANK", "3"}, {"SLURM_PROCID", "7"}})),
        3);
}

TEST(Rank, SlurmAlone) {
    EXPECT_EQ(irf::config::detect_rank(env_of({{"SLURM_PROCID", "12"}})), 12);
}

TEST(Rank, InvalidValuesAreSkipped) {
    EXPECT_EQ(irf::config::detect_rank(
                  env_of({{"PMI_RANK", "x1"}, {"PMIX_RANK", "-2"}, {"MV2_COMM_WORLD_RANK", "5"}})),
              5);
}

} // namespace
} // namespace test_rank

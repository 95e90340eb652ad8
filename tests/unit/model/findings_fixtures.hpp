// SPDX-License-Identifier: Apache-2.0
// Shared by the findings tests (issues 18 and 40): the shipped ceilings and a kernel projected
// from one shipped GPU to another.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "config/gpu_database.hpp"
#include "model/analyze.hpp"
#include "tests/unit/model/model_fixtures.hpp"

namespace irf::test {

/// The shipped ceilings of `key` (config/gpus/ of the source tree).
inline config::Ceilings shipped(const std::string& key) {
    const auto dir = std::filesystem::path(IRF_SOURCE_DIR) / "config" / "gpus";
    return config::load_shipped(key, {dir.string()});
}

/// A kernel of 1024-thread blocks: 2 per SM on cc 8.0/9.0/10.0 and 1 on cc 8.9, so 264 slots
/// on the H100/H200, 142 on the L40S and 296 on the B200. 93,720 = 5 x lcm(264, 142) blocks
/// fill every wave of the H100 and the L40S (the findings are about ceilings, not waves);
/// 97,680 those of the H100 and the B200.
inline model::KernelRecord full_waves_kernel(double time_ns, std::uint32_t blocks = 93720) {
    model::KernelRecord k = kernel_record(time_ns, blocks);
    k.launch.block = {1024, 1, 1};
    return k;
}

/// The one projection of `k`, measured on shipped GPU `from`, onto shipped GPU `to`.
inline model::Projection project_one(const model::KernelRecord& k, const std::string& from,
                                     const std::string& to) {
    const model::KernelAnalysis a = model::analyze_kernel(k, shipped(from), {shipped(to)});
    EXPECT_EQ(a.projection.size(), 1u);
    return a.projection.empty() ? model::Projection{} : a.projection.front();
}

} // namespace irf::test

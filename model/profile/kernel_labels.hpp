// SPDX-License-Identifier: Apache-2.0
// The display names of a profile's kernels (common::display_names over its records).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/kernel_name.hpp"
#include "model/profile/profile.hpp"

namespace irf::model {

/// Width of the kernel column of every text table, and of the JSON's display_name.
inline constexpr std::size_t k_label_width = 40;

/// The launch shape that tells records of one kernel apart in names: "g132 b256",
/// "g64x8 b32x8" (grid and block, trailing unit dimensions left out).
[[nodiscard]] std::string launch_shape(const LaunchConfig& launch);

/// One display name per record of `kernels` (same order), distinct for distinct kernels.
[[nodiscard]] std::vector<std::string>
kernel_labels(const std::vector<KernelRecord>& kernels,
              common::NameMode mode = common::NameMode::function,
              std::size_t max_chars = k_label_width);

/// Orders of kernel tables (`--sort`): total time (largest first), % of the Instruction
/// Roofline (highest first, kernels without one last), display name (alphabetical),
/// recoverable time (largest first, kernels without a roofline last).
enum class KernelOrder { time, roofline, name, recoverable };

/// The time a kernel would save at its roofline: total time x (1 - % of the Instruction
/// Roofline / 100), the % capped at 100; nullopt without a roofline verdict.
[[nodiscard]] std::optional<double> recoverable_ns(const KernelRecord& k);

/// The order called `text` ("time", "roofline", "name", "recoverable"); nullopt for anything
/// else.
[[nodiscard]] std::optional<KernelOrder> parse_kernel_order(std::string_view text);

/// Indices of `kernels` in `order` (stable: ties keep file order); `labels` are the display
/// names (kernel_labels) that the name order sorts by.
[[nodiscard]] std::vector<std::size_t> kernel_order(const std::vector<KernelRecord>& kernels,
                                                    const std::vector<std::string>& labels,
                                                    KernelOrder order);

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// L2 capacity: a kernel's working set from its L2 and DRAM traffic, whether it fits each GPU's
// L2, and its DRAM traffic on a target with another L2 size (docs/model.md, "L2
// capacity"; PROJ section 5.5, LULESH).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "config/ceilings.hpp"
#include "model/profile/analysis.hpp"
#include "model/roofline/kernel_ceilings.hpp"

namespace irf::model {

/// DRAM bytes of a kernel that moves `l2_traffic` bytes through an L2 of `capacity` bytes over a
/// working set of `working_set` unique bytes, when every re-use hits with probability
/// min(1, capacity / working_set): working_set + (l2_traffic - working_set) x (1 - that).
[[nodiscard]] double dram_traffic_bytes(double working_set, double l2_traffic, double capacity);

/// The working set that dram_traffic_bytes maps to the measured `dram_traffic` on an L2 of
/// `capacity`: the DRAM bytes when they fit (compulsory misses only), else
/// l2_traffic x capacity / (l2_traffic + capacity - dram_traffic). Never above l2_traffic.
[[nodiscard]] double working_set_bytes(double l2_traffic, double dram_traffic, double capacity);

/// The L2 fit of a kernel whose level bytes over `launches` launches are `bytes`. The target's
/// DRAM traffic is dram_traffic_bytes at the target's capacity whenever the L2 sizes differ (the
/// measured traffic when they are equal, or when the change is within 1%). nullopt, with `why`,
/// when an L2 size is unknown.
[[nodiscard]] std::optional<L2Fit> l2_fit(const LevelBytes& bytes, std::uint64_t launches,
                                          const config::GpuIdentity& source,
                                          const config::GpuIdentity& target, std::string& why);

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// The person-readable verdict of an analysed profile (<stem>.txt, DESIGN.md section 6).
#pragma once

#include <cstddef>
#include <string>

#include "model/profile.hpp"

namespace irf::model {

/// A table of the `top` kernels by total time (time %, launches, bound, % of roofline, global
/// wall pattern, shared conflict ways, predication, projected speedup per target), then coverage
/// and warnings. Kernels without analysis show "-" in the verdict columns.
[[nodiscard]] std::string text_summary(const Profile& profile, std::size_t top = 10);

} // namespace irf::model

// SPDX-License-Identifier: Apache-2.0
// "Verdicts left out" of the text summary (model/summary/text_summary.cpp, docs/model.md).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/profile/profile.hpp"

namespace irf::model {

/// Why verdicts of the first `shown` kernels of `order` are absent, one folded line per reason
/// with the kernels' ranks, and their notes; "" when there is none.
[[nodiscard]] std::string missing_section(const std::vector<const KernelRecord*>& order,
                                          std::size_t shown);

} // namespace irf::model

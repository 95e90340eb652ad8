// SPDX-License-Identifier: Apache-2.0
// The projected-time section of the text summary (model/text_summary.cpp, docs/model.md).
#pragma once

#include <string>
#include <vector>

#include "model/profile.hpp"

namespace irf::model {

/// One line per target of `targets`: the analysed kernels' total time projected there (Eq. 9
/// summed), fastest first; "" when no kernel was projected.
[[nodiscard]] std::string projection_section(const Profile& p,
                                             const std::vector<std::string>& targets);

} // namespace irf::model

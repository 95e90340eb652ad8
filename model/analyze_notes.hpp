// SPDX-License-Identifier: Apache-2.0
// The notes analyze() adds to a kernel's analysis (internal to model/; docs/model.md).
#pragma once

#include <string>
#include <vector>

#include "config/ceilings.hpp"
#include "model/profile/profile.hpp"

namespace irf::model {

/// Notes when L2 traffic clearly exceeds L1 sectors (on a chip of compute capability `cc`).
void note_lsu_bypass(const Counters& c, const std::string& cc, std::vector<std::string>& notes);

/// Notes an Instruction Roofline point above its ceiling.
void note_above_roofline(const KernelAnalysis& a, std::vector<std::string>& notes);

/// Notes a grid of fewer blocks than the `source` GPU has SMs.
void note_underfilled_grid(const KernelRecord& k, const config::Ceilings& source,
                           std::vector<std::string>& notes);

} // namespace irf::model

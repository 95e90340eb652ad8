// SPDX-License-Identifier: Apache-2.0
// irf-report compare: how each kernel moved between two profiles.
#pragma once

#include <string>

#include "common/kernel_name.hpp"
#include "model/profile/kernel_labels.hpp"
#include "model/profile/profile.hpp"

namespace irf::report {

/// A one-line reading of how a kernel moved on the Instruction Roofline, e.g.
/// "moved right along HBM: fewer DRAM transactions per instruction (II 0.556 -> 2.22); time
/// unchanged". Uses the analysis of both records; says so when one has none.
[[nodiscard]] std::string compare_reading(const model::KernelRecord& before,
                                          const model::KernelRecord& after);

/// What compare shows: the `top` matched kernels in `order` (time: the larger of the two
/// times), named in `names` mode, as text or as a Markdown table.
struct CompareView {
    std::size_t top = 10;
    model::KernelOrder order = model::KernelOrder::time;
    common::NameMode names = common::NameMode::function;
    bool markdown = false;
    std::size_t name_width = model::k_label_width; ///< names cut to it; 0: not cut
};

/// The whole comparison: a header, one block per matched kernel (time, bound and % of
/// roofline, warp and thread GIPS, intensity per level, walls, predication, reading), the
/// kernels found in only one of the profiles, and a totals line.
[[nodiscard]] std::string compare_text(const model::Profile& before, const std::string& before_name,
                                       const model::Profile& after, const std::string& after_name,
                                       const CompareView& view = {});

} // namespace irf::report

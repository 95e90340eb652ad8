// SPDX-License-Identifier: Apache-2.0
// The person-readable verdict of an analysed profile (<stem>.txt, docs/model.md).
#pragma once

#include <cstddef>
#include <string>

#include "common/kernel_name.hpp"
#include "model/profile/kernel_labels.hpp"
#include "model/profile/profile.hpp"

namespace irf::model {

/// What a kernel table shows: how many rows (one default for every tool), in which order, and
/// how kernels are named (common/kernel_name.hpp).
struct SummaryView {
    std::size_t top = 10;
    KernelOrder order = KernelOrder::time;
    common::NameMode names = common::NameMode::function;
    /// Width of the kernel and region columns; names are cut to it (common::display_names).
    /// 0 cuts nothing: the column is as wide as the longest name.
    std::size_t name_width = k_label_width;
    std::size_t region_depth = 0; ///< levels of the NVTX region tree shown (0: all)
    /// Widest kernel-table line (the terminal's width); 0: no limit. Columns that do not fit
    /// are left out, least needed first, and named under the table.
    std::size_t max_width = 0;
};

/// A table of the `top` kernels by total time (time %, launches, per-launch mean/min/max, bound,
/// % of roofline, global wall pattern, shared conflict ways, active threads %, projected speedup
/// per target), then coverage and warnings. Kernels without analysis show "-" in the verdict
/// columns.
[[nodiscard]] std::string text_summary(const Profile& profile, const SummaryView& view = {});

} // namespace irf::model

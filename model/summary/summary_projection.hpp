// SPDX-License-Identifier: Apache-2.0
// The projected-time section of the text summary (model/summary/text_summary.cpp, docs/model.md).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/profile/profile.hpp"

namespace irf::model {

/// The text summary shows per-kernel projection columns for at most this many targets.
inline constexpr std::size_t k_summary_target_columns = 4;

/// Calls visit(target name, brief) for each projection of `k`: its projections, or its briefs
/// when analyze folded them (AnalyzeSettings::fold_projections, Profile::brief_targets).
template <typename Visit>
void for_each_brief(const Profile& p, const KernelRecord& k, Visit&& visit) {
    if (!k.analysis) {
        return;
    }
    for (const Projection& proj : k.analysis->projection) {
        visit(proj.target, brief_of(proj));
    }
    for (const ProjectionBrief& b : k.analysis->projection_brief) {
        visit(p.brief_targets.at(b.target), b);
    }
}

/// One line per target of `targets`: the analysed kernels' total time projected there (Eq. 9
/// summed), fastest first; "" when no kernel was projected.
[[nodiscard]] std::string projection_section(const Profile& p,
                                             const std::vector<std::string>& targets);

} // namespace irf::model
